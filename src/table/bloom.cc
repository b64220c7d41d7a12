// table/bloom.cc — bloom filter construction and probing (see bloom.h).

#include "table/bloom.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "util/hash.h"

namespace sluice {

namespace {

constexpr int kMaxProbes = 30;
constexpr uint64_t kMinBits = 64;

int ProbesFor(int bits_per_key) {
  const long k = std::lround(bits_per_key * 0.69);  // ln 2 minimises the false-positive rate
  return static_cast<int>(std::clamp<long>(k, 1, kMaxProbes));
}

// The encoding's probe positions for a filter of `bits` bits: h % bits, then after each
// h += delta (mod 2^64) the new h % bits. Computed exactly with one division for the first
// position and one more for all the others, instead of one per probe (a 64-bit division costs
// tens of cycles; it was most of a flush's filter time): with step = delta % bits, the next
// position is pos + step, less 2^64 % bits when h + delta wrapped around, reduced into
// [0, bits) by one add or subtract. 2^64 % bits is computed the first time a wrap needs it.
// A probe that misses at its first position (most lookups of absent keys) costs one division,
// as before.
class ProbeSequence {
 public:
  explicit ProbeSequence(uint64_t bits) : bits_(bits), wrap_(bits) {}

  // Calls visit(pos) for each of the k positions of hash h, in order, while it returns true;
  // returns false if a call returned false.
  template <typename Visit>
  bool ForEach(uint64_t h, int k, Visit&& visit) {
    uint64_t pos = h % bits_;
    if (!visit(pos)) return false;
    if (k == 1) return true;
    const uint64_t delta = std::rotr(h, 32);
    const uint64_t step = delta % bits_;
    for (int j = 1; j < k; j++) {
      const uint64_t next = h + delta;
      const bool wrapped = next < h;
      h = next;
      pos += step;  // < 2 * bits_
      if (pos >= bits_) pos -= bits_;
      if (wrapped) {
        const uint64_t wrap = Wrap();
        pos = pos >= wrap ? pos - wrap : pos + (bits_ - wrap);
      }
      if (!visit(pos)) return false;
    }
    return true;
  }

 private:
  uint64_t Wrap() {
    if (wrap_ == bits_) wrap_ = (0 - bits_) % bits_;  // bits_: not computed yet
    return wrap_;
  }

  const uint64_t bits_;
  uint64_t wrap_;  // 2^64 % bits_, or bits_ until first needed
};

}  // namespace

BloomFilterBuilder::BloomFilterBuilder(int bits_per_key)
    : bits_per_key_(std::max(1, bits_per_key)), num_probes_(ProbesFor(bits_per_key_)) {}

void BloomFilterBuilder::AddKey(const Slice& user_key) {
  const uint64_t h = Hash64(user_key);
  // Equal keys hash equally; skipping an unequal key with the same hash loses nothing either,
  // since it would set exactly the same bits.
  if (!hashes_.empty() && hashes_.back() == h) return;
  hashes_.push_back(h);
}

std::string BloomFilterBuilder::Finish() {
  uint64_t bits =
      std::max<uint64_t>(hashes_.size() * static_cast<uint64_t>(bits_per_key_), kMinBits);
  const uint64_t bytes = (bits + 7) / 8;
  bits = bytes * 8;
  std::string filter(bytes + 1, '\0');
  char* array = filter.data();
  ProbeSequence probes(bits);
  for (const uint64_t h : hashes_) {
    probes.ForEach(h, num_probes_, [array](uint64_t pos) {
      array[pos / 8] = static_cast<char>(array[pos / 8] | (1 << (pos % 8)));
      return true;
    });
  }
  filter[bytes] = static_cast<char>(num_probes_);
  hashes_.clear();
  return filter;
}

namespace {

// visit(byte address, bit) for each probe of user_key in filter while it returns true; true if
// every call did (and for a filter that excludes nothing).
template <typename Visit>
bool ForEachProbe(const Slice& filter, const Slice& user_key, Visit&& visit) {
  if (filter.size() < 2) return true;  // malformed: never exclude anything
  const int k = static_cast<unsigned char>(filter[filter.size() - 1]);
  if (k < 1 || k > kMaxProbes) return true;  // reserved for other encodings
  const uint64_t bits = (filter.size() - 1) * uint64_t{8};
  const char* array = filter.data();
  return ProbeSequence(bits).ForEach(Hash64(user_key), k, [&](uint64_t pos) {
    return visit(array + pos / 8, static_cast<int>(pos % 8));
  });
}

}  // namespace

bool BloomFilterMayMatch(const Slice& filter, const Slice& user_key) {
  return ForEachProbe(filter, user_key,
                      [](const char* byte, int bit) { return (*byte & (1 << bit)) != 0; });
}

void BloomFilterPrefetch(const Slice& filter, const Slice& user_key) {
  ForEachProbe(filter, user_key, [](const char* byte, int) {
    __builtin_prefetch(byte);
    return true;
  });
}

}  // namespace sluice
