// memory/flodb/node_index.h — a hash index over the sorted level's skiplist nodes: user key ->
// node, so that a drain or a read of a key the level already holds finds its node with one or
// two cache misses instead of a skiplist search (a miss per hop). In the spirit of the hash
// skip-list buffer of "Anatomy of the LSM memory buffer" (DBTest'24), but beside the skiplist,
// which keeps the order for iterators and inserts.
//
// Open addressing with linear probing over a fixed power-of-two array of slots. A slot holds a
// node key pointer with a 16-bit tag of the key's hash in its top bits (user-space pointers on
// the platforms sluice builds for leave them zero; a pointer that does not is not indexed), so
// a probe passes over other keys without touching their nodes. Insert-only: the sorted level
// never removes a node while it lives, so a slot, once set, never changes.
//
// Invariants:
//   * A slot goes from empty to a node once, by a release CAS after the node is linked and
//     its key written; Find loads slots with acquire.
//   * Each node is in at most one slot (one node per key; an Insert that finds the key's node
//     already there stops).
//   * complete(): every node passed to Insert so far has a slot. Once an Insert fails (its
//     probe sequence is full, or the index holds its maximum load), complete() is false for
//     good. The sorted level inserts a node before it links any version into it, so while
//     complete(), a key that Find misses has no version in the level (see SortedLevel::Get).

#ifndef SLUICE_MEMORY_FLODB_NODE_INDEX_H_
#define SLUICE_MEMORY_FLODB_NODE_INDEX_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sluice/slice.h"

namespace sluice {

class NodeIndex {
 public:
  // KeyOf(node) gives the user key a node holds.
  using KeyOfFn = Slice (*)(const char* node);

  // slots: rounded up to a power of two (at least 64).
  NodeIndex(size_t slots, KeyOfFn key_of);
  NodeIndex(const NodeIndex&) = delete;
  NodeIndex& operator=(const NodeIndex&) = delete;

  // The node of `key` (hash: Hash64 of it), or null if it is not indexed. Lock-free.
  const char* Find(const Slice& key, uint64_t hash) const;
  // Indexes `node`, whose key hashes to `hash`. Lock-free; concurrent Inserts of the same node
  // leave one slot. If there is no room, complete() becomes false.
  void Insert(uint64_t hash, const char* node);
  // Every node inserted so far is indexed. acquire: pairs with the release store of a failed
  // Insert, which precedes any version linked into that node.
  bool complete() const { return complete_.load(std::memory_order_acquire); }

  // Starts fetching the first slot of a key's probe sequence.
  void Prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[hash & mask_]); }

  size_t MemoryUsage() const { return (mask_ + 1) * sizeof(std::atomic<uintptr_t>); }

 private:
  // Probes at most this many slots (eight cache lines) per key.
  static constexpr size_t kMaxProbes = 64;
  static constexpr int kTagShift = 48;

  static uintptr_t TagOf(uint64_t hash) { return static_cast<uintptr_t>(hash >> kTagShift); }
  static const char* NodeOf(uintptr_t slot) {
    return reinterpret_cast<const char*>(slot & ((uintptr_t{1} << kTagShift) - 1));
  }

  const KeyOfFn key_of_;
  const uint64_t mask_;
  const size_t max_entries_;  // inserts beyond this many fail (keeps probe sequences short)
  std::unique_ptr<std::atomic<uintptr_t>[]> slots_;
  std::atomic<size_t> entries_{0};
  std::atomic<bool> complete_{true};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_NODE_INDEX_H_
