// util/concurrent_bloom.h — a Bloom filter of 64-bit hashes that threads add to and probe at
// the same time, without locks. Blocked: each hash owns one 64-byte line and sets kProbes bits
// in it, so an add or a probe touches one cache line. The FloDB sorted level uses it so that a
// point read of a key the memtable does not hold skips the skiplist search (sorted_level.h).
//
// Invariants and memory ordering:
//   * Bits are only ever set, never cleared: once Add(h) happens-before MayContain(h), the probe
//     is true (no false negatives).
//   * The filter orders nothing itself (relaxed atomics). A caller that adds a key's hash before
//     it publishes the key's node with a release, and probes after an acquire that saw the node
//     (or after anything that happens-after the publication), gets no false negative.

#ifndef SLUICE_UTIL_CONCURRENT_BLOOM_H_
#define SLUICE_UTIL_CONCURRENT_BLOOM_H_

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace sluice {

class ConcurrentBloom {
 public:
  // bytes: rounded up to a power of two of at least one line; 0: no filter (every probe true).
  explicit ConcurrentBloom(size_t bytes)
      : lines_(bytes == 0 ? 0 : std::bit_ceil((bytes + kLineBytes - 1) / kLineBytes)),
        shift_(lines_ <= 1 ? 64 : 64 - std::countr_zero(lines_)),
        line_(lines_ == 0 ? nullptr : std::make_unique<Line[]>(lines_)) {}
  ConcurrentBloom(const ConcurrentBloom&) = delete;
  ConcurrentBloom& operator=(const ConcurrentBloom&) = delete;

  void Add(uint64_t hash) {
    if (line_ == nullptr) return;
    Line& line = line_[LineOf(hash)];
    uint64_t masks[kWordsPerLine];
    MasksOf(hash, masks);
    for (size_t w = 0; w < kWordsPerLine; w++) {
      // relaxed: see the file comment. The load skips the locked RMW when the bits are there.
      if (masks[w] != 0 && (line.word[w].load(std::memory_order_relaxed) & masks[w]) != masks[w]) {
        line.word[w].fetch_or(masks[w], std::memory_order_relaxed);
      }
    }
  }

  // False only if Add(hash) was never called (see the file comment for "never").
  bool MayContain(uint64_t hash) const {
    if (line_ == nullptr) return true;
    const Line& line = line_[LineOf(hash)];
    uint64_t masks[kWordsPerLine];
    MasksOf(hash, masks);
    for (size_t w = 0; w < kWordsPerLine; w++) {
      // relaxed: see the file comment.
      if ((line.word[w].load(std::memory_order_relaxed) & masks[w]) != masks[w]) return false;
    }
    return true;
  }

  // Starts fetching hash's line for an Add soon.
  void Prefetch(uint64_t hash) const {
    if (line_ != nullptr) __builtin_prefetch(&line_[LineOf(hash)], 1);
  }
  // Starts fetching hash's line for a MayContain soon (shared: no write intent).
  void PrefetchForRead(uint64_t hash) const {
    if (line_ != nullptr) __builtin_prefetch(&line_[LineOf(hash)], 0);
  }

  size_t MemoryUsage() const { return lines_ * kLineBytes; }

 private:
  static constexpr size_t kLineBytes = 64;
  static constexpr size_t kWordsPerLine = kLineBytes / 8;
  static constexpr int kProbes = 6;  // 9 hash bits each pick one of the line's 512 bits

  struct alignas(kLineBytes) Line {
    std::atomic<uint64_t> word[kWordsPerLine] = {};
  };

  // The line comes from the top bits of a remix of the hash, the bits inside it from the low
  // 54 bits of the hash itself.
  size_t LineOf(uint64_t hash) const {
    return shift_ == 64 ? 0 : static_cast<size_t>((hash * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  static void MasksOf(uint64_t hash, uint64_t* masks) {
    for (size_t w = 0; w < kWordsPerLine; w++) masks[w] = 0;
    for (int i = 0; i < kProbes; i++) {
      const unsigned bit = static_cast<unsigned>(hash >> (9 * i)) & 511;
      masks[bit >> 6] |= uint64_t{1} << (bit & 63);
    }
  }

  const size_t lines_;
  const int shift_;
  const std::unique_ptr<Line[]> line_;
};

}  // namespace sluice

#endif  // SLUICE_UTIL_CONCURRENT_BLOOM_H_
