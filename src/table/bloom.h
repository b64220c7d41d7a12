// table/bloom.h — the bloom filter of an SST file, built over the user keys of all its entries.
//
// Format (see docs/formats.md): bit array of m bits (m a multiple of 8, at least 64; bit i is
// bit i%8 of byte i/8), then one byte k, the number of probes. Key x sets/tests the bits
//   (h + j*delta) mod m   for j in [0, k),   h = Hash64(x) (XXH3, seed 0), delta = rotr64(h, 32)
// with 64-bit wrap-around arithmetic. Hash64 is stable across machines, so filters are portable.
// Invariants: a key that was added always matches (no false negatives); a filter that is too
// short to be valid, or whose k is 0 or above 30 (reserved), matches every key.

#ifndef SLUICE_TABLE_BLOOM_H_
#define SLUICE_TABLE_BLOOM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sluice/slice.h"

namespace sluice {

class BloomFilterBuilder {
 public:
  // bits_per_key < 1 is treated as 1. The number of probes is round(bits_per_key * 0.69)
  // clamped to [1, 30].
  explicit BloomFilterBuilder(int bits_per_key);

  // Adds a key; a key equal to the one added just before is ignored.
  void AddKey(const Slice& user_key);
  // Distinct consecutive keys added since construction or the last Finish.
  size_t NumKeys() const { return hashes_.size(); }
  // Returns the filter over every key added so far and starts a new, empty one.
  std::string Finish();

 private:
  const int bits_per_key_;
  const int num_probes_;
  std::vector<uint64_t> hashes_;
};

// False only if user_key was certainly not added to the builder that produced filter.
bool BloomFilterMayMatch(const Slice& filter, const Slice& user_key);
// Starts fetching the cache lines BloomFilterMayMatch(filter, user_key) will read, so that a
// batch of lookups (MultiGet) overlaps their misses.
void BloomFilterPrefetch(const Slice& filter, const Slice& user_key);

}  // namespace sluice

#endif  // SLUICE_TABLE_BLOOM_H_
