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
  for (uint64_t h : hashes_) {
    const uint64_t delta = std::rotr(h, 32);
    for (int j = 0; j < num_probes_; j++) {
      const uint64_t pos = h % bits;
      array[pos / 8] = static_cast<char>(array[pos / 8] | (1 << (pos % 8)));
      h += delta;
    }
  }
  filter[bytes] = static_cast<char>(num_probes_);
  hashes_.clear();
  return filter;
}

bool BloomFilterMayMatch(const Slice& filter, const Slice& user_key) {
  if (filter.size() < 2) return true;  // malformed: never exclude anything
  const int k = static_cast<unsigned char>(filter[filter.size() - 1]);
  if (k < 1 || k > kMaxProbes) return true;  // reserved for other encodings
  const uint64_t bits = (filter.size() - 1) * uint64_t{8};
  const char* array = filter.data();
  uint64_t h = Hash64(user_key);
  const uint64_t delta = std::rotr(h, 32);
  for (int j = 0; j < k; j++) {
    const uint64_t pos = h % bits;
    if ((array[pos / 8] & (1 << (pos % 8))) == 0) return false;
    h += delta;
  }
  return true;
}

}  // namespace sluice
