// table/table_cache.h — keeps SST files open: a bounded LRU cache of table readers, keyed by
// file number, shared by every read path (gets, iterators, compactions).
//
// A reader is opened on first use and closed when evicted and no longer in use (the cache's
// handles pin it). A file that becomes obsolete is Evict()ed before it is deleted.
//
// Point reads (Get, MultiGet, range tombstones) first look in a lock-free array of recently
// used readers, slot = file number mod its size, and take the LRU cache's mutex only when the
// slot holds another file. The array is a hint: the LRU cache owns every reader, a reader is
// published in a slot only by a thread holding a handle to it, and the reader's deleter clears
// its slot and frees it through the epoch reclaimer (util/epoch.h), so a point read that found
// it in the array (inside an epoch section) can finish with it. Point reads served there do not
// refresh the reader's LRU position: with more files than `entries`, eviction is closer to
// first-in first-out.

#ifndef SLUICE_TABLE_TABLE_CACHE_H_
#define SLUICE_TABLE_TABLE_CACHE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/internal_iterator.h"
#include "sluice/env.h"
#include "sluice/options.h"
#include "table/table_builder.h"
#include "util/cache.h"

namespace sluice {

class Table;
class FragmentedRangeTombstones;

class TableCache {
 public:
  // table_options.block_cache may be null. entries: how many readers stay open.
  TableCache(std::string dbname, Env* env, const TableOptions& table_options, int entries);
  ~TableCache();
  TableCache(const TableCache&) = delete;
  TableCache& operator=(const TableCache&) = delete;

  // Iterator over the file; it pins the reader until destroyed.
  std::unique_ptr<InternalIterator> NewIterator(const ReadOptions& options, uint64_t number,
                                                uint64_t file_size);

  // Calls found(key, value) for the first entry >= internal_key, unless the bloom filter rules
  // the user key out (see Table::InternalGet).
  Status Get(const ReadOptions& options, uint64_t number, uint64_t file_size,
             const Slice& internal_key,
             const std::function<void(const Slice& key, const Slice& value)>& found);
  // Get for each of internal_keys[0..n) (ascending) in one file: see Table::InternalMultiGet.
  Status MultiGet(const ReadOptions& options, uint64_t number, uint64_t file_size,
                  const Slice* internal_keys, size_t n,
                  const std::function<void(size_t i, const Slice& key, const Slice& value)>& found);

  // The file's range tombstones, fragmented (*result null if it has none).
  Status GetRangeTombstones(uint64_t number, uint64_t file_size,
                            std::shared_ptr<const FragmentedRangeTombstones>* result);

  // Opens the file's reader (footer, index, filter, properties), leaving it cached.
  Status OpenFile(uint64_t number, uint64_t file_size);
  // Opens the file and verifies every block's checksum and order (Table::VerifyChecksums).
  Status VerifyFile(uint64_t number, uint64_t file_size);

  // Closes the reader of a file about to be deleted.
  void Evict(uint64_t number);

  const TableOptions& table_options() const { return table_options_; }

 private:
  struct CachedTable;
  Status FindTable(uint64_t number, uint64_t file_size, Cache::Handle** handle);
  static void DeleteTable(const Slice& key, void* value);
  // The entry a handle of cache_ refers to.
  CachedTable* CachedOf(Cache::Handle* handle) const {
    return static_cast<CachedTable*>(cache_->Value(handle));
  }
  std::atomic<CachedTable*>& RecentSlot(uint64_t number) const {
    return recent_[number & (recent_slots_ - 1)];
  }
  // fn(the file's reader), with the reader kept alive for the call: by the epoch section when
  // it came from its recent slot, else by a cache handle (and then published in the slot).
  template <typename Fn>
  Status WithTable(uint64_t number, uint64_t file_size, Fn&& fn);

  const std::string dbname_;
  Env* const env_;
  const TableOptions table_options_;
  const size_t recent_slots_;  // a power of two
  const std::unique_ptr<std::atomic<CachedTable*>[]> recent_;
  std::shared_ptr<Cache> cache_;
};

}  // namespace sluice

#endif  // SLUICE_TABLE_TABLE_CACHE_H_
