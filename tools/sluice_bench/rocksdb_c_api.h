// sluice_bench/rocksdb_c_api.h — RocksDB's C API, loaded from a shared library at run time.
//
// sluice_bench's rocksdb engine (engine_rocksdb.cc) talks to RocksDB only through these
// function pointers, so one binary can run any RocksDB build that exports the C API: the
// release build scripts/fetch-rocksdb-release.sh takes from Maven Central (the default), or
// any other named by --rocksdb_library (Debian's librocksdb among them). The C API is used
// rather than the C++ one because a library built with another std::string ABI, as the Maven
// build is, still links through C.
//
// Invariants: a library is loaded once per path and never unloaded (RocksDB keeps threads and
// static state alive until exit), so a RocksDBLibrary outlives every database opened through
// it; every function pointer of a loaded library is non-null (a library lacking one is
// refused, naming it). The declarations are those of the rocksdb/c.h sluice_bench is compiled
// with (Debian's 7.8.3); every function used exists, with the same signature, in 7.8.3 and in
// the current releases.

#ifndef SLUICE_BENCH_ROCKSDB_C_API_H_
#define SLUICE_BENCH_ROCKSDB_C_API_H_

#include <rocksdb/c.h>

#include <memory>
#include <string>

#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

// Every C function the adapter calls: X(name) for rocksdb_<name>.
// clang-format off
#define SLUICE_ROCKSDB_C_FUNCTIONS(X) \
  X(open_column_families) X(close) X(destroy_db) X(free) X(column_family_handle_destroy) \
  X(options_create) X(options_destroy) X(get_options_from_string) \
  X(options_set_create_if_missing) X(options_set_create_missing_column_families) \
  X(options_set_write_buffer_size) X(options_set_max_write_buffer_number) \
  X(options_set_max_background_jobs) X(options_set_max_subcompactions) \
  X(options_set_max_open_files) X(options_set_allow_mmap_reads) X(options_set_num_levels) \
  X(options_set_level0_file_num_compaction_trigger) \
  X(options_set_level0_slowdown_writes_trigger) X(options_set_level0_stop_writes_trigger) \
  X(options_set_soft_pending_compaction_bytes_limit) \
  X(options_set_hard_pending_compaction_bytes_limit) X(options_set_target_file_size_base) \
  X(options_set_max_bytes_for_level_base) X(options_set_max_bytes_for_level_multiplier) \
  X(options_set_compression) X(options_set_compression_per_level) \
  X(options_set_block_based_table_factory) X(block_based_options_create) \
  X(block_based_options_destroy) X(block_based_options_set_block_size) \
  X(block_based_options_set_block_restart_interval) X(block_based_options_set_block_cache) \
  X(block_based_options_set_no_block_cache) X(block_based_options_set_filter_policy) \
  X(cache_create_lru) X(cache_destroy) X(filterpolicy_create_bloom_full) \
  X(writeoptions_create) X(writeoptions_destroy) X(writeoptions_set_sync) \
  X(writeoptions_disable_WAL) X(readoptions_create) X(readoptions_destroy) X(put_cf) \
  X(delete_cf) X(delete_range_cf) X(write) X(get_pinned_cf) X(pinnableslice_value) \
  X(pinnableslice_destroy) X(batched_multi_get_cf) X(multi_get_cf) X(writebatch_create) \
  X(writebatch_destroy) X(writebatch_clear) X(writebatch_put_cf) X(writebatch_delete_cf) \
  X(create_iterator_cf) X(iter_destroy) X(iter_valid) X(iter_seek_to_first) \
  X(iter_seek_to_last) X(iter_seek) X(iter_next) X(iter_prev) X(iter_key) X(iter_value) \
  X(iter_get_error) X(flushoptions_create) X(flushoptions_destroy) X(flushoptions_set_wait) \
  X(flush_cf) X(compact_range_cf) X(property_value_cf) X(property_int_cf)
// clang-format on

struct RocksDBLibrary {
  // The file loaded (symbolic links resolved).
  std::string path;
  // "11.8.1", as the library writes it in a database's LOG.
  std::string version;
  // Built with assertions (RocksDB's debug-only SyncPoint is in it): Debian's build is.
  bool assertions = false;

  // "release build" or "assertions enabled".
  std::string BuildKind() const;
  // "RocksDB 11.8.1, release build".
  std::string Describe() const;

#define SLUICE_ROCKSDB_C_MEMBER(name) decltype(&::rocksdb_##name) name = nullptr;
  SLUICE_ROCKSDB_C_FUNCTIONS(SLUICE_ROCKSDB_C_MEMBER)
#undef SLUICE_ROCKSDB_C_MEMBER
};

// Loads the library at path (once per path in a process; later calls return the same one),
// resolves every function and reads the version by opening a scratch database in a temporary
// directory. Errors name the path and what is wrong: the file is missing, is no loadable
// library, lacks a function of the C API, or cannot open a database.
EngineStatus LoadRocksDBLibrary(const std::string& path,
                                std::shared_ptr<const RocksDBLibrary>* library);

// Where the rocksdb engine's library comes from when --rocksdb_library is not given.
struct RocksDBLibraryChoice {
  std::string path;
  // Empty when the path is the release build's; otherwise why the fallback was taken.
  std::string note;
};

// The release build fetched by scripts/fetch-rocksdb-release.sh if it is there; else the
// library sluice_bench was compiled against (Debian's), with a note that says so.
RocksDBLibraryChoice DefaultRocksDBLibrary();
// The rule DefaultRocksDBLibrary applies to those two paths.
RocksDBLibraryChoice ChooseRocksDBLibrary(const std::string& release, const std::string& fallback);
// The two paths DefaultRocksDBLibrary chooses between (compiled in by CMake).
std::string ReleaseRocksDBLibraryPath();
std::string FallbackRocksDBLibraryPath();

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_ROCKSDB_C_API_H_
