// util/cpu.h — small helpers for concurrent code: a spin-wait hint, a dense per-thread index
// (for sharding counters and arenas), and the cache-line size.

#ifndef SLUICE_UTIL_CPU_H_
#define SLUICE_UTIL_CPU_H_

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace sluice {

constexpr size_t kCacheLineSize = 64;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// A small integer identifying the calling thread, assigned densely in order of first use.
uint32_t ThreadIndex();

}  // namespace sluice

#endif  // SLUICE_UTIL_CPU_H_
