// util/crc32c.cc — CRC-32C through ISA-L's crc32_iscsi.
//
// crc32_iscsi neither pre- nor post-inverts; the standard CRC-32C is ~crc32_iscsi(d, n, ~0).
// Extend keeps that convention so that Extend(Value(a), b) == Value(a + b).

#include "util/crc32c.h"

#include <isa-l/crc.h>

#include <climits>

namespace sluice::crc32c {

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  uint32_t crc = ~init_crc;
  auto* p = reinterpret_cast<unsigned char*>(const_cast<char*>(data));
  while (n > 0) {
    const int chunk = n > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(n);
    crc = crc32_iscsi(p, chunk, crc);
    p += chunk;
    n -= static_cast<size_t>(chunk);
  }
  return ~crc;
}

}  // namespace sluice::crc32c
