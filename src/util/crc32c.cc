// util/crc32c.cc — CRC-32C through ISA-L's crc32_iscsi.
//
// crc32_iscsi neither pre- nor post-inverts; the standard CRC-32C is ~crc32_iscsi(d, n, ~0).
// Extend keeps that convention so that Extend(Value(a), b) == Value(a + b).
//
// Invariant: Extend returns with the upper halves of the vector registers clean. ISA-L picks
// an AVX-512 routine on CPUs that have it and returns without VZEROUPPER, leaving the
// registers' upper state dirty. On Intel cores every legacy-SSE instruction executed
// afterwards (gcc's default x86-64 code uses them for 8- and 16-byte moves) then carries a
// dependency on those upper bits, which slows the caller's code until the next VZEROUPPER:
// glibc's AVX-512 string functions, which use only registers 16-31, never issue one. Extend
// issues it after ISA-L on every CPU with AVX (it costs about a cycle).

#include "util/crc32c.h"

#include <isa-l/crc.h>

#include <climits>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace sluice::crc32c {

namespace {

#if defined(__x86_64__)
const bool kCpuHasAvx = [] {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports in static initialisers
  return __builtin_cpu_supports("avx") != 0;
}();

__attribute__((target("avx"))) void ZeroUpperVectorState() { _mm256_zeroupper(); }
#endif

}  // namespace

uint32_t Extend(uint32_t init_crc, const char* data, size_t n) {
  uint32_t crc = ~init_crc;
  auto* p = reinterpret_cast<unsigned char*>(const_cast<char*>(data));
  while (n > 0) {
    const int chunk = n > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(n);
    crc = crc32_iscsi(p, chunk, crc);
    p += chunk;
    n -= static_cast<size_t>(chunk);
  }
#if defined(__x86_64__)
  if (kCpuHasAvx) ZeroUpperVectorState();
#endif
  return ~crc;
}

}  // namespace sluice::crc32c
