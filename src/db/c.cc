// db/c.cc — the C API (include/sluice/c.h): thin wrappers over the C++ API. No C++ exception
// or object crosses it; errors become malloc()ed messages.

#include "sluice/c.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sluice/cache.h"
#include "sluice/db.h"
#include "sluice/env.h"
#include "sluice/write_buffer_manager.h"

using sluice::DB;
using sluice::Iterator;
using sluice::Options;
using sluice::ReadOptions;
using sluice::Slice;
using sluice::Snapshot;
using sluice::Status;
using sluice::WriteBatch;
using sluice::WriteOptions;

struct sluice_t {
  std::unique_ptr<DB> rep;
};
struct sluice_options_t {
  Options rep;
};
struct sluice_readoptions_t {
  ReadOptions rep;
};
struct sluice_writeoptions_t {
  WriteOptions rep;
};
struct sluice_writebatch_t {
  WriteBatch rep;
};
struct sluice_iterator_t {
  std::unique_ptr<Iterator> rep;
};
struct sluice_snapshot_t {
  const Snapshot* rep;
};
struct sluice_column_family_handle_t {
  sluice::ColumnFamilyHandle* rep;
};
struct sluice_cache_t {
  std::shared_ptr<sluice::Cache> rep;
};
struct sluice_write_buffer_manager_t {
  std::shared_ptr<sluice::WriteBufferManager> rep;
};

namespace {

char* CopyString(const std::string& s) {
  char* result = static_cast<char*>(std::malloc(s.size() + 1));
  if (result == nullptr) return nullptr;
  std::memcpy(result, s.data(), s.size());
  result[s.size()] = '\0';
  return result;
}

// The handle a C handle wraps (null stays null: the DB refuses it as a null handle; a batch
// takes it for the default family).
sluice::ColumnFamilyHandle* Family(const sluice_column_family_handle_t* h) {
  return h != nullptr ? h->rep : nullptr;
}

// The Env pool a C pool number names; false if it names none.
bool PriorityOf(int pool, sluice::Env::Priority* priority) {
  switch (pool) {
    case SLUICE_POOL_LOW: *priority = sluice::Env::Priority::kLow; return true;
    case SLUICE_POOL_HIGH: *priority = sluice::Env::Priority::kHigh; return true;
    case SLUICE_POOL_DRAIN: *priority = sluice::Env::Priority::kDrain; return true;
    default: return false;
  }
}

bool SaveError(char** errptr, const Status& s) {
  if (s.ok()) return false;
  if (errptr != nullptr) {
    std::free(*errptr);
    *errptr = CopyString(s.ToString());
  }
  return true;
}

}  // namespace

extern "C" {

sluice_t* sluice_open(const sluice_options_t* options, const char* name, char** errptr) {
  if (options == nullptr || name == nullptr) {
    SaveError(errptr, Status::InvalidArgument("sluice_open: options and name are required"));
    return nullptr;
  }
  std::unique_ptr<DB> db;
  if (SaveError(errptr, DB::Open(options->rep, name, &db))) return nullptr;
  auto* result = new sluice_t;
  result->rep = std::move(db);
  return result;
}

void sluice_close(sluice_t* db) { delete db; }

void sluice_put(sluice_t* db, const sluice_writeoptions_t* options, const char* key, size_t keylen,
                const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Put(options->rep, Slice(key, keylen), Slice(val, vallen)));
}

void sluice_delete(sluice_t* db, const sluice_writeoptions_t* options, const char* key,
                   size_t keylen, char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, Slice(key, keylen)));
}

void sluice_delete_range(sluice_t* db, const sluice_writeoptions_t* options, const char* begin,
                         size_t beginlen, const char* end, size_t endlen, char** errptr) {
  SaveError(errptr, db->rep->DeleteRange(options->rep, Slice(begin, beginlen), Slice(end, endlen)));
}

unsigned char sluice_put_if_absent(sluice_t* db, const sluice_writeoptions_t* options,
                                   const char* key, size_t keylen, const char* val, size_t vallen,
                                   char** errptr) {
  bool inserted = false;
  if (SaveError(errptr, db->rep->PutIfAbsent(options->rep, Slice(key, keylen), Slice(val, vallen),
                                             &inserted))) {
    return 0;
  }
  return inserted ? 1 : 0;
}

unsigned char sluice_compare_and_swap(sluice_t* db, const sluice_writeoptions_t* options,
                                      const char* key, size_t keylen, const char* expected,
                                      size_t expectedlen, const char* desired, size_t desiredlen,
                                      char** errptr) {
  bool swapped = false;
  std::string expected_value;
  if (expected != nullptr) expected_value.assign(expected, expectedlen);
  if (SaveError(errptr, db->rep->CompareAndSwap(options->rep, Slice(key, keylen),
                                                expected != nullptr ? &expected_value : nullptr,
                                                Slice(desired, desiredlen), &swapped))) {
    return 0;
  }
  return swapped ? 1 : 0;
}

int64_t sluice_increment(sluice_t* db, const sluice_writeoptions_t* options, const char* key,
                         size_t keylen, int64_t delta, char** errptr) {
  int64_t result = 0;
  if (SaveError(errptr, db->rep->Increment(options->rep, Slice(key, keylen), delta, &result))) {
    return 0;
  }
  return result;
}

void sluice_write(sluice_t* db, const sluice_writeoptions_t* options, sluice_writebatch_t* batch,
                  char** errptr) {
  SaveError(errptr, db->rep->Write(options->rep, &batch->rep));
}

char* sluice_get(sluice_t* db, const sluice_readoptions_t* options, const char* key, size_t keylen,
                 size_t* vallen, char** errptr) {
  std::string value;
  Status s = db->rep->Get(options->rep, Slice(key, keylen), &value);
  if (s.ok()) {
    *vallen = value.size();
    return CopyString(value);
  }
  *vallen = 0;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

namespace {

// sluice_multi_get(_cf): families null means every key in the default family.
void MultiGet(sluice_t* db, const sluice_readoptions_t* options,
              const sluice_column_family_handle_t* const* families, size_t num_keys,
              const char* const* keys_list, const size_t* keys_list_sizes, char** values_list,
              size_t* values_list_sizes, char** errs) {
  std::vector<Slice> keys;
  std::vector<sluice::ColumnFamilyHandle*> handles;
  keys.reserve(num_keys);
  handles.reserve(num_keys);
  for (size_t i = 0; i < num_keys; i++) {
    keys.emplace_back(keys_list[i], keys_list_sizes[i]);
    handles.push_back(families != nullptr ? Family(families[i]) : db->rep->DefaultColumnFamily());
  }
  std::vector<std::string> values;
  const std::vector<Status> statuses = db->rep->MultiGet(options->rep, handles, keys, &values);
  for (size_t i = 0; i < num_keys; i++) {
    errs[i] = nullptr;
    values_list[i] = nullptr;
    values_list_sizes[i] = 0;
    if (statuses[i].ok()) {
      values_list[i] = CopyString(values[i]);
      values_list_sizes[i] = values[i].size();
    } else if (!statuses[i].IsNotFound()) {
      SaveError(&errs[i], statuses[i]);
    }
  }
}

}  // namespace

void sluice_multi_get(sluice_t* db, const sluice_readoptions_t* options, size_t num_keys,
                      const char* const* keys_list, const size_t* keys_list_sizes,
                      char** values_list, size_t* values_list_sizes, char** errs) {
  MultiGet(db, options, nullptr, num_keys, keys_list, keys_list_sizes, values_list,
           values_list_sizes, errs);
}

void sluice_multi_get_cf(sluice_t* db, const sluice_readoptions_t* options,
                         const sluice_column_family_handle_t* const* column_families,
                         size_t num_keys, const char* const* keys_list,
                         const size_t* keys_list_sizes, char** values_list,
                         size_t* values_list_sizes, char** errs) {
  MultiGet(db, options, column_families, num_keys, keys_list, keys_list_sizes, values_list,
           values_list_sizes, errs);
}

sluice_t* sluice_open_column_families(const sluice_options_t* db_options, const char* name,
                                      int num_column_families,
                                      const char* const* column_family_names,
                                      const sluice_options_t* const* column_family_options,
                                      sluice_column_family_handle_t** column_family_handles,
                                      char** errptr) {
  if (db_options == nullptr || name == nullptr || num_column_families < 0 ||
      (num_column_families > 0 &&
       (column_family_names == nullptr || column_family_options == nullptr ||
        column_family_handles == nullptr))) {
    SaveError(errptr, Status::InvalidArgument(
                          "sluice_open_column_families: options, name, and the family names, "
                          "options and handles arrays are required"));
    return nullptr;
  }
  std::vector<sluice::ColumnFamilyDescriptor> families;
  for (int i = 0; i < num_column_families; i++) {
    if (column_family_names[i] == nullptr || column_family_options[i] == nullptr) {
      SaveError(errptr, Status::InvalidArgument("sluice_open_column_families: family " +
                                                std::to_string(i) + " has no name or no options"));
      return nullptr;
    }
    families.emplace_back(column_family_names[i], column_family_options[i]->rep);
  }
  std::unique_ptr<DB> db;
  std::vector<sluice::ColumnFamilyHandle*> handles;
  if (SaveError(errptr, DB::Open(db_options->rep, name, families, &handles, &db))) return nullptr;
  for (int i = 0; i < num_column_families; i++) {
    column_family_handles[i] = new sluice_column_family_handle_t{handles[static_cast<size_t>(i)]};
  }
  auto* result = new sluice_t;
  result->rep = std::move(db);
  return result;
}

char** sluice_list_column_families(const sluice_options_t* options, const char* name, size_t* lencf,
                                   char** errptr) {
  *lencf = 0;
  std::vector<std::string> names;
  if (SaveError(errptr, DB::ListColumnFamilies(options->rep, name, &names))) return nullptr;
  auto** result = static_cast<char**>(std::malloc(sizeof(char*) * names.size()));
  if (result == nullptr) return nullptr;
  for (size_t i = 0; i < names.size(); i++) result[i] = CopyString(names[i]);
  *lencf = names.size();
  return result;
}

void sluice_list_column_families_destroy(char** list, size_t len) {
  for (size_t i = 0; list != nullptr && i < len; i++) std::free(list[i]);
  std::free(list);
}

sluice_column_family_handle_t* sluice_create_column_family(
    sluice_t* db, const sluice_options_t* column_family_options, const char* column_family_name,
    char** errptr) {
  if (column_family_options == nullptr || column_family_name == nullptr) {
    SaveError(errptr, Status::InvalidArgument(
                          "sluice_create_column_family: options and name are required"));
    return nullptr;
  }
  sluice::ColumnFamilyHandle* handle = nullptr;
  if (SaveError(errptr, db->rep->CreateColumnFamily(column_family_options->rep, column_family_name,
                                                    &handle))) {
    return nullptr;
  }
  return new sluice_column_family_handle_t{handle};
}

void sluice_drop_column_family(sluice_t* db, sluice_column_family_handle_t* handle, char** errptr) {
  SaveError(errptr, db->rep->DropColumnFamily(handle != nullptr ? handle->rep : nullptr));
}

sluice_column_family_handle_t* sluice_get_default_column_family_handle(sluice_t* db) {
  return new sluice_column_family_handle_t{db->rep->DefaultColumnFamily()};
}

void sluice_column_family_handle_destroy(sluice_column_family_handle_t* handle) { delete handle; }

uint32_t sluice_column_family_handle_get_id(const sluice_column_family_handle_t* handle) {
  return handle->rep->GetID();
}

char* sluice_column_family_handle_get_name(const sluice_column_family_handle_t* handle,
                                           size_t* name_len) {
  const std::string& name = handle->rep->GetName();
  *name_len = name.size();
  return CopyString(name);
}

void sluice_put_cf(sluice_t* db, const sluice_writeoptions_t* options,
                   sluice_column_family_handle_t* column_family, const char* key, size_t keylen,
                   const char* val, size_t vallen, char** errptr) {
  SaveError(errptr, db->rep->Put(options->rep, Family(column_family), Slice(key, keylen),
                                 Slice(val, vallen)));
}

void sluice_delete_cf(sluice_t* db, const sluice_writeoptions_t* options,
                      sluice_column_family_handle_t* column_family, const char* key, size_t keylen,
                      char** errptr) {
  SaveError(errptr, db->rep->Delete(options->rep, Family(column_family), Slice(key, keylen)));
}

void sluice_delete_range_cf(sluice_t* db, const sluice_writeoptions_t* options,
                            sluice_column_family_handle_t* column_family, const char* begin,
                            size_t beginlen, const char* end, size_t endlen, char** errptr) {
  SaveError(errptr, db->rep->DeleteRange(options->rep, Family(column_family),
                                         Slice(begin, beginlen), Slice(end, endlen)));
}

char* sluice_get_cf(sluice_t* db, const sluice_readoptions_t* options,
                    sluice_column_family_handle_t* column_family, const char* key, size_t keylen,
                    size_t* vallen, char** errptr) {
  std::string value;
  Status s = db->rep->Get(options->rep, Family(column_family), Slice(key, keylen), &value);
  if (s.ok()) {
    *vallen = value.size();
    return CopyString(value);
  }
  *vallen = 0;
  if (!s.IsNotFound()) SaveError(errptr, s);
  return nullptr;
}

int64_t sluice_increment_cf(sluice_t* db, const sluice_writeoptions_t* options,
                            sluice_column_family_handle_t* column_family, const char* key,
                            size_t keylen, int64_t delta, char** errptr) {
  int64_t result = 0;
  if (SaveError(errptr, db->rep->Increment(options->rep, Family(column_family), Slice(key, keylen),
                                           delta, &result))) {
    return 0;
  }
  return result;
}

sluice_iterator_t* sluice_create_iterator_cf(sluice_t* db, const sluice_readoptions_t* options,
                                             sluice_column_family_handle_t* column_family) {
  auto* result = new sluice_iterator_t;
  result->rep = db->rep->NewIterator(options->rep, Family(column_family));
  return result;
}

char* sluice_property_value_cf(sluice_t* db, sluice_column_family_handle_t* column_family,
                               const char* propname) {
  std::string value;
  if (!db->rep->GetProperty(Family(column_family), propname, &value)) return nullptr;
  return CopyString(value);
}

void sluice_flush_cf(sluice_t* db, sluice_column_family_handle_t* column_family, char** errptr) {
  SaveError(errptr, db->rep->Flush(Family(column_family)));
}

void sluice_compact_range_cf(sluice_t* db, sluice_column_family_handle_t* column_family,
                             const char* start_key, size_t start_key_len, const char* limit_key,
                             size_t limit_key_len, char** errptr) {
  Slice a, b;
  if (start_key != nullptr) a = Slice(start_key, start_key_len);
  if (limit_key != nullptr) b = Slice(limit_key, limit_key_len);
  SaveError(errptr,
            db->rep->CompactRange(Family(column_family), start_key != nullptr ? &a : nullptr,
                                  limit_key != nullptr ? &b : nullptr));
}

sluice_iterator_t* sluice_create_iterator(sluice_t* db, const sluice_readoptions_t* options) {
  auto* result = new sluice_iterator_t;
  result->rep = db->rep->NewIterator(options->rep);
  return result;
}

const sluice_snapshot_t* sluice_create_snapshot(sluice_t* db) {
  auto* result = new sluice_snapshot_t;
  result->rep = db->rep->GetSnapshot();
  return result;
}

void sluice_release_snapshot(sluice_t* db, const sluice_snapshot_t* snapshot) {
  if (snapshot == nullptr) return;
  db->rep->ReleaseSnapshot(snapshot->rep);
  delete snapshot;
}

char* sluice_property_value(sluice_t* db, const char* propname) {
  std::string value;
  if (!db->rep->GetProperty(propname, &value)) return nullptr;
  return CopyString(value);
}

void sluice_flush(sluice_t* db, char** errptr) { SaveError(errptr, db->rep->Flush()); }

void sluice_compact_range(sluice_t* db, const char* start_key, size_t start_key_len,
                          const char* limit_key, size_t limit_key_len, char** errptr) {
  Slice a, b;
  if (start_key != nullptr) a = Slice(start_key, start_key_len);
  if (limit_key != nullptr) b = Slice(limit_key, limit_key_len);
  SaveError(errptr, db->rep->CompactRange(start_key != nullptr ? &a : nullptr,
                                          limit_key != nullptr ? &b : nullptr));
}

void sluice_destroy_db(const sluice_options_t* options, const char* name, char** errptr) {
  SaveError(errptr, sluice::DestroyDB(name, options->rep));
}

void sluice_repair_db(const sluice_options_t* options, const char* name, char** errptr) {
  SaveError(errptr, sluice::RepairDB(name, options->rep));
}

void sluice_iter_destroy(sluice_iterator_t* iter) { delete iter; }
unsigned char sluice_iter_valid(const sluice_iterator_t* iter) { return iter->rep->Valid(); }
void sluice_iter_seek_to_first(sluice_iterator_t* iter) { iter->rep->SeekToFirst(); }
void sluice_iter_seek_to_last(sluice_iterator_t* iter) { iter->rep->SeekToLast(); }
void sluice_iter_seek(sluice_iterator_t* iter, const char* k, size_t klen) {
  iter->rep->Seek(Slice(k, klen));
}
void sluice_iter_seek_for_prev(sluice_iterator_t* iter, const char* k, size_t klen) {
  iter->rep->SeekForPrev(Slice(k, klen));
}
void sluice_iter_next(sluice_iterator_t* iter) { iter->rep->Next(); }
void sluice_iter_prev(sluice_iterator_t* iter) { iter->rep->Prev(); }
const char* sluice_iter_key(const sluice_iterator_t* iter, size_t* klen) {
  Slice s = iter->rep->key();
  *klen = s.size();
  return s.data();
}
const char* sluice_iter_value(const sluice_iterator_t* iter, size_t* vlen) {
  Slice s = iter->rep->value();
  *vlen = s.size();
  return s.data();
}
void sluice_iter_get_error(const sluice_iterator_t* iter, char** errptr) {
  SaveError(errptr, iter->rep->status());
}

sluice_writebatch_t* sluice_writebatch_create() { return new sluice_writebatch_t; }
void sluice_writebatch_destroy(sluice_writebatch_t* batch) { delete batch; }
void sluice_writebatch_clear(sluice_writebatch_t* batch) { batch->rep.Clear(); }
void sluice_writebatch_put(sluice_writebatch_t* batch, const char* key, size_t klen,
                           const char* val, size_t vlen) {
  batch->rep.Put(Slice(key, klen), Slice(val, vlen));
}
void sluice_writebatch_delete(sluice_writebatch_t* batch, const char* key, size_t klen) {
  batch->rep.Delete(Slice(key, klen));
}
void sluice_writebatch_delete_range(sluice_writebatch_t* batch, const char* begin, size_t beginlen,
                                    const char* end, size_t endlen) {
  batch->rep.DeleteRange(Slice(begin, beginlen), Slice(end, endlen));
}
int sluice_writebatch_count(const sluice_writebatch_t* batch) {
  return static_cast<int>(batch->rep.Count());
}
void sluice_writebatch_put_cf(sluice_writebatch_t* batch,
                              sluice_column_family_handle_t* column_family, const char* key,
                              size_t klen, const char* val, size_t vlen) {
  batch->rep.Put(Family(column_family), Slice(key, klen), Slice(val, vlen));
}
void sluice_writebatch_delete_cf(sluice_writebatch_t* batch,
                                 sluice_column_family_handle_t* column_family, const char* key,
                                 size_t klen) {
  batch->rep.Delete(Family(column_family), Slice(key, klen));
}
void sluice_writebatch_delete_range_cf(sluice_writebatch_t* batch,
                                       sluice_column_family_handle_t* column_family,
                                       const char* begin, size_t beginlen, const char* end,
                                       size_t endlen) {
  batch->rep.DeleteRange(Family(column_family), Slice(begin, beginlen), Slice(end, endlen));
}

sluice_options_t* sluice_options_create() { return new sluice_options_t; }
void sluice_options_destroy(sluice_options_t* options) { delete options; }
void sluice_options_set_create_if_missing(sluice_options_t* o, unsigned char v) {
  o->rep.create_if_missing = v;
}
void sluice_options_set_error_if_exists(sluice_options_t* o, unsigned char v) {
  o->rep.error_if_exists = v;
}
void sluice_options_set_paranoid_checks(sluice_options_t* o, unsigned char v) {
  o->rep.paranoid_checks = v;
}
void sluice_options_set_write_buffer_size(sluice_options_t* o, size_t v) {
  o->rep.write_buffer_size = v;
}
void sluice_options_set_initial_write_buffer_size(sluice_options_t* o, size_t v) {
  o->rep.initial_write_buffer_size = v;
}
void sluice_options_set_memtable(sluice_options_t* o, const char* name) {
  o->rep.memtable = name != nullptr ? name : "";
}
void sluice_options_set_max_write_buffer_number(sluice_options_t* o, int v) {
  o->rep.max_write_buffer_number = v;
}
void sluice_options_set_block_size(sluice_options_t* o, size_t v) { o->rep.block_size = v; }
void sluice_options_set_block_cache_size(sluice_options_t* o, size_t v) {
  o->rep.block_cache_size = v;
}
void sluice_options_set_block_cache(sluice_options_t* o, sluice_cache_t* cache) {
  o->rep.block_cache = cache != nullptr ? cache->rep : nullptr;
}
void sluice_options_set_write_buffer_manager(sluice_options_t* o,
                                             sluice_write_buffer_manager_t* manager) {
  o->rep.write_buffer_manager = manager != nullptr ? manager->rep : nullptr;
}
void sluice_options_set_db_write_buffer_size(sluice_options_t* o, size_t v) {
  o->rep.db_write_buffer_size = v;
}

sluice_cache_t* sluice_cache_create_lru(size_t capacity) {
  return new sluice_cache_t{sluice::NewLRUCache(capacity)};
}
void sluice_cache_destroy(sluice_cache_t* cache) { delete cache; }
size_t sluice_cache_get_usage(sluice_cache_t* cache) { return cache->rep->TotalCharge(); }
size_t sluice_cache_get_capacity(sluice_cache_t* cache) { return cache->rep->Capacity(); }

sluice_write_buffer_manager_t* sluice_write_buffer_manager_create(size_t buffer_size,
                                                                  unsigned char allow_stall) {
  return new sluice_write_buffer_manager_t{
      std::make_shared<sluice::WriteBufferManager>(buffer_size, allow_stall != 0)};
}
void sluice_write_buffer_manager_destroy(sluice_write_buffer_manager_t* manager) { delete manager; }
size_t sluice_write_buffer_manager_buffer_size(sluice_write_buffer_manager_t* manager) {
  return manager->rep->buffer_size();
}
size_t sluice_write_buffer_manager_memory_usage(sluice_write_buffer_manager_t* manager) {
  return manager->rep->memory_usage();
}
void sluice_options_set_bloom_bits_per_key(sluice_options_t* o, int v) {
  o->rep.bloom_bits_per_key = v;
}
void sluice_options_set_compression(sluice_options_t* o, int v) {
  // Out-of-range values are kept and rejected by sluice_open with a clear error.
  o->rep.compression = static_cast<sluice::CompressionType>(v);
}
void sluice_options_set_level0_backlog_flush_merge(sluice_options_t* o, int v) {
  o->rep.level0_backlog_flush_merge = v;  // checked by sluice_open
}
void sluice_options_set_level0_compression(sluice_options_t* o, int v) {
  o->rep.level0_compression = static_cast<sluice::CompressionType>(v);  // checked by sluice_open
}
void sluice_options_set_max_background_jobs(sluice_options_t* o, int v) {
  o->rep.max_background_jobs = v;
}
void sluice_options_set_max_subcompactions(sluice_options_t* o, int v) {
  o->rep.max_subcompactions = v;
}
void sluice_options_set_compaction_pri(sluice_options_t* o, int v) {
  o->rep.compaction_pri = static_cast<sluice::CompactionPri>(v);  // checked by sluice_open
}
void sluice_options_set_max_open_files(sluice_options_t* o, int v) { o->rep.max_open_files = v; }
void sluice_options_set_level0_scan_compaction(sluice_options_t* o, unsigned char v) {
  o->rep.level0_scan_compaction = v;
}
void sluice_options_set_allow_mmap_reads(sluice_options_t* o, unsigned char v) {
  o->rep.allow_mmap_reads = v;
}
void sluice_options_set_max_key_size(sluice_options_t* o, size_t v) { o->rep.max_key_size = v; }
void sluice_options_set_max_value_size(sluice_options_t* o, size_t v) { o->rep.max_value_size = v; }
void sluice_options_set_create_missing_column_families(sluice_options_t* o, unsigned char v) {
  o->rep.create_missing_column_families = v;
}

sluice_readoptions_t* sluice_readoptions_create() { return new sluice_readoptions_t; }
void sluice_readoptions_destroy(sluice_readoptions_t* options) { delete options; }
void sluice_readoptions_set_verify_checksums(sluice_readoptions_t* o, unsigned char v) {
  o->rep.verify_checksums = v;
}
void sluice_readoptions_set_fill_cache(sluice_readoptions_t* o, unsigned char v) {
  o->rep.fill_cache = v;
}
void sluice_readoptions_set_snapshot(sluice_readoptions_t* o, const sluice_snapshot_t* snap) {
  o->rep.snapshot = snap != nullptr ? snap->rep : nullptr;
}

sluice_writeoptions_t* sluice_writeoptions_create() { return new sluice_writeoptions_t; }
void sluice_writeoptions_destroy(sluice_writeoptions_t* options) { delete options; }
void sluice_writeoptions_set_sync(sluice_writeoptions_t* o, unsigned char v) { o->rep.sync = v; }
void sluice_writeoptions_set_disable_wal(sluice_writeoptions_t* o, unsigned char v) {
  o->rep.disable_wal = v;
}

void sluice_set_background_threads(int pool, int number, char** errptr) {
  sluice::Env::Priority priority;
  if (!PriorityOf(pool, &priority)) {
    SaveError(errptr, Status::InvalidArgument(
                          "sluice_set_background_threads: unknown pool " + std::to_string(pool) +
                          " (SLUICE_POOL_LOW, SLUICE_POOL_HIGH or SLUICE_POOL_DRAIN)"));
    return;
  }
  sluice::Env::Default()->SetBackgroundThreads(number, priority);
}

int sluice_get_background_threads(int pool) {
  sluice::Env::Priority priority;
  return PriorityOf(pool, &priority) ? sluice::Env::Default()->GetBackgroundThreads(priority) : -1;
}

void sluice_free(void* ptr) { std::free(ptr); }
int sluice_major_version() { return 0; }
int sluice_minor_version() { return 1; }

}  // extern "C"
