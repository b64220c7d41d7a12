// util/hash.cc — see hash.h.

#include "util/hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sluice {

uint64_t Hash64(const char* data, size_t n, uint64_t seed) {
  return XXH3_64bits_withSeed(data, n, seed);
}

}  // namespace sluice
