// db/column_family.h — one column family of an open database (ColumnFamilyData) and the handle
// users hold for it.
//
// Every family has its own memory components (its SuperVersion: mutable component, immutable
// ones, SST Version), options and component factory; the WAL, the sequence numbers, the
// snapshots, the block and table caches and the background tasks are the database's.
//
// Lifetime: a ColumnFamilyData lives until the DB is destroyed, even once dropped, so that a
// handle (which points at it) stays safe to pass after DropColumnFamily: calls then answer
// InvalidArgument. Lookup by id goes through an immutable FamilyTable, published through an
// atomic pointer and retired through epoch reclamation like SuperVersions, so writers find a
// batch's families without a lock.

#ifndef SLUICE_DB_COLUMN_FAMILY_H_
#define SLUICE_DB_COLUMN_FAMILY_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/super_version.h"
#include "memory/memory_component_factory.h"
#include "sluice/db.h"
#include "sluice/options.h"
#include "util/sharded_counter.h"

namespace sluice {

class DBImpl;
struct ColumnFamilyData;
struct FamilyVersions;

class ColumnFamilyHandleImpl final : public ColumnFamilyHandle {
 public:
  ColumnFamilyHandleImpl(const DBImpl* db, ColumnFamilyData* cfd) : db_(db), cfd_(cfd) {}
  const std::string& GetName() const override;
  uint32_t GetID() const override;
  const DBImpl* db() const { return db_; }
  ColumnFamilyData* cfd() const { return cfd_; }

 private:
  const DBImpl* const db_;
  ColumnFamilyData* const cfd_;
};

// The size of a family's first memory component: Options::initial_write_buffer_size, or when
// that is 0 a 64th of write_buffer_size (at least 256 KiB); never above write_buffer_size.
inline size_t InitialWriteBufferSize(const Options& o) {
  const size_t initial = o.initial_write_buffer_size != 0
                             ? o.initial_write_buffer_size
                             : std::max<size_t>(o.write_buffer_size / 64, 256 << 10);
  return std::min(initial, o.write_buffer_size);
}

struct ColumnFamilyData {
  ColumnFamilyData(const DBImpl* db, uint32_t i, std::string n, const Options& o)
      : id(i),
        name(std::move(n)),
        options(o),
        next_write_buffer_size(InitialWriteBufferSize(o)),
        handle(db, this) {}
  ColumnFamilyData(const ColumnFamilyData&) = delete;
  ColumnFamilyData& operator=(const ColumnFamilyData&) = delete;

  const uint32_t id;
  const std::string name;
  const Options options;  // the database's options with the family's own, sanitized
  // Creates the family's memory components (set before the family is published).
  std::unique_ptr<MemoryComponentFactory> component_factory;
  // The size of its next memory component: Options::initial_write_buffer_size at first, then
  // doubled (up to write_buffer_size) at each switch of a full component, so that a family
  // that receives little holds small components and one that receives much soon fills whole
  // ones. Written under switch_mu_ (SwitchMemoryComponent); relaxed.
  std::atomic<size_t> next_write_buffer_size;
  // Owned by the family, retired through epoch reclamation. Never null once published.
  std::atomic<SuperVersion*> super_version{nullptr};
  // Its part of the VersionSet (REQUIRES the DB mutex; null once dropped).
  FamilyVersions* versions = nullptr;
  // Set (under the DB mutex) by DropColumnFamily.
  std::atomic<bool> dropped{false};
  // Its components replace versions in place (FloDB); counted in the DB while it lives.
  bool replaces_in_place = false;
  // L0 files merged by its iterators (Options::level0_scan_compaction; relaxed, a statistic).
  ShardedCounter level0_scan_charges;
  // Where the scan charges and writes (the last sequence number) stood when its L0 or L1 last
  // changed, and the numbers of the L0 and L1 files then (the DB mutex guards these three).
  uint64_t scan_charges_base = 0;
  uint64_t scan_writes_base = 0;
  std::vector<uint64_t> scan_files;
  ColumnFamilyHandleImpl handle;
};

inline const std::string& ColumnFamilyHandleImpl::GetName() const { return cfd_->name; }
inline uint32_t ColumnFamilyHandleImpl::GetID() const { return cfd_->id; }

// The live families by id, sorted (immutable once published).
struct FamilyTable {
  std::vector<ColumnFamilyData*> families;  // sorted by id

  ColumnFamilyData* Find(uint32_t id) const {
    size_t lo = 0, hi = families.size();
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      if (families[mid]->id < id) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < families.size() && families[lo]->id == id ? families[lo] : nullptr;
  }
};

}  // namespace sluice

#endif  // SLUICE_DB_COLUMN_FAMILY_H_
