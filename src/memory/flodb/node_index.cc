// memory/flodb/node_index.cc — see node_index.h for the layout and the invariants.

#include "memory/flodb/node_index.h"

#include <algorithm>
#include <bit>
#include <new>

namespace sluice {

NodeIndex::NodeIndex(size_t slots, KeyOfFn key_of)
    : key_of_(key_of),
      mask_(std::bit_ceil(std::max<size_t>(slots, kMaxProbes)) - 1),
      max_entries_((mask_ + 1) / 4 * 3) {}

std::atomic<uintptr_t>* NodeIndex::Slots() {
  // acquire: pairs with the release store below; the slots are seen zeroed.
  std::atomic<uintptr_t>* slots = slots_.load(std::memory_order_acquire);
  if (slots != nullptr) return slots;
  MutexLock l(&alloc_mu_);
  if (storage_ == nullptr) {
    // On huge pages where the kernel offers them: probes land at random in megabytes.
    storage_ = AllocateHugePageBuffer((mask_ + 1) * sizeof(std::atomic<uintptr_t>));
    auto* fresh = reinterpret_cast<std::atomic<uintptr_t>*>(storage_.get());
    for (uint64_t i = 0; i <= mask_; i++) new (&fresh[i]) std::atomic<uintptr_t>(0);  // empty
    // release: publishes the zeroed slots with the pointer.
    slots_.store(fresh, std::memory_order_release);
  }
  return slots_.load(std::memory_order_relaxed);
}

const char* NodeIndex::Find(const Slice& key, uint64_t hash) const {
  // acquire: pairs with Slots()'s release store.
  const std::atomic<uintptr_t>* slots = slots_.load(std::memory_order_acquire);
  if (slots == nullptr) return nullptr;
  const uintptr_t tag = TagOf(hash);
  for (size_t i = 0; i < kMaxProbes; i++) {
    // acquire: pairs with Insert's release CAS; the node's key is visible with the pointer.
    const uintptr_t slot = slots[(hash + i) & mask_].load(std::memory_order_acquire);
    if (slot == 0) return nullptr;  // probe sequences have no holes: slots are never cleared
    if ((slot >> kTagShift) == tag && key_of_(NodeOf(slot)) == key) return NodeOf(slot);
  }
  return nullptr;
}

void NodeIndex::Insert(uint64_t hash, const char* node) {
  const uintptr_t raw = reinterpret_cast<uintptr_t>(node);
  // relaxed: only a cap on the load; an overshoot by a few concurrent inserts is harmless.
  if ((raw >> kTagShift) != 0 || entries_.load(std::memory_order_relaxed) >= max_entries_) {
    return;  // not indexed: it is found by a search
  }
  std::atomic<uintptr_t>* slots = Slots();
  const uintptr_t tag = TagOf(hash);
  const uintptr_t wanted = raw | (tag << kTagShift);
  const Slice key = key_of_(node);
  for (size_t i = 0; i < kMaxProbes; i++) {
    std::atomic<uintptr_t>& s = slots[(hash + i) & mask_];
    uintptr_t slot = s.load(std::memory_order_acquire);
    if (slot == 0) {
      // release: publishes the node (its key) with the pointer; acquire on failure: the
      // winner's node is read below.
      if (s.compare_exchange_strong(slot, wanted, std::memory_order_release,
                                    std::memory_order_acquire)) {
        entries_.fetch_add(1, std::memory_order_relaxed);
        return;
      }
    }
    // Taken (by now): by this key's node (one node per key), or by another key.
    if ((slot >> kTagShift) == tag && key_of_(NodeOf(slot)) == key) return;
  }
}

}  // namespace sluice
