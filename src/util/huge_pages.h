// util/huge_pages.h — large buffers (memory-component blocks, hash tables) backed by
// transparent huge pages where the kernel offers them: the memory components touch their
// megabytes at random, and with 4 KB pages nearly every such access also misses the TLB (a
// page walk, which even a prefetch waits for).
//
// Invariants:
//   * A buffer whose size is a non-zero multiple of kHugePageSize is mapped at a kHugePageSize
//     boundary and advised MADV_HUGEPAGE (a hint: where the kernel declines, the pages are
//     ordinary ones and nothing else changes). Other sizes come from operator new[]: rounding
//     them up would waste memory. Either way a buffer holds exactly the bytes asked for, starts
//     at a cache-line boundary (kCacheLineSize) at least, its contents are unspecified, and the
//     deleter returns it the way it came.

#ifndef SLUICE_UTIL_HUGE_PAGES_H_
#define SLUICE_UTIL_HUGE_PAGES_H_

#include <cstddef>
#include <memory>

#include "util/cpu.h"

namespace sluice {

inline constexpr size_t kHugePageSize = size_t{2} << 20;

struct HugePageDeleter {
  size_t mapped_bytes = 0;  // 0: from operator new[]
  void operator()(char* p) const;
};
using HugePageBuffer = std::unique_ptr<char[], HugePageDeleter>;

// bytes of memory (throws std::bad_alloc when there is none, as operator new does).
HugePageBuffer AllocateHugePageBuffer(size_t bytes);

}  // namespace sluice

#endif  // SLUICE_UTIL_HUGE_PAGES_H_
