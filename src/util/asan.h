// util/asan.h — AddressSanitizer's manual poisoning, as no-ops in builds without it.
//
// SLUICE_ASAN_POISON(p, n) marks n bytes at p unaddressable (a later access is reported);
// SLUICE_ASAN_UNPOISON(p, n) makes them addressable again. Poisoning is a property of the
// addresses, not of the memory: it survives munmap, so whoever maps memory at an address must
// unpoison it (huge_pages.cc does for its mappings), and whoever poisons a region it then gives
// back should unpoison it first.

#ifndef SLUICE_UTIL_ASAN_H_
#define SLUICE_UTIL_ASAN_H_

#if defined(__SANITIZE_ADDRESS__)
#define SLUICE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLUICE_ASAN 1
#endif
#endif

#ifdef SLUICE_ASAN
#include <sanitizer/asan_interface.h>
#define SLUICE_ASAN_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define SLUICE_ASAN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define SLUICE_ASAN_POISON(p, n) ((void)(p), (void)(n))
#define SLUICE_ASAN_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#endif  // SLUICE_UTIL_ASAN_H_
