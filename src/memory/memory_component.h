// memory/memory_component.h — the one interface every memory component implements.
//
// A memory component holds the newest writes of the database, as versions tagged with sequence
// numbers (see base/internal_key.h), until it is full, becomes immutable and is flushed to an L0
// SST file. Implementations live one per file (or one folder, for "flodb" and "adaptive") and
// are created by their family's factory (memory_component_factory.h), chosen by name in
// factory.cc; the same engine tests run over all of them.
//
// Contract:
//   * Add() is safe for many concurrent callers and concurrent readers. The pair (key, seq) is
//     unique: the engine never adds the same key twice with one sequence number.
//   * Get() returns the version of `key` with the largest sequence number <= read_seq among
//     the versions kept. Every version is kept unless the component replaces versions in
//     place (ReplacesInPlace), and then only a version the VersionKeeper says no reader needs
//     is dropped.
//   * Iterators yield internal keys in InternalKeyComparator order (user key ascending,
//     sequence descending). An iterator over a component that is still receiving writes sees
//     every version that the last PrepareScan (or MarkImmutable) made reachable, and possibly
//     some added later (weak consistency); readers filter by sequence number.
//   * ApproximateMemoryUsage() counts every byte the component holds, metadata included.
//   * Range tombstones live beside the versions, in range_tombstones() (the same for every
//     kind): Get and iterators return versions only; the DB applies the tombstones.
//   * Nothing is freed while a reader may still see it: components are destroyed through the
//     epoch mechanism (util/epoch.h) or when the last iterator over them is gone.

#ifndef SLUICE_MEMORY_MEMORY_COMPONENT_H_
#define SLUICE_MEMORY_MEMORY_COMPONENT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/internal_iterator.h"
#include "base/internal_key.h"
#include "memory/range_tombstone_set.h"
#include "sluice/options.h"
#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice {

// Tells components that replace versions in place whether a reader may still need a version.
// Implemented by the DB's snapshot registry; lock-free.
class VersionKeeper {
 public:
  virtual ~VersionKeeper() = default;
  // True if a live snapshot or iterator (or one being created) may read the version with
  // sequence `older` once a version with sequence `newer` exists: the older must be kept.
  virtual bool MustKeep(SequenceNumber older, SequenceNumber newer) const = 0;
};

// What a component may need from the DB that creates it. State shared by the components of one
// family (counters, policies) belongs to the family's factory (memory_component_factory.h).
struct MemoryComponentContext {
  // Null: no reader ever needs an older version (every replacement may drop it).
  const VersionKeeper* keeper = nullptr;
  // The largest sequence number announced (SequenceOracle): every write acknowledged, or whose
  // version a reader returned, is at or below it (default, outside a DB: kMaxSequenceNumber).
  // A component that replaces versions in place asks the keeper first, which announces the
  // replacing write.
  std::function<SequenceNumber()> announced_sequence = [] { return kMaxSequenceNumber; };
  // The bytes this component fills before the DB switches it (DBImpl::IsFull), which its
  // structures are sized for; 0: the family's Options::write_buffer_size. A DB starts a
  // family with small components and doubles them up to write_buffer_size (see
  // ColumnFamilyData::next_write_buffer_size), so an idle one holds little memory.
  size_t write_buffer_size = 0;
};

// What Get() found.
struct MemoryLookup {
  SequenceNumber sequence = 0;
  ValueType type = kTypeValue;
  std::string value;  // set only for kTypeValue
};

// For components that store encoded entries (encoded_entry.h): if `entry` (the first entry at
// or after a lookup target) is a version of user_key, fills *result from it and returns true.
bool LookupFromEntry(const char* entry, const Slice& user_key, MemoryLookup* result);

class MemoryComponent {
 public:
  virtual ~MemoryComponent() = default;

  // The registered name ("skiplist", ...).
  virtual const char* Name() const = 0;

  // keep_older: the write is one update of a multi-update batch; the key's previous version
  // must stay readable (readers skip a batch's versions until the whole batch is applied).
  virtual void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
                   bool keep_older = false) = 0;

  // A hint that key is about to be added (the write is taking its sequence number): start
  // fetching what the add will touch, so that the cache misses overlap the write's other work.
  virtual void PrefetchForAdd(const Slice& key) { (void)key; }
  // A hint that key is about to be looked up (a MultiGet prefetches a batch of keys before it
  // looks them up, so that their first cache misses overlap).
  virtual void PrefetchForGet(const Slice& key) { (void)key; }

  // True if a version of key with sequence <= read_seq exists (filled into *result).
  virtual bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) = 0;

  // Iterator over every version (internal keys). The component must outlive it.
  virtual std::unique_ptr<InternalIterator> NewIterator() = 0;

  // Bytes used, metadata included.
  virtual size_t ApproximateMemoryUsage() const = 0;

  // Versions held (approximate while writers run; exact once they have stopped; a component
  // replacing versions in place counts the survivors). Never 0 once an Add() has returned.
  virtual uint64_t NumEntries() const = 0;

  // True once an Add() has returned (the DB's check of whether there is anything to flush or
  // switch out). Cheaper than NumEntries where counting exactly takes a wait.
  virtual bool HasEntries() const { return NumEntries() > 0; }

  // Called after the last Add(), before the component is flushed: afterwards NewIterator()
  // sees every version. Idempotent.
  virtual void MarkImmutable() {}

  // True if Add may replace a version in place. The DB then makes snapshots and iterators
  // register before they choose their sequence number, so the keeper protects their versions.
  virtual bool ReplacesInPlace() const { return false; }

  // Prepares a scan: once it returns, every version with sequence <= the returned number that
  // is in this component is reachable through NewIterator(), and the DB must still wait for
  // writes at or below it that are in flight. Components whose versions are always reachable
  // return announced_sequence(). allow_piggyback: a preparation that started after this call may
  // be shared instead of running a new one (*piggybacked is then set).
  virtual SequenceNumber PrepareScan(bool allow_piggyback, bool* piggybacked);

  // True if the component asks to be switched out before it is full (the "adaptive"
  // component, when what it observed calls for another representation). Called on every
  // write: must be cheap.
  virtual bool WantsEarlySwitch() const { return false; }

  // Component-specific statistics for GetProperty ("" if none).
  virtual std::string StatsString() const { return std::string(); }

  // The component's range tombstones (DB::DeleteRange), the same for every kind.
  RangeTombstoneSet& range_tombstones() { return *range_tombstones_; }
  const RangeTombstoneSet& range_tombstones() const { return *range_tombstones_; }
  // True if the component holds anything a flush must write: versions or range tombstones.
  bool HoldsData() const { return HasEntries() || !range_tombstones_->empty(); }

 private:
  // On the heap: the base class stays one pointer wide, so the layout of every kind's own
  // (hot, cache-line-arranged) members does not move.
  const std::unique_ptr<RangeTombstoneSet> range_tombstones_ =
      std::make_unique<RangeTombstoneSet>();
};

// OK if `name` is a known memory component, else InvalidArgument naming Options::memtable.
Status ValidateMemoryComponentName(const std::string& name);

// The hash components' bucket count: Options::bucket_count, or when that is 0, one bucket per
// KiB of write_buffer_size (16 to 1M buckets).
size_t BucketCountFor(const Options& options);
// The bucket count chosen for a component of write_buffer_size bytes (bucket_count 0).
size_t BucketCountForSize(size_t write_buffer_size);

// Names accepted by NewMemoryComponentFactory, comma-separated (for messages and docs).
std::string KnownMemoryComponents();
// The same names, one per element (tests run over every one).
std::vector<std::string> MemoryComponentNames();

}  // namespace sluice

#endif  // SLUICE_MEMORY_MEMORY_COMPONENT_H_
