/* sluice/c.h — the C API of sluice, for bindings in other languages.
 *
 * Conventions (those of LevelDB's C API):
 *   - Objects are opaque pointers created by *_create / sluice_open and freed by the matching
 *     *_destroy / sluice_close.
 *   - Functions that can fail take `char** errptr`. On success *errptr is left unchanged; on
 *     failure it is set to a malloc()ed message ("IO error: ...", "Corruption: ...",
 *     "Invalid argument: ...", "Busy: ...") that the caller frees with sluice_free(). Set
 *     *errptr to NULL before the call; a non-NULL *errptr is freed and replaced.
 *   - Keys and values are byte arrays with explicit lengths (they may contain zero bytes).
 *   - Returned buffers (sluice_get, sluice_property_value) are malloc()ed: free them with
 *     sluice_free().
 */

#ifndef SLUICE_C_H_
#define SLUICE_C_H_

#include <stddef.h>
#include <stdint.h>

/* Exported from libsluice.so, which is built with hidden visibility: what the public
 * headers declare is the library's whole ABI. */
#pragma GCC visibility push(default)

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sluice_t sluice_t;
typedef struct sluice_options_t sluice_options_t;
typedef struct sluice_readoptions_t sluice_readoptions_t;
typedef struct sluice_writeoptions_t sluice_writeoptions_t;
typedef struct sluice_writebatch_t sluice_writebatch_t;
typedef struct sluice_iterator_t sluice_iterator_t;
typedef struct sluice_snapshot_t sluice_snapshot_t;
typedef struct sluice_column_family_handle_t sluice_column_family_handle_t;
typedef struct sluice_cache_t sluice_cache_t;
typedef struct sluice_write_buffer_manager_t sluice_write_buffer_manager_t;

enum {
  sluice_no_compression = 0,
  sluice_snappy_compression = 1,
  sluice_zstd_compression = 2,
  sluice_lz4_compression = 3
};

/* --- database --- */
sluice_t* sluice_open(const sluice_options_t* options, const char* name, char** errptr);
void sluice_close(sluice_t* db);
void sluice_put(sluice_t* db, const sluice_writeoptions_t* options, const char* key, size_t keylen,
                const char* val, size_t vallen, char** errptr);
void sluice_delete(sluice_t* db, const sluice_writeoptions_t* options, const char* key,
                   size_t keylen, char** errptr);
/* Deletes every key k with begin <= k < end (bytewise); begin > end is an error. */
void sluice_delete_range(sluice_t* db, const sluice_writeoptions_t* options, const char* begin,
                         size_t beginlen, const char* end, size_t endlen, char** errptr);
void sluice_write(sluice_t* db, const sluice_writeoptions_t* options, sluice_writebatch_t* batch,
                  char** errptr);
/* Returns the value (malloc()ed, *vallen set), or NULL with *errptr unchanged if the key is
 * missing, or NULL with *errptr set on error. */
char* sluice_get(sluice_t* db, const sluice_readoptions_t* options, const char* key, size_t keylen,
                 size_t* vallen, char** errptr);
/* Looks up num_keys keys at once, all in one consistent state (DB::MultiGet; RocksDB's
 * rocksdb_multi_get). For each i: values_list[i] receives the value (malloc()ed, length in
 * values_list_sizes[i]) or NULL if the key is missing or on error; errs[i] receives NULL, or a
 * malloc()ed error message. Free both with sluice_free(). */
void sluice_multi_get(sluice_t* db, const sluice_readoptions_t* options, size_t num_keys,
                      const char* const* keys_list, const size_t* keys_list_sizes,
                      char** values_list, size_t* values_list_sizes, char** errs);
/* Atomic read-modify-writes (lock-free; see DB::PutIfAbsent, CompareAndSwap, Increment).
 * sluice_put_if_absent: returns 1 if the key had no value and now has val, else 0.
 * sluice_compare_and_swap: expected == NULL means "the key has no value"; returns 1 if the
 * value was expected and is now desired, else 0.
 * sluice_increment: adds delta to the key's 8-byte little-endian counter (missing: 0) and
 * returns the new value; an error if the value is not 8 bytes long.
 * On error each returns 0 with *errptr set. */
unsigned char sluice_put_if_absent(sluice_t* db, const sluice_writeoptions_t* options,
                                   const char* key, size_t keylen, const char* val, size_t vallen,
                                   char** errptr);
unsigned char sluice_compare_and_swap(sluice_t* db, const sluice_writeoptions_t* options,
                                      const char* key, size_t keylen, const char* expected,
                                      size_t expectedlen, const char* desired, size_t desiredlen,
                                      char** errptr);
int64_t sluice_increment(sluice_t* db, const sluice_writeoptions_t* options, const char* key,
                         size_t keylen, int64_t delta, char** errptr);
sluice_iterator_t* sluice_create_iterator(sluice_t* db, const sluice_readoptions_t* options);
const sluice_snapshot_t* sluice_create_snapshot(sluice_t* db);
void sluice_release_snapshot(sluice_t* db, const sluice_snapshot_t* snapshot);
/* NULL if the property is unknown. */
char* sluice_property_value(sluice_t* db, const char* propname);
void sluice_flush(sluice_t* db, char** errptr);
/* NULL start/limit: unbounded. */
void sluice_compact_range(sluice_t* db, const char* start_key, size_t start_key_len,
                          const char* limit_key, size_t limit_key_len, char** errptr);
void sluice_destroy_db(const sluice_options_t* options, const char* name, char** errptr);
void sluice_repair_db(const sluice_options_t* options, const char* name, char** errptr);

/* --- column families (RocksDB's C API shape) ---
 * A sluice_column_family_handle_t is the caller's: free it with
 * sluice_column_family_handle_destroy (before or after sluice_close; the family itself is the
 * database's). A handle of a dropped family makes every call fail with "Invalid argument". */
/* Opens with the named families (one of them "default"); each family's options are the
 * per-family fields of column_family_options[i] (memtable, write_buffer_size, compression,
 * bloom bits, block size, ...), the database-wide ones come from db_options. On success
 * column_family_handles[i] receives a handle per name. */
sluice_t* sluice_open_column_families(const sluice_options_t* db_options, const char* name,
                                      int num_column_families,
                                      const char* const* column_family_names,
                                      const sluice_options_t* const* column_family_options,
                                      sluice_column_family_handle_t** column_family_handles,
                                      char** errptr);
/* The names of the database's families ("default" first); *lencf receives their number. Free
 * with sluice_list_column_families_destroy. NULL with *errptr set on error. */
char** sluice_list_column_families(const sluice_options_t* options, const char* name, size_t* lencf,
                                   char** errptr);
void sluice_list_column_families_destroy(char** list, size_t len);
sluice_column_family_handle_t* sluice_create_column_family(
    sluice_t* db, const sluice_options_t* column_family_options, const char* column_family_name,
    char** errptr);
void sluice_drop_column_family(sluice_t* db, sluice_column_family_handle_t* handle, char** errptr);
sluice_column_family_handle_t* sluice_get_default_column_family_handle(sluice_t* db);
void sluice_column_family_handle_destroy(sluice_column_family_handle_t* handle);
uint32_t sluice_column_family_handle_get_id(const sluice_column_family_handle_t* handle);
/* The family's name (malloc()ed, *name_len set; free with sluice_free). */
char* sluice_column_family_handle_get_name(const sluice_column_family_handle_t* handle,
                                           size_t* name_len);
/* The calls above, on a family. */
void sluice_put_cf(sluice_t* db, const sluice_writeoptions_t* options,
                   sluice_column_family_handle_t* column_family, const char* key, size_t keylen,
                   const char* val, size_t vallen, char** errptr);
void sluice_delete_cf(sluice_t* db, const sluice_writeoptions_t* options,
                      sluice_column_family_handle_t* column_family, const char* key, size_t keylen,
                      char** errptr);
void sluice_delete_range_cf(sluice_t* db, const sluice_writeoptions_t* options,
                            sluice_column_family_handle_t* column_family, const char* begin,
                            size_t beginlen, const char* end, size_t endlen, char** errptr);
char* sluice_get_cf(sluice_t* db, const sluice_readoptions_t* options,
                    sluice_column_family_handle_t* column_family, const char* key, size_t keylen,
                    size_t* vallen, char** errptr);
/* As sluice_multi_get, key i in family column_families[i]. */
void sluice_multi_get_cf(sluice_t* db, const sluice_readoptions_t* options,
                         const sluice_column_family_handle_t* const* column_families,
                         size_t num_keys, const char* const* keys_list,
                         const size_t* keys_list_sizes, char** values_list,
                         size_t* values_list_sizes, char** errs);
int64_t sluice_increment_cf(sluice_t* db, const sluice_writeoptions_t* options,
                            sluice_column_family_handle_t* column_family, const char* key,
                            size_t keylen, int64_t delta, char** errptr);
sluice_iterator_t* sluice_create_iterator_cf(sluice_t* db, const sluice_readoptions_t* options,
                                             sluice_column_family_handle_t* column_family);
char* sluice_property_value_cf(sluice_t* db, sluice_column_family_handle_t* column_family,
                               const char* propname);
void sluice_flush_cf(sluice_t* db, sluice_column_family_handle_t* column_family, char** errptr);
void sluice_compact_range_cf(sluice_t* db, sluice_column_family_handle_t* column_family,
                             const char* start_key, size_t start_key_len, const char* limit_key,
                             size_t limit_key_len, char** errptr);

/* --- iterator --- */
void sluice_iter_destroy(sluice_iterator_t* iter);
unsigned char sluice_iter_valid(const sluice_iterator_t* iter);
void sluice_iter_seek_to_first(sluice_iterator_t* iter);
void sluice_iter_seek_to_last(sluice_iterator_t* iter);
void sluice_iter_seek(sluice_iterator_t* iter, const char* k, size_t klen);
void sluice_iter_seek_for_prev(sluice_iterator_t* iter, const char* k, size_t klen);
void sluice_iter_next(sluice_iterator_t* iter);
void sluice_iter_prev(sluice_iterator_t* iter);
/* Valid until the iterator moves. */
const char* sluice_iter_key(const sluice_iterator_t* iter, size_t* klen);
const char* sluice_iter_value(const sluice_iterator_t* iter, size_t* vlen);
void sluice_iter_get_error(const sluice_iterator_t* iter, char** errptr);

/* --- write batch --- */
sluice_writebatch_t* sluice_writebatch_create(void);
void sluice_writebatch_destroy(sluice_writebatch_t* batch);
void sluice_writebatch_clear(sluice_writebatch_t* batch);
void sluice_writebatch_put(sluice_writebatch_t* batch, const char* key, size_t klen,
                           const char* val, size_t vlen);
void sluice_writebatch_delete(sluice_writebatch_t* batch, const char* key, size_t klen);
void sluice_writebatch_delete_range(sluice_writebatch_t* batch, const char* begin, size_t beginlen,
                                    const char* end, size_t endlen);
int sluice_writebatch_count(const sluice_writebatch_t* batch);
/* The same in a column family (a batch may span families: it is still atomic). */
void sluice_writebatch_put_cf(sluice_writebatch_t* batch,
                              sluice_column_family_handle_t* column_family, const char* key,
                              size_t klen, const char* val, size_t vlen);
void sluice_writebatch_delete_cf(sluice_writebatch_t* batch,
                                 sluice_column_family_handle_t* column_family, const char* key,
                                 size_t klen);
void sluice_writebatch_delete_range_cf(sluice_writebatch_t* batch,
                                       sluice_column_family_handle_t* column_family,
                                       const char* begin, size_t beginlen, const char* end,
                                       size_t endlen);

/* --- options --- */
sluice_options_t* sluice_options_create(void);
void sluice_options_destroy(sluice_options_t* options);
void sluice_options_set_create_if_missing(sluice_options_t* options, unsigned char v);
void sluice_options_set_error_if_exists(sluice_options_t* options, unsigned char v);
void sluice_options_set_paranoid_checks(sluice_options_t* options, unsigned char v);
void sluice_options_set_write_buffer_size(sluice_options_t* options, size_t v);
/* Options::initial_write_buffer_size (0: write_buffer_size / 64, at least 256 KiB). */
void sluice_options_set_initial_write_buffer_size(sluice_options_t* options, size_t v);
void sluice_options_set_memtable(sluice_options_t* options, const char* name);
void sluice_options_set_max_write_buffer_number(sluice_options_t* options, int v);
void sluice_options_set_block_size(sluice_options_t* options, size_t v);
void sluice_options_set_block_cache_size(sluice_options_t* options, size_t v);
/* DBOptions::block_cache: a cache any number of databases share (NULL: each its own, of
 * block_cache_size). The options and every database opened with them hold a reference: the
 * caller may destroy its cache object at once. */
void sluice_options_set_block_cache(sluice_options_t* options, sluice_cache_t* cache);
/* DBOptions::write_buffer_manager: a memory budget databases share (NULL: none); held as the
 * cache is. */
void sluice_options_set_write_buffer_manager(sluice_options_t* options,
                                             sluice_write_buffer_manager_t* manager);
/* DBOptions::db_write_buffer_size: with no manager, a budget of the database's own (0: none). */
void sluice_options_set_db_write_buffer_size(sluice_options_t* options, size_t v);
void sluice_options_set_bloom_bits_per_key(sluice_options_t* options, int v);
void sluice_options_set_compression(sluice_options_t* options, int v);
// The compression of the L0 files flushes write (sluice_no_compression by default).
void sluice_options_set_level0_compression(sluice_options_t* options, int v);
// Options::level0_backlog_flush_merge: 1..64 (2 by default, in a deep L0 backlog; 1: each
// memory component its own L0 file).
void sluice_options_set_level0_backlog_flush_merge(sluice_options_t* options, int v);
void sluice_options_set_max_background_jobs(sluice_options_t* options, int v);
// 0: one per core, at most 4.
void sluice_options_set_max_subcompactions(sluice_options_t* options, int v);
// Which file of a level n >= 1 a compaction into n+1 takes: sluice_compaction_pri_round_robin
// or sluice_compaction_pri_min_overlapping_ratio (the default); another value makes
// sluice_open fail with an error naming the option.
enum { sluice_compaction_pri_round_robin = 0, sluice_compaction_pri_min_overlapping_ratio = 1 };
void sluice_options_set_compaction_pri(sluice_options_t* options, int v);
void sluice_options_set_max_open_files(sluice_options_t* options, int v);
void sluice_options_set_allow_mmap_reads(sluice_options_t* options, unsigned char v);
void sluice_options_set_level0_scan_compaction(sluice_options_t* options, unsigned char v);
void sluice_options_set_max_key_size(sluice_options_t* options, size_t v);
void sluice_options_set_max_value_size(sluice_options_t* options, size_t v);
void sluice_options_set_create_missing_column_families(sluice_options_t* options, unsigned char v);

sluice_readoptions_t* sluice_readoptions_create(void);
void sluice_readoptions_destroy(sluice_readoptions_t* options);
void sluice_readoptions_set_verify_checksums(sluice_readoptions_t* options, unsigned char v);
void sluice_readoptions_set_fill_cache(sluice_readoptions_t* options, unsigned char v);
void sluice_readoptions_set_snapshot(sluice_readoptions_t* options,
                                     const sluice_snapshot_t* snapshot);

sluice_writeoptions_t* sluice_writeoptions_create(void);
void sluice_writeoptions_destroy(sluice_writeoptions_t* options);
void sluice_writeoptions_set_sync(sluice_writeoptions_t* options, unsigned char v);
void sluice_writeoptions_set_disable_wal(sluice_writeoptions_t* options, unsigned char v);

/* --- the background pools every database of the process shares (Env::SetBackgroundThreads) ---
 * SLUICE_POOL_LOW runs compactions, SLUICE_POOL_HIGH flushes, SLUICE_POOL_DRAIN FloDB's drains.
 * number is clamped to 1..1024; an unknown pool is an error (set) or -1 (get). */
enum { SLUICE_POOL_LOW = 0, SLUICE_POOL_HIGH = 1, SLUICE_POOL_DRAIN = 2 };
void sluice_set_background_threads(int pool, int number, char** errptr);
int sluice_get_background_threads(int pool);

/* --- shared caches and memory budgets (sluice/cache.h, sluice/write_buffer_manager.h) --- */
/* An LRU block cache of `capacity` bytes. */
sluice_cache_t* sluice_cache_create_lru(size_t capacity);
void sluice_cache_destroy(sluice_cache_t* cache);
size_t sluice_cache_get_usage(sluice_cache_t* cache);
size_t sluice_cache_get_capacity(sluice_cache_t* cache);
/* A memory budget of buffer_size bytes for the memory components of the databases that share
 * it; with allow_stall, writes wait while it is reached. */
sluice_write_buffer_manager_t* sluice_write_buffer_manager_create(size_t buffer_size,
                                                                  unsigned char allow_stall);
void sluice_write_buffer_manager_destroy(sluice_write_buffer_manager_t* manager);
size_t sluice_write_buffer_manager_buffer_size(sluice_write_buffer_manager_t* manager);
size_t sluice_write_buffer_manager_memory_usage(sluice_write_buffer_manager_t* manager);

/* --- misc --- */
void sluice_free(void* ptr);
int sluice_major_version(void);
int sluice_minor_version(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#pragma GCC visibility pop

#endif /* SLUICE_C_H_ */
