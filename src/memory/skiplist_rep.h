// memory/skiplist_rep.h — the "skiplist" memory component: every version is one node of a
// lock-free concurrent skiplist (concurrent_skiplist.h) holding an encoded entry
// (encoded_entry.h). Inserts from many threads proceed in parallel without locks; reads never
// block. Versions are never updated in place: each write adds a node.

#ifndef SLUICE_MEMORY_SKIPLIST_REP_H_
#define SLUICE_MEMORY_SKIPLIST_REP_H_

#include <atomic>
#include <memory>

#include "memory/concurrent_skiplist.h"
#include "memory/encoded_entry.h"
#include "memory/memory_component.h"
#include "util/arena.h"

namespace sluice {

// A concurrent skiplist of encoded entries (encoded_entry.h), in internal-key order: the
// "skiplist" component, and each bucket of the hash components (hash_rep.h).
using EntryList = ConcurrentSkipList<EntryComparator>;

// Encodes a version into a node of the given height and links it. Thread-safe.
void AddToEntryList(EntryList* list, int height, SequenceNumber seq, ValueType type,
                    const Slice& key, const Slice& value);
// The newest version of key with sequence <= read_seq, if the list has one.
bool GetFromEntryList(const EntryList* list, const Slice& key, SequenceNumber read_seq,
                      MemoryLookup* result);
// An InternalIterator over the list (which must outlive it).
std::unique_ptr<InternalIterator> NewEntryListIterator(const EntryList* list);

class SkipListRep final : public MemoryComponent {
 public:
  SkipListRep(size_t write_buffer_size, std::function<SequenceNumber()> announced_sequence);

  const char* Name() const override { return "skiplist"; }
  void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
           bool keep_older) override;
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) override;
  std::unique_ptr<InternalIterator> NewIterator() override;
  size_t ApproximateMemoryUsage() const override { return arena_.MemoryUsage() + sizeof(*this); }
  uint64_t NumEntries() const override { return entries_.load(std::memory_order_relaxed); }
  SequenceNumber PrepareScan(bool allow_piggyback, bool* piggybacked) override {
    *piggybacked = false;
    return announced_sequence_();  // every version is always in the skiplist
  }

 private:
  ConcurrentArena arena_;
  EntryList list_;
  std::atomic<uint64_t> entries_{0};
  const std::function<SequenceNumber()> announced_sequence_;
};

// Arena block size for a component with the given budget: large enough to amortise block
// allocations, small enough that the unused tail of the last block stays a small fraction.
size_t ArenaBlockSizeFor(size_t write_buffer_size);

}  // namespace sluice

#endif  // SLUICE_MEMORY_SKIPLIST_REP_H_
