// table/table_cache.cc — see table_cache.h.

#include "table/table_cache.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "base/filename.h"
#include "table/table.h"
#include "util/coding.h"
#include "util/epoch.h"

namespace sluice {

// The LRU cache's value: a reader, the file it reads, and the recent-readers slot it may be
// published in.
struct TableCache::CachedTable {
  uint64_t number;
  std::unique_ptr<Table> table;
  std::atomic<CachedTable*>* slot;
};

namespace {

size_t RecentSlotsFor(int entries) {
  return std::bit_ceil(static_cast<size_t>(std::clamp(entries, 64, 1 << 14)));
}

}  // namespace

void TableCache::DeleteTable(const Slice& /*key*/, void* value) {
  auto* cached = static_cast<CachedTable*>(value);
  // Runs once the entry has left the cache and no handle refers to it: no thread can publish it
  // again (publishing needs a handle). acq_rel: the unlink is ordered before the retirement;
  // a point read that loaded the pointer earlier is inside an epoch section, which the
  // retirement waits for.
  CachedTable* expected = cached;
  cached->slot->compare_exchange_strong(expected, nullptr, std::memory_order_acq_rel);
  epoch::RetireDelete(cached);
}

TableCache::TableCache(std::string dbname, Env* env, const TableOptions& table_options, int entries)
    : dbname_(std::move(dbname)),
      env_(env),
      table_options_(table_options),
      recent_slots_(RecentSlotsFor(entries)),
      recent_(std::make_unique<std::atomic<CachedTable*>[]>(recent_slots_)),
      cache_(NewLRUCache(static_cast<size_t>(entries > 0 ? entries : 1), /*num_shard_bits=*/4)) {}

TableCache::~TableCache() {
  // Every reader leaves through the epoch reclaimer: close them all before the Env (and the
  // files' owners) can go away.
  cache_.reset();
  assert(!epoch::InSection());
  epoch::DrainAll();
}

Status TableCache::FindTable(uint64_t number, uint64_t file_size, Cache::Handle** handle) {
  char buf[sizeof(number)];
  EncodeFixed64(buf, number);
  const Slice key(buf, sizeof(buf));
  *handle = cache_->Lookup(key);
  if (*handle != nullptr) return Status::OK();
  const std::string fname = TableFileName(dbname_, number);
  std::unique_ptr<RandomAccessFile> file;
  Status s = table_options_.mmap_reads ? env_->NewMappedRandomAccessFile(fname, &file)
                                       : env_->NewRandomAccessFile(fname, &file);
  if (!s.ok()) return s;
  std::unique_ptr<Table> table;
  s = Table::Open(table_options_, std::move(file), file_size, fname, &table);
  if (!s.ok()) return s;  // errors are not cached: a later attempt may succeed
  // Two threads may open the same file at once; Insert replaces, both readers stay valid.
  auto cached =
      std::make_unique<CachedTable>(CachedTable{number, std::move(table), &RecentSlot(number)});
  *handle = cache_->Insert(key, cached.release(), 1, &DeleteTable);
  return Status::OK();
}

std::unique_ptr<InternalIterator> TableCache::NewIterator(const ReadOptions& options,
                                                          uint64_t number, uint64_t file_size) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(number, file_size, &handle);
  if (!s.ok()) return NewErrorIterator(s);
  const Table& table = *CachedOf(handle)->table;
  std::unique_ptr<InternalIterator> iter = table.NewIterator(options);
  Cache* cache = cache_.get();
  iter->RegisterCleanup([cache, handle] { cache->Release(handle); });
  return iter;
}

template <typename Fn>
Status TableCache::WithTable(uint64_t number, uint64_t file_size, Fn&& fn) {
  epoch::Guard guard;  // a reader found in the recent slots stays alive until it ends
  std::atomic<CachedTable*>& slot = RecentSlot(number);
  // acquire: pairs with the release store that published the reader, so it is fully open.
  const CachedTable* recent = slot.load(std::memory_order_acquire);
  if (recent != nullptr && recent->number == number) return fn(*recent->table);
  Cache::Handle* handle = nullptr;
  Status s = FindTable(number, file_size, &handle);
  if (!s.ok()) return s;
  CachedTable* cached = CachedOf(handle);
  // release: the reader's state (opened under FindTable) is visible to the loads above. Stored
  // while the handle pins the entry, so its deleter, which clears the slot, runs after.
  slot.store(cached, std::memory_order_release);
  s = fn(*cached->table);
  cache_->Release(handle);
  return s;
}

Status TableCache::Get(const ReadOptions& options, uint64_t number, uint64_t file_size,
                       const Slice& internal_key,
                       const std::function<void(const Slice&, const Slice&)>& found) {
  return WithTable(number, file_size,
                   [&](const Table& t) { return t.InternalGet(options, internal_key, found); });
}

Status TableCache::MultiGet(
    const ReadOptions& options, uint64_t number, uint64_t file_size, const Slice* internal_keys,
    size_t n, const std::function<void(size_t i, const Slice& key, const Slice& value)>& found) {
  return WithTable(number, file_size, [&](const Table& t) {
    return t.InternalMultiGet(options, internal_keys, n, found);
  });
}

Status TableCache::GetRangeTombstones(uint64_t number, uint64_t file_size,
                                      std::shared_ptr<const FragmentedRangeTombstones>* result) {
  result->reset();
  return WithTable(number, file_size, [&](const Table& t) {
    *result = t.range_tombstones();
    return Status::OK();
  });
}

Status TableCache::OpenFile(uint64_t number, uint64_t file_size) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(number, file_size, &handle);
  if (s.ok()) cache_->Release(handle);
  return s;
}

Status TableCache::VerifyFile(uint64_t number, uint64_t file_size) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(number, file_size, &handle);
  if (!s.ok()) return s;
  s = CachedOf(handle)->table->VerifyChecksums();
  cache_->Release(handle);
  return s;
}

void TableCache::Evict(uint64_t number) {
  char buf[sizeof(number)];
  EncodeFixed64(buf, number);
  cache_->Erase(Slice(buf, sizeof(buf)));
}

}  // namespace sluice
