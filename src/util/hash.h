// util/hash.h — fast non-cryptographic hashing (xxHash's XXH3) for bloom filters, cache
// sharding and hash-based memory components. Values are stable across runs and machines: bloom
// filters stored in SST files depend on them.

#ifndef SLUICE_UTIL_HASH_H_
#define SLUICE_UTIL_HASH_H_

#include <cstddef>
#include <cstdint>

#include "sluice/slice.h"

namespace sluice {

uint64_t Hash64(const char* data, size_t n, uint64_t seed = 0);
inline uint64_t Hash64(const Slice& s, uint64_t seed = 0) {
  return Hash64(s.data(), s.size(), seed);
}

}  // namespace sluice

#endif  // SLUICE_UTIL_HASH_H_
