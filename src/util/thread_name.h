// util/thread_name.h — names for the engine's own threads (background jobs, drainers, the epoch
// reclaimer), so that `top -H`, `perf report --sort comm` and gdb tell them apart.
//
// Invariant: a name is at most kMaxThreadName characters (the kernel's limit, 15); longer
// ones are cut. Naming is best effort: a failure changes nothing else.

#ifndef SLUICE_UTIL_THREAD_NAME_H_
#define SLUICE_UTIL_THREAD_NAME_H_

#include <cstddef>

namespace sluice {

inline constexpr size_t kMaxThreadName = 15;

// Names the calling thread.
void SetCurrentThreadName(const char* name);

}  // namespace sluice

#endif  // SLUICE_UTIL_THREAD_NAME_H_
