// sluice_bench/thread_stats.cc — the monotonic clock of the measurements.

#include "sluice_bench/thread_stats.h"

#include <chrono>

namespace sluice_bench {

uint64_t NowNanos() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace sluice_bench
