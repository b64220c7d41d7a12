// util/thread_slot.h — ThreadSlot(): a small index that no two live threads share, recycled when
// a thread exits, so that per-thread state (counter shards, allocation caches) indexed by it
// belongs to one thread at a time and is updated without locked instructions.
//
// Invariants:
//   * At any time at most one live thread holds a given slot. A thread takes its slot on first
//     use and gives it back when it exits; slots are handed out lowest first.
//   * Hand-over orders the owners: a thread's last use of its slot happens-before the next
//     owner's first use (both go through one mutex), so an owner may keep plain (relaxed
//     load-then-store) state per slot, which a later owner continues.
//   * A thread that asks again after giving its slot back (from a destructor of another
//     thread_local, late in its exit) gets kNoSlot, as does every thread beyond the first
//     kMaxSlots live ones: such callers must use a shared, locked fallback.

#ifndef SLUICE_UTIL_THREAD_SLOT_H_
#define SLUICE_UTIL_THREAD_SLOT_H_

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace sluice {

namespace thread_slot_internal {
// The calling thread's slot once taken; UINT32_MAX before. Trivially destructible, so it stays
// readable while the thread's other thread_locals are being destroyed.
inline thread_local uint32_t current = UINT32_MAX;
uint32_t Acquire();
}  // namespace thread_slot_internal

inline constexpr uint32_t kMaxThreadSlots = 4096;
inline constexpr uint32_t kNoThreadSlot = kMaxThreadSlots;

// The calling thread's slot in [0, kMaxThreadSlots), or kNoThreadSlot (see above).
inline uint32_t ThreadSlot() {
  const uint32_t s = thread_slot_internal::current;
  return s != UINT32_MAX ? s : thread_slot_internal::Acquire();
}

// Per-thread state in `owned` + 1 entries: the calling thread's own entry if its slot is below
// `owned`, else the last, shared by every other thread.
inline uint32_t OwnedOrSharedIndex(uint32_t owned) { return std::min(ThreadSlot(), owned); }

// Adds delta to the entry at OwnedOrSharedIndex(owned): an owned entry has one writer, so a
// load and a store (with `order`) do; the shared one takes an atomic add (with `order`).
template <typename T>
void AddToOwnedOrShared(std::atomic<T>* entry, uint32_t index, uint32_t owned, T delta,
                        std::memory_order order) {
  if (index < owned) {
    entry->store(entry->load(std::memory_order_relaxed) + delta, order);
  } else {
    entry->fetch_add(delta, order);
  }
}

}  // namespace sluice

#endif  // SLUICE_UTIL_THREAD_SLOT_H_
