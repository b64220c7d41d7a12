// table/table_cache.cc — see table_cache.h.

#include "table/table_cache.h"

#include "base/filename.h"
#include "table/table.h"
#include "util/coding.h"

namespace sluice {

namespace {

void DeleteTable(const Slice& /*key*/, void* value) { delete static_cast<Table*>(value); }

}  // namespace

TableCache::TableCache(std::string dbname, Env* env, const TableOptions& table_options, int entries)
    : dbname_(std::move(dbname)),
      env_(env),
      table_options_(table_options),
      cache_(NewLRUCache(static_cast<size_t>(entries > 0 ? entries : 1))) {}

TableCache::~TableCache() = default;

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
  *handle = cache_->Insert(key, table.release(), 1, &DeleteTable);
  return Status::OK();
}

std::unique_ptr<InternalIterator> TableCache::NewIterator(const ReadOptions& options,
                                                          uint64_t number, uint64_t file_size) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(number, file_size, &handle);
  if (!s.ok()) return NewErrorIterator(s);
  auto* table = static_cast<Table*>(cache_->Value(handle));
  std::unique_ptr<InternalIterator> iter = table->NewIterator(options);
  Cache* cache = cache_.get();
  iter->RegisterCleanup([cache, handle] { cache->Release(handle); });
  return iter;
}

template <typename Fn>
Status TableCache::WithTable(uint64_t number, uint64_t file_size, Fn&& fn) {
  Cache::Handle* handle = nullptr;
  Status s = FindTable(number, file_size, &handle);
  if (!s.ok()) return s;
  s = fn(*static_cast<const Table*>(cache_->Value(handle)));
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
  s = static_cast<Table*>(cache_->Value(handle))->VerifyChecksums();
  cache_->Release(handle);
  return s;
}

void TableCache::Evict(uint64_t number) {
  char buf[sizeof(number)];
  EncodeFixed64(buf, number);
  cache_->Erase(Slice(buf, sizeof(buf)));
}

}  // namespace sluice
