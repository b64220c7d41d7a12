// util/huge_pages.cc — see huge_pages.h.

#include "util/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

#include "util/asan.h"

namespace sluice {

HugePageBuffer AllocateHugePageBuffer(size_t bytes) {
  if (bytes == 0 || bytes % kHugePageSize != 0) {
    return HugePageBuffer(
        static_cast<char*>(::operator new[](bytes, std::align_val_t(kCacheLineSize))));
  }
  // Map one huge page more than needed, then unmap the ends, so that what stays starts at a
  // huge-page boundary (mmap only promises a 4 KB one).
  const size_t mapped = bytes + kHugePageSize;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageSize - 1) / kHugePageSize * kHugePageSize;
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = aligned + bytes;
  if (start + mapped > end) munmap(reinterpret_cast<void*>(end), start + mapped - end);
  char* p = reinterpret_cast<char*>(aligned);
  // A fresh mapping may sit where poisoned memory was unmapped (ASan keeps the poison of
  // addresses, not of mappings): it must start addressable.
  SLUICE_ASAN_UNPOISON(p, bytes);
  madvise(p, bytes, MADV_HUGEPAGE);  // a hint; ordinary pages if declined
  return HugePageBuffer(p, HugePageDeleter{bytes});
}

void HugePageDeleter::operator()(char* p) const {
  if (p == nullptr) return;
  if (mapped_bytes == 0) {
    ::operator delete[](p, std::align_val_t(kCacheLineSize));
  } else {
    SLUICE_ASAN_UNPOISON(p, mapped_bytes);  // no poison left behind at these addresses
    munmap(p, mapped_bytes);
  }
}

}  // namespace sluice
