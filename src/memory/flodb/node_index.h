// memory/flodb/node_index.h — a hash index over the sorted level's skiplist nodes: user key ->
// node, so that a drain or a read of a key the level holds and updates again and again finds
// its node with one or two cache misses instead of a skiplist search (a miss per hop). In the
// spirit of the hash skip-list buffer of "Anatomy of the LSM memory buffer" (DBTest'24), but
// beside the skiplist, which keeps the order for iterators and inserts.
//
// A cache, not a complete map: the sorted level indexes a node when it finds the node already
// there (the key is being updated), not when it makes it, so a workload of fresh keys (a fill)
// pays nothing but an empty probe, and the slot array is allocated on the first Insert (it
// counts in the component's memory only then). A key the index does not know is searched for
// in the skiplist.
//
// Open addressing with linear probing over a fixed power-of-two array of slots. A slot holds a
// node key pointer with a 16-bit tag of the key's hash in its top bits (user-space pointers on
// the platforms sluice builds for leave them zero; a pointer that does not is not indexed), so
// a probe passes over other keys without touching their nodes. Insert-only: the sorted level
// never removes a node while it lives, so a slot, once set, never changes.
//
// Invariants:
//   * The slot array, once published (release store of its pointer, after it was zeroed), is
//     never replaced; Find loads the pointer with acquire.
//   * A slot goes from empty to a node once, by a release CAS after the node is linked and
//     its key written; Find loads slots with acquire. Probe sequences have no holes.
//   * Each node is in at most one slot (one node per key; an Insert that finds the key's node
//     already there stops). At most three quarters of the slots are used: Inserts beyond that,
//     or whose probe sequence is full, do nothing.

#ifndef SLUICE_MEMORY_FLODB_NODE_INDEX_H_
#define SLUICE_MEMORY_FLODB_NODE_INDEX_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sluice/slice.h"
#include "util/huge_pages.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class NodeIndex {
 public:
  // KeyOf(node) gives the user key a node holds.
  using KeyOfFn = Slice (*)(const char* node);

  // slots: rounded up to a power of two (at least 64); allocated on the first Insert.
  NodeIndex(size_t slots, KeyOfFn key_of);
  NodeIndex(const NodeIndex&) = delete;
  NodeIndex& operator=(const NodeIndex&) = delete;

  // The node of `key` (hash: FloDBRecord::HashKey of it), or null if it is not indexed. Lock-free.
  const char* Find(const Slice& key, uint64_t hash) const;
  // Indexes `node`, whose key hashes to `hash`, if there is room. Lock-free but for the
  // allocation of the slot array; concurrent Inserts of the same node leave one slot.
  void Insert(uint64_t hash, const char* node);

  // Starts fetching the first slot of a key's probe sequence.
  void Prefetch(uint64_t hash) const {
    const std::atomic<uintptr_t>* slots = slots_.load(std::memory_order_relaxed);
    if (slots != nullptr) __builtin_prefetch(&slots[hash & mask_]);
  }

  // The slot array's bytes once allocated, else 0.
  size_t MemoryUsage() const {
    return slots_.load(std::memory_order_relaxed) == nullptr
               ? 0
               : (mask_ + 1) * sizeof(std::atomic<uintptr_t>);
  }

 private:
  // Probes at most this many slots (eight cache lines) per key.
  static constexpr size_t kMaxProbes = 64;
  static constexpr int kTagShift = 48;

  static uintptr_t TagOf(uint64_t hash) { return static_cast<uintptr_t>(hash >> kTagShift); }
  static const char* NodeOf(uintptr_t slot) {
    return reinterpret_cast<const char*>(slot & ((uintptr_t{1} << kTagShift) - 1));
  }
  std::atomic<uintptr_t>* Slots();  // allocating them if needed

  const KeyOfFn key_of_;
  const uint64_t mask_;
  const size_t max_entries_;  // inserts beyond this many do nothing (short probe sequences)
  Mutex alloc_mu_;
  HugePageBuffer storage_ GUARDED_BY(alloc_mu_);         // the slots' memory
  std::atomic<std::atomic<uintptr_t>*> slots_{nullptr};  // storage_, once published
  std::atomic<size_t> entries_{0};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_NODE_INDEX_H_
