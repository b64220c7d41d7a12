// memory/vector_rep.h — the "vector" and "vector-prealloc" memory components of "Anatomy of the
// LSM Memory Buffer" (DBTest'24): every version is appended, unsorted, to an array of entry
// pointers (entries in encoded_entry.h's layout, in an arena); the array is sorted lazily, on
// the first read or iteration after an insert (the flush iterates, so it sorts too). Cheapest
// for insert-only work, expensive when reads are interleaved with inserts.
//
// Concurrency: this component takes a lock (mu_). Add appends one pointer under it. A reader
// that finds unsorted entries sorts them under it and merges them with the current sorted run
// into a new, immutable run published as a shared_ptr; Get and iterators then read a run
// without the lock. An iterator keeps its run alive, so it sees the versions added before it was
// created (the weak consistency the MemoryComponent contract allows).
//
// Invariants (under mu_): every entry added is in exactly one of run_ and pending_; run_ is
// sorted by EntryComparator and never modified once published; entries in pending_ were added
// after run_ was built. "vector-prealloc" reserves pending_ up front for as many entries as the
// budget holds at 64 bytes per entry (the paper's entry size), so appends of such entries never
// reallocate (smaller entries may still grow it); the reservation counts in
// ApproximateMemoryUsage from the start.

#ifndef SLUICE_MEMORY_VECTOR_REP_H_
#define SLUICE_MEMORY_VECTOR_REP_H_

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "memory/encoded_entry.h"
#include "memory/memory_component.h"
#include "util/arena.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class VectorRep final : public MemoryComponent {
 public:
  // A sorted run of entries.
  using Run = std::vector<const char*>;

  // preallocate: "vector-prealloc".
  VectorRep(size_t write_buffer_size, bool preallocate);

  const char* Name() const override { return preallocate_ ? "vector-prealloc" : "vector"; }
  void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
           bool keep_older) override;
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) override;
  std::unique_ptr<InternalIterator> NewIterator() override;
  size_t ApproximateMemoryUsage() const override;
  uint64_t NumEntries() const override { return entries_.load(std::memory_order_relaxed); }

  // Entries a vector-prealloc component reserves room for: its budget over
  // kPreallocatedEntryBytes (the paper's 64-byte entries, pointer included).
  static constexpr size_t kPreallocatedEntryBytes = 64;
  static size_t PreallocatedEntries(size_t write_buffer_size);

 private:
  // The sorted run holding every entry added so far (sorting pending ones first).
  std::shared_ptr<const Run> SortedRun() EXCLUDES(mu_);
  void UpdateIndexBytesLocked() REQUIRES(mu_);

  const bool preallocate_;
  ConcurrentArena arena_;
  std::atomic<uint64_t> entries_{0};
  // Bytes of the pointer arrays (pending_'s capacity and run_'s), for ApproximateMemoryUsage.
  std::atomic<size_t> index_bytes_{0};

  Mutex mu_;
  std::vector<const char*> pending_ GUARDED_BY(mu_);
  std::shared_ptr<const Run> run_ GUARDED_BY(mu_) = std::make_shared<Run>();
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_VECTOR_REP_H_
