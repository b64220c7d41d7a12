// sluice_bench/kv_engine.h — the engine-neutral interface every benchmarked store is driven by.
//
// One adapter per engine (engine_sluice.cc, engine_rocksdb.cc, engine_leveldb.cc) maps
// EngineOptions onto the engine's own options and forwards the calls, so the benchmark code is
// identical for every engine. Adapters report the options they actually set (DescribeOptions),
// including what the engine cannot express, so a reader can check that a comparison is fair.
// Optional calls have defaults here (kv_engine.cc): Scan (an iterator), engine counters (none),
// and the benchmarks of an engine's internals (KVMemoryComponentDriver, KVPersistJob), which
// only the sluice adapter provides.

#ifndef SLUICE_BENCH_KV_ENGINE_H_
#define SLUICE_BENCH_KV_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice_bench/metrics.h"

namespace sluice_bench {

enum class CompressionKind { kNone, kSnappy, kZstd, kLz4 };

// --compaction_pri: which file of a level a compaction into the next one takes. kDefault
// leaves each engine's own (sluice and RocksDB kMinOverlappingRatio); LevelDB only
// has round-robin.
enum class CompactionPriKind { kDefault, kRoundRobin, kMinOverlappingRatio };

// "none", "snappy", "zstd", "lz4".
std::string_view CompressionName(CompressionKind kind);
// Case-insensitive inverse of CompressionName; false if unknown.
bool ParseCompression(std::string_view name, CompressionKind* kind);

// The knobs shared by the engines, one value each. Every adapter maps each of them onto its
// engine or says in DescribeOptions why it cannot.
struct EngineOptions {
  bool create_if_missing = true;
  size_t write_buffer_size = 0;
  size_t initial_write_buffer_size = 0;  // sluice only (0: its default)
  int max_write_buffer_number = 0;
  size_t block_size = 0;
  int block_restart_interval = 0;
  // Block cache bytes; 0 asks for no block cache.
  size_t cache_size = 0;
  // Bloom filter bits per key; 0 means no filter.
  int bloom_bits = 0;
  CompressionKind compression = CompressionKind::kNone;
  int max_background_jobs = 0;
  // Key ranges one compaction may be split into (0: each engine's default).
  int subcompactions = 0;
  CompactionPriKind compaction_pri = CompactionPriKind::kDefault;
  int max_open_files = 0;
  // Table files read through memory mappings: 1 on, 0 off, -1 each engine's own default (on
  // for sluice, off for RocksDB; LevelDB always maps them on 64-bit systems). The flags'
  // default is sluice's (1).
  int mmap_read = -1;
  int num_levels = 0;
  int level0_file_num_compaction_trigger = 0;
  int level0_slowdown_writes_trigger = 0;
  int level0_stop_writes_trigger = 0;
  // Compaction-debt triggers and the slowdown's starting rate (RocksDB's Options of the same
  // names; LevelDB has none): 0 turns a limit off; a rate of 0 is each engine's own default.
  uint64_t soft_pending_compaction_bytes_limit = 0;
  uint64_t hard_pending_compaction_bytes_limit = 0;
  uint64_t delayed_write_rate = 0;
  uint64_t target_file_size_base = 0;
  uint64_t max_bytes_for_level_base = 0;
  double max_bytes_for_level_multiplier = 0;
  // sluice's memory component name; the other engines always use their skiplist.
  std::string memtable;
  // sluice's FloDB memory component (the Options fields of the same names; the last two are
  // FloDBOptions::use_membuffer and multi_insert, benchmark-only switches that are no Options);
  // the other engines ignore them (DescribeOptions says so when one differs from sluice's
  // default).
  double membuffer_fraction = 0;
  int membuffer_partition_bits = 0;
  int flodb_drain_threads = 0;
  bool flodb_use_membuffer = true;
  bool flodb_multi_insert = true;
  // sluice's hash memory components ("hash-skiplist", "hash-linklist"): Options::prefix_length
  // and Options::bucket_count (0: sluice's default from write_buffer_size).
  size_t prefix_length = 8;
  size_t bucket_count = 0;
  // sluice's Options::level0_idle_compaction_ms (0: never); RocksDB and LevelDB have no such
  // policy (LevelDB's seek-triggered compaction is always on, RocksDB has none).
  int level0_idle_compaction_ms = 0;
  // sluice's Options::level0_scan_compaction (set from sluice's default); the others have no
  // such policy (LevelDB's seek compaction comes nearest).
  bool level0_scan_compaction = false;
  // sluice's Options::level0_backlog_flush_merge (1: every component its own L0 file; set from
  // sluice's default); the other engines flush each memtable alone (RocksDB's
  // min_write_buffer_number_to_merge 1).
  int level0_backlog_flush_merge = 2;
  // sluice's Options::level0_compression (the L0 files flushes write); the other engines
  // compress every level with --compression_type.
  CompressionKind level0_compression = CompressionKind::kNone;
  // RocksDB: the shared library to load (empty: the release build scripts/install-deps.sh
  // fetches, falling back to the one sluice_bench was compiled against, with a note).
  std::string rocksdb_library;
  // sluice and RocksDB: column families the keys are spread over (each key's family chosen by
  // FamilyIndexFor; 1: the default family only). LevelDB has none and ignores it.
  int num_column_families = 1;
  // Defaults for every write of the run (fillsync forces sync).
  bool sync = false;
  bool disable_wal = false;
};

// The column family (0..families-1) of a key spread by --num_column_families: the same for
// every engine.
inline size_t FamilyIndexFor(std::string_view key, size_t families) {
  return families <= 1 ? 0 : std::hash<std::string_view>()(key) % families;
}

// Per-write durability.
struct WriteMode {
  bool sync = false;
  bool disable_wal = false;
};

// The outcome of an engine call: OK, NotFound (a Get of a missing key), NotSupported, or an
// error with the engine's message.
class EngineStatus {
 public:
  enum class Code { kOk, kNotFound, kNotSupported, kError };

  EngineStatus() = default;
  static EngineStatus OK() { return EngineStatus(); }
  static EngineStatus NotFound() { return EngineStatus(Code::kNotFound, "not found"); }
  static EngineStatus NotSupported(std::string msg) {
    return EngineStatus(Code::kNotSupported, std::move(msg));
  }
  static EngineStatus Error(std::string msg) { return EngineStatus(Code::kError, std::move(msg)); }

  bool ok() const { return code_ == Code::kOk; }
  bool IsNotFound() const { return code_ == Code::kNotFound; }
  bool IsNotSupported() const { return code_ == Code::kNotSupported; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  EngineStatus(Code code, std::string msg) : code_(code), message_(std::move(msg)) {}

  Code code_ = Code::kOk;
  std::string message_;
};

// One line of an engine's effective configuration: the shared option name, the value the
// engine got (possibly "8 (fixed)"), and a note when it differs from what was asked.
struct OptionRow {
  std::string name;
  std::string value;
  std::string note;
};

// A group of updates applied atomically by KVEngine::Write. Only the engine that made it may
// apply it.
class KVWriteBatch {
 public:
  virtual ~KVWriteBatch() = default;
  virtual void Put(std::string_view key, std::string_view value) = 0;
  virtual void Delete(std::string_view key) = 0;
  virtual void Clear() = 0;
};

// An ordered cursor over the engine's keys, initially not Valid().
class KVIterator {
 public:
  virtual ~KVIterator() = default;
  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // First key >= target.
  virtual void Seek(std::string_view target) = 0;
  // REQUIRES: Valid().
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  virtual EngineStatus status() const = 0;
};

// The iterator of an engine whose keys are spread over column families: no one ordered view.
class UnsupportedIterator : public KVIterator {
 public:
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(std::string_view) override {}
  void Next() override {}
  void Prev() override {}
  std::string_view key() const override { return {}; }
  std::string_view value() const override { return {}; }
  EngineStatus status() const override {
    return EngineStatus::NotSupported("iterators with --num_column_families > 1");
  }
};

// A memory component written directly, without WAL, database or persisting (the memcomponent
// benchmark): when it reaches its budget (--write_buffer_size) it is dropped and replaced by a
// fresh one. Put is thread-safe.
class KVMemoryComponentDriver {
 public:
  virtual ~KVMemoryComponentDriver() = default;
  // Adds a version of key with the next sequence number (one counter for all threads).
  virtual void Put(std::string_view key, std::string_view value) = 0;
  // After the writers have stopped: a note for the result line; metrics are appended.
  virtual std::string Describe(Metrics* metrics) = 0;
};

// Sorted runs written to disk the way the engine's flush writes them (the persist benchmark):
// a memory component is filled (not timed), then persisted (timed).
class KVPersistJob {
 public:
  struct Round {
    uint64_t entries = 0;     // entries written to the files
    uint64_t user_bytes = 0;  // their keys and values
    uint64_t file_bytes = 0;  // bytes of the files
    int files = 0;
    double seconds = 0;  // the timed part
  };

  virtual ~KVPersistJob() = default;
  // Adds an entry to the component being filled.
  virtual void Add(std::string_view key, std::string_view value) = 0;
  // True once the component holds its budget.
  virtual bool Full() const = 0;
  // Writes the component's entries to disk as a flush does, timing only that, deletes the
  // files and starts an empty component.
  virtual EngineStatus Persist(Round* round) = 0;
};

// One memory component on its own, with no budget and no database (the buffer_* benchmarks,
// after "Anatomy of the LSM Memory Buffer"): versions go in with increasing sequence numbers,
// and reads see the newest. Single-threaded.
class KVBufferProbe {
 public:
  virtual ~KVBufferProbe() = default;
  virtual void Add(std::string_view key, std::string_view value) = 0;
  // True if the key has a version.
  virtual bool Get(std::string_view key) = 0;
  // Seeks to start and steps over up to `count` entries; returns the entries visited.
  virtual uint64_t Scan(std::string_view start, uint64_t count) = 0;
  // The component's own accounting (bytes, metadata included).
  virtual size_t MemoryUsage() const = 0;
};

// WaitForCompaction's loop for engines with RocksDB's counters: polls read(name) for each name
// every 100 ms until all are 0 on two polls in a row; an error if one cannot be read, or after
// an hour. *how: "polled until 0: <names>".
EngineStatus WaitUntilCountersZero(
    const std::vector<std::string>& names, std::string* how,
    const std::function<std::optional<uint64_t>(const std::string& name)>& read);

// A store under test. Data calls are thread-safe once Open succeeded; Configure, Open, Close and
// Destroy are called from one thread while no data call is running. Destroy every iterator
// before Close.
class KVEngine {
 public:
  virtual ~KVEngine() = default;

  // "sluice", "rocksdb" or "leveldb": also the name of the engine's directory under --db.
  virtual std::string_view name() const = 0;
  // Library name, version and build kind, e.g. "RocksDB 11.8.1, release build".
  virtual std::string version() const = 0;
  // What a reader of the results must know about the build or library the run uses (e.g. that
  // it has assertions compiled in, or was a fallback); "" for nothing. REQUIRES: Configure.
  virtual std::string build_note() const { return ""; }
  // The property GetStats reads ("rocksdb.stats", ...).
  virtual std::string_view stats_property() const = 0;

  // Translates the options; fails (naming the option) when the engine cannot honour one in a
  // way that would make the comparison meaningless, e.g. a codec it lacks.
  virtual EngineStatus Configure(const EngineOptions& options) = 0;
  // The configuration as the engine will see it. REQUIRES: Configure succeeded.
  virtual std::vector<OptionRow> DescribeOptions() const = 0;

  virtual EngineStatus Open(const std::string& path) = 0;
  virtual EngineStatus Close() = 0;
  // Removes the database at path. REQUIRES: closed.
  virtual EngineStatus Destroy(const std::string& path) = 0;

  virtual EngineStatus Put(std::string_view key, std::string_view value, const WriteMode& mode) = 0;
  virtual EngineStatus Delete(std::string_view key, const WriteMode& mode) = 0;
  // Deletes every key in [begin, end) with one range tombstone. NotSupported by default
  // (LevelDB has none); sluice and RocksDB override it.
  virtual EngineStatus DeleteRange(std::string_view begin, std::string_view end,
                                   const WriteMode& mode);
  virtual std::unique_ptr<KVWriteBatch> NewWriteBatch() = 0;
  virtual EngineStatus Write(KVWriteBatch* batch, const WriteMode& mode) = 0;
  // NotFound if key has no value.
  virtual EngineStatus Get(std::string_view key, std::string* value) = 0;
  virtual std::unique_ptr<KVIterator> NewIterator() = 0;
  // Looks up every key: (*statuses)[i] and (*values)[i] as Get's for keys[i]. The default is Gets
  // in a loop; engines with a batched lookup of their own (sluice, RocksDB) override it.
  virtual void MultiGet(const std::vector<std::string_view>& keys, std::vector<std::string>* values,
                        std::vector<EngineStatus>* statuses);
  // Replaces *result with up to `limit` entries with key >= start, in key order. The default
  // reads them with a fresh iterator (Seek, then Next); engines with a bounded range read of
  // their own (sluice's DB::Scan) override it.
  virtual EngineStatus Scan(std::string_view start, size_t limit,
                            std::vector<std::pair<std::string, std::string>>* result);

  // Atomic read-modify-writes of the engine itself (sluice: lock-free, cLSM). NativeRmwSupport
  // is OK for an engine that has them; by default it, PutIfAbsent and Increment return
  // NotSupported, and the RMW benchmarks need --rmw=striped (LockStripedRmw over Get and Put).
  virtual EngineStatus NativeRmwSupport() const;
  // *inserted: whether the key had no value and now has `value`.
  virtual EngineStatus PutIfAbsent(std::string_view key, std::string_view value,
                                   const WriteMode& mode, bool* inserted);
  // Adds delta to the key's 8-byte little-endian counter (missing: 0); *result: the new value.
  virtual EngineStatus Increment(std::string_view key, int64_t delta, const WriteMode& mode,
                                 int64_t* result);
  // Replaces the key's value by modify(current value, or nullptr if none) atomically; nullopt
  // deletes it. modify may run more than once (on retries) and must have no other effect.
  using ModifyFunction = std::function<std::optional<std::string>(const std::string* current)>;
  virtual EngineStatus ReadModifyWrite(std::string_view key, const ModifyFunction& modify,
                                       const WriteMode& mode);

  // Writes the memory component to disk and waits; NotSupported where the engine has no such
  // call.
  virtual EngineStatus Flush() = 0;
  // Compacts the whole key range.
  virtual EngineStatus CompactAll() = 0;
  // Returns once the engine has no flush or compaction pending or running (db_bench's
  // waitforcompaction); *how says how the engine was asked (e.g. which properties were polled).
  // NotSupported by default.
  virtual EngineStatus WaitForCompaction(std::string* how);
  // The text of stats_property().
  virtual EngineStatus GetStats(std::string* stats) = 0;
  // Bytes the engine's flushes and compactions have written to table files since Open (the
  // numerator of write amplification); nullopt where the engine cannot tell. After Close: the
  // figure as of the close (the runner asks then, so that work finished just before the close
  // is counted wherever the engine reports it late, as RocksDB's LOG does).
  virtual std::optional<uint64_t> BackgroundBytesWritten() { return std::nullopt; }

  // Engine-specific cumulative counters since Open (sluice: its FloDB statistics); none by
  // default. The runner reads them before and after each benchmark.
  virtual Metrics ReadCounters() { return {}; }
  // What changed between two readings: a note for the result line ("" for none); metrics are
  // appended to *metrics.
  virtual std::string DescribeCounters(const Metrics& before, const Metrics& after,
                                       Metrics* metrics) {
    return "";
  }

  // Benchmarks of the engine's internals, which bypass the database (sluice only: the defaults
  // return NotSupported naming the engine). May be called while the database is open.
  virtual EngineStatus NewMemoryComponentDriver(std::unique_ptr<KVMemoryComponentDriver>* driver);
  // Files go to dir, which the job creates and removes.
  virtual EngineStatus NewPersistJob(const std::string& dir, std::unique_ptr<KVPersistJob>* job);
  // A fresh memory component of the configured kind (--memtable and its options).
  virtual EngineStatus NewBufferProbe(std::unique_ptr<KVBufferProbe>* probe);
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_KV_ENGINE_H_
