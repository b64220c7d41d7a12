// db/write_stamps.h — a count of committed writes per key hash: the conflict detector of the
// lock-free read-modify-write (db/db_rmw.cc).
//
// Every write bumps the count of each key it wrote, after inserting the key's new version and
// before leaving the Active set. A read-modify-write reads the count of its key before its
// optimistic read and again after its fence; if the count moved, a write to the key (or to a
// key of the same hash, a harmless false conflict) committed in between.
//
// Layout: one table of counters per thread slot (util/thread_slot.h) for the first kOwnedTables
// slots, and one table shared by every other thread. A key's count is the sum of its counter
// in every table in use. An owner bumps its own counter with a plain load and store: no locked
// instruction, and no cache line that another writer writes (with one table for all, every
// write paid a locked add on a line that the other cores' writes kept taking away). A table is
// allocated by the first bump that needs it: a DB written by one thread holds one 32 KiB
// table, not seventeen.
//
// Invariants and ordering:
//   * Counters only grow; a slot's next owner continues its predecessor's counts (the slot
//     hand-over orders them). So the sum for a key only grows, and two reads return the same
//     sum only if no counter of the key changed between them (each counter is read in both,
//     and reads of one location by one thread never go backwards).
//   * A bump is a release store (or, on the shared table, a release add) after the insertion;
//     Read's loads are acquire. A reader that sees a bump sees the version inserted before it,
//     and a bump made before a writer leaves its Active slot is visible to anyone who saw the
//     slot released.
//   * tables_in_use_ is raised (release) before an owner's first bump, and Read loads it
//     (acquire) first: a reader that is ordered after a bump reads every table holding one. A
//     reader whose first Read missed a table that its second Read includes sees a larger sum: a
//     false conflict at worst, once per new writer thread.
//   * A table's pointer is published (release CAS, once) before any bump of it; readers load
//     it with acquire and read a null table as all zeros. An owned table is published before
//     the raise of tables_in_use_ that covers it, so a reader that read the raise finds it.
//     Tables live as long as the WriteStamps.

#ifndef SLUICE_DB_WRITE_STAMPS_H_
#define SLUICE_DB_WRITE_STAMPS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "util/thread_slot.h"

namespace sluice {

class WriteStamps {
 public:
  static constexpr int kBits = 12;  // 4096 counters per table, 32 KiB
  static constexpr uint32_t kOwnedTables = 16;

  WriteStamps() = default;
  WriteStamps(const WriteStamps&) = delete;
  WriteStamps& operator=(const WriteStamps&) = delete;

  // key_hash: a 64-bit hash of the key (SequenceOracle::KeyTag); its top bits pick the counter.
  uint64_t Read(uint64_t key_hash) const {
    const size_t index = Index(key_hash);
    // acquire: pairs with the raise in Bump (see the invariants).
    const uint32_t owned = tables_in_use_.load(std::memory_order_acquire);
    // The range deletions' count is part of every key's sum (see BumpAll).
    uint64_t sum = all_keys_.load(std::memory_order_acquire);
    sum += CounterOrZero(kOwnedTables, index);
    for (uint32_t t = 0; t < owned; t++) sum += CounterOrZero(t, index);
    return sum;
  }

  // A range deletion: bumps the count of every key at once (rare: one shared counter).
  // release, as Bump: the tombstone inserted before it happens-before a reader that acquires
  // the new count.
  void BumpAll() { all_keys_.fetch_add(1, std::memory_order_release); }

  void Bump(uint64_t key_hash) {
    const uint32_t table = OwnedOrSharedIndex(kOwnedTables);
    std::atomic<uint64_t>* counters = Table(table);
    if (table < kOwnedTables && tables_in_use_.load(std::memory_order_relaxed) <= table) {
      RaiseTablesInUse(table + 1);  // after Table() published it
    }
    // release: the inserted version happens-before a reader that acquires the new count.
    AddToOwnedOrShared<uint64_t>(&counters[Index(key_hash)], table, kOwnedTables, 1,
                                 std::memory_order_release);
  }

 private:
  static constexpr size_t kCounters = size_t{1} << kBits;
  static size_t Index(uint64_t key_hash) { return static_cast<size_t>(key_hash >> (64 - kBits)); }
  uint64_t CounterOrZero(uint32_t table, size_t index) const {
    // acquire: pairs with Table's publishing CAS (the zeroed counters come with the pointer).
    const std::atomic<uint64_t>* counters = tables_[table].load(std::memory_order_acquire);
    return counters != nullptr ? counters[index].load(std::memory_order_acquire) : 0;
  }
  // The table's counters, allocated and published by the first caller that needs them (an
  // owned table has one; the shared one may have several at once: one CAS wins).
  std::atomic<uint64_t>* Table(uint32_t table) {
    std::atomic<uint64_t>* counters = tables_[table].load(std::memory_order_acquire);
    if (counters != nullptr) return counters;
    auto fresh = std::make_unique<std::atomic<uint64_t>[]>(kCounters);
    // release: the zeroed counters happen-before whoever loads the pointer with acquire.
    if (!tables_[table].compare_exchange_strong(counters, fresh.get(), std::memory_order_acq_rel,
                                                std::memory_order_acquire)) {
      return counters;  // another thread published the shared table first; ours is freed
    }
    counters = fresh.get();
    owners_[table] = std::move(fresh);  // only the CAS's winner writes it
    return counters;
  }
  void RaiseTablesInUse(uint32_t n) {
    uint32_t cur = tables_in_use_.load(std::memory_order_relaxed);
    // release: ordered before this thread's bumps of its table, which come after it.
    while (cur < n && !tables_in_use_.compare_exchange_weak(cur, n, std::memory_order_release,
                                                            std::memory_order_relaxed)) {
    }
  }

  // Tables 0..kOwnedTables-1 belong to thread slots; the last is shared. Null until used;
  // owned by owners_ (written once, by the thread that published the table).
  std::atomic<std::atomic<uint64_t>*> tables_[kOwnedTables + 1] = {};
  std::unique_ptr<std::atomic<uint64_t>[]> owners_[kOwnedTables + 1];
  // Owned tables [0, tables_in_use_) may hold bumps; the others are all zero.
  std::atomic<uint32_t> tables_in_use_{0};
  std::atomic<uint64_t> all_keys_{0};  // range deletions: counted in every key's sum
};

}  // namespace sluice

#endif  // SLUICE_DB_WRITE_STAMPS_H_
