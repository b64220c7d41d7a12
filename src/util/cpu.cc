// util/cpu.cc — see cpu.h.

#include "util/cpu.h"

#include <atomic>

namespace sluice {

uint32_t ThreadIndex() {
  static std::atomic<uint32_t> next{0};
  // Relaxed: the index only has to be unique, it orders nothing.
  thread_local const uint32_t index = next.fetch_add(1, std::memory_order_relaxed);
  return index;
}

}  // namespace sluice
