// sluice/options.h — options for opening a database, reading and writing.
//
// Defaults are chosen for a server-class machine; every size is in bytes. DB::Open validates
// the options and returns InvalidArgument naming the option when one is out of range.
// Options, what DB::Open takes, is DBOptions (the database as a whole) plus ColumnFamilyOptions
// (what each column family will have of its own), as in RocksDB; code that sets Options' fields
// by name is unaffected by the split.

#ifndef SLUICE_OPTIONS_H_
#define SLUICE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "sluice/slice.h"

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class Cache;
class Env;
class Logger;
class WriteBufferManager;
class Snapshot;

// Per-block compression of SST files. A block that does not shrink by at least 1/8 is stored
// uncompressed.
enum class CompressionType : unsigned char {
  kNone = 0,
  kSnappy = 1,
  kZstd = 2,
  kLz4 = 3,
};

// Which file of a level n >= 1 a compaction into level n+1 takes (RocksDB's compaction_pri).
enum class CompactionPri : unsigned char {
  // Round-robin over the key space: the first file after where the level's last compaction
  // ended (LevelDB's compact pointers).
  kRoundRobin = 0,
  // The file whose overlapping bytes in level n+1, over its own bytes, are fewest: the one that
  // moves the most data down per byte rewritten (RocksDB's kMinOverlappingRatio, its default,
  // and sluice's: it writes less under sustained writes).
  kMinOverlappingRatio = 1,
};

// The options of the database as a whole: how it is opened, its background threads, its block
// cache, the limits on keys and values. (ColumnFamilyOptions: those that each column family has
// of its own.)
struct DBOptions {
  // --- Opening ---
  // Create the database if it is missing.
  bool create_if_missing = false;
  // Fail with InvalidArgument if the database already exists.
  bool error_if_exists = false;
  // DB::Open with column families: create the named families the database lacks (else that is
  // InvalidArgument naming them).
  bool create_missing_column_families = false;
  // Treat every detected corruption as an error. When false, recovery skips corrupt WAL
  // records that are safe to skip (and reports them in the LOG) instead of failing.
  bool paranoid_checks = true;
  // The operating-system seam; nullptr means Env::Default().
  Env* env = nullptr;
  // Where events (flushes, compactions, recovered corruption) are logged; nullptr means a file
  // named LOG in the database directory.
  std::shared_ptr<Logger> info_log;
  // --- Reads ---
  // Snapshots and iterators (which take an implicit snapshot) include every write that had
  // completed when they were created, waiting for writes still in flight below that point
  // (linearizable). When false they never wait and read a consistent (serializable) state that
  // may miss writes other threads completed just before (cLSM's snapshots).
  bool linearizable_snapshots = true;
  // --- Caches ---
  // Bytes of the LRU cache of uncompressed data blocks this DB creates for its own use; 0
  // disables it. Ignored when block_cache is set.
  size_t block_cache_size = 32 << 20;
  // A block cache to use instead, which any number of DBs may share (NewLRUCache in
  // sluice/cache.h): its capacity then bounds the cached blocks of all of them.
  std::shared_ptr<Cache> block_cache;
  // SST files kept open (table readers cached); older ones are closed and reopened on demand.
  int max_open_files = 1000;
  // Read SST files through read-only memory mappings (RocksDB's allow_mmap_reads; LevelDB
  // always maps them on 64-bit systems): a block read copies from the mapping, no system call.
  // Each open file (max_open_files) is one mapping, up to 4,096 in a process (files past that
  // are read with pread). A file truncated under the open database (by another process, or a
  // failing disk) is Corruption naming it, as with pread, not a SIGBUS: the default Env
  // installs a SIGBUS handler that passes faults outside its mappings to the handler before it
  // (Env::NewMappedRandomAccessFile). Reads that do not fill the block cache (compactions')
  // use pread, so the pages the process maps are those its cached reads touched; they count
  // in its RSS as file-backed pages, reclaimed by the kernel like the page cache.
  bool allow_mmap_reads = true;
  // --- Compaction ---
  // Background jobs this DB runs at once (at least 2): one flush, and up to
  // max_background_jobs - 1 compactions. They run as tasks on the threads the whole process
  // shares (Env::SetBackgroundThreads): flushes on the high-priority pool, where no compaction
  // queues ahead of them, compactions on the low-priority pool, which opening a DB grows to at
  // least max_background_jobs - 1 threads. A DB has no threads of its own.
  int max_background_jobs = 2;
  // A compaction with enough input (at least target_file_size_base per range) is split into up
  // to this many key ranges, merged in parallel on free threads of the low-priority pool (RocksDB's
  // max_subcompactions; its default is 1). 0: one per core, at most
  // kDefaultMaxSubcompactions. The ranges are cut between files of the sorted input level, so
  // an L0 compaction into an empty L1 is never split.
  int max_subcompactions = 0;
  static constexpr unsigned kDefaultMaxSubcompactions = 4;
  // What max_subcompactions = 0 means on this machine: one per core, at most
  // kDefaultMaxSubcompactions.
  static int DefaultMaxSubcompactions() {
    const unsigned cores = std::thread::hardware_concurrency();
    return static_cast<int>(cores == 0                          ? 1u
                            : cores < kDefaultMaxSubcompactions ? cores
                                                                : kDefaultMaxSubcompactions);
  }
  // Bytes per second a slowdown starts from; 0: the rate writes ran at when it began.
  uint64_t delayed_write_rate = 0;
  // --- Memory budget ---
  // Caps the bytes held by the memory components of every DB and family that share it
  // (sluice/write_buffer_manager.h): past the cap the largest mutable component among them is
  // flushed, and with allow_stall writes wait for room. nullptr: db_write_buffer_size decides.
  std::shared_ptr<WriteBufferManager> write_buffer_manager;
  // With no write_buffer_manager: > 0 gives this DB a budget of its own of this many bytes
  // over all its families (RocksDB's option); 0 (the default): none, each family is bounded by
  // its write_buffer_size * max_write_buffer_number only.
  size_t db_write_buffer_size = 0;
  // --- Column families ---
  // Bytes of WAL files kept alive for unflushed writes beyond which the family holding the
  // oldest one back is flushed (RocksDB's option): a family that receives only a trickle of
  // writes would otherwise keep every WAL file since its first one. 0: four times the sum over
  // the families of write_buffer_size * max_write_buffer_number (with one family the limit is
  // never reached: its WAL files go with its own flushes).
  uint64_t max_total_wal_size = 0;
  // --- Limits ---
  // Longest key accepted by writes (InvalidArgument beyond).
  size_t max_key_size = 64 << 10;
  // Longest value accepted by writes (InvalidArgument beyond).
  size_t max_value_size = 64 << 20;
};

// The options of one column family: its memory components, SST format, and LSM shape. The
// default family's are Options' own.
struct ColumnFamilyOptions {
  // --- Memory component ---
  // Bytes of the whole memory component (every buffer level together); when it is full it
  // becomes immutable and is flushed to an L0 SST file.
  size_t write_buffer_size = 64 << 20;
  // Bytes of a family's first memory component. When a component fills up, the next one is
  // sized for about ten seconds of writes at the rate it filled, and at least twice as large,
  // up to write_buffer_size: a family that receives few writes keeps small components (FloDB's
  // hash table, filter and index are sized for the component), one written fast gets
  // full-size components after its first switch. 0: write_buffer_size / 64, at least 256 KiB
  // (1 MiB for the default). Set it to write_buffer_size for full-size components from the
  // start.
  size_t initial_write_buffer_size = 0;
  // Name of the memory component:
  //   "flodb"     FloDB's two levels: a concurrent hash table (the Membuffer) drained in the
  //               background into a sorted skiplist (the Memtable); updates in place;
  //   "skiplist"  one concurrent lock-free skiplist, a node per version;
  //   "vector"    an append-only array sorted lazily on the first read after an insert (takes
  //               a lock; cheapest for insert-only work, slow when reads interleave);
  //   "vector-prealloc"  the same with the array reserved up front (budget / 64 entries);
  //   "hash-skiplist"    bucket_count buckets, a key's bucket chosen by its first
  //                      prefix_length bytes, each bucket a concurrent skiplist: fast inserts
  //                      and point reads; scans merge every bucket (slow);
  //   "hash-linklist"    the same with a sorted linked list per bucket (least metadata; a
  //                      bucket past 256 versions gains skip levels);
  //   "adaptive"         each component one of vector, skiplist, hash-skiplist and
  //                      hash-linklist, chosen at the switch from the operations observed on
  //                      the previous one (GetProperty("sluice.memtable-choices") lists the
  //                      decisions).
  // docs/choosing-a-memory-component.md says which to use when.
  std::string memtable = "flodb";
  // Memory components (the mutable one plus immutable ones waiting for flush) that may exist at
  // once; a writer that would exceed it waits for a flush.
  int max_write_buffer_number = 3;
  // --- Hash memory components ("hash-skiplist", "hash-linklist") ---
  // Bytes of the key (from its start) that choose its bucket (X in the DBTest'24 paper); keys
  // shorter than this hash whole. Best set to the part of the key that range scans share, with
  // enough distinct values to spread keys over the buckets.
  size_t prefix_length = 8;
  // Buckets (H). 0: one per KiB of write_buffer_size (16 to 1M). The bucket array (8 bytes a
  // bucket) counts against write_buffer_size and may take at most a quarter of it.
  size_t bucket_count = 0;
  // --- FloDB memory component ("flodb") ---
  // Share of write_buffer_size given to the Membuffer (the rest is the Memtable). While more
  // threads write than the cores the drain threads leave free, and updates often find their
  // key in the Membuffer, it may hold up to half of write_buffer_size (draining late, so that
  // updates complete in place); its hash table is sized for this share.
  double membuffer_fraction = 0.25;
  // The Membuffer is partitioned by this many most significant bits of the key, so that a
  // drained batch lands in one neighbourhood of the skiplist. Worth it only when keys' leading
  // bits vary (binary or hashed keys): keys sharing a long prefix (e.g. zero-padded decimal
  // numbers) all fall in one partition. 0: one partition.
  int membuffer_partition_bits = 0;
  // Entry slots per (cache-line) bucket of the Membuffer, 1..6; a write into a full bucket
  // goes to the Memtable.
  int membuffer_bucket_slots = 6;
  // Drain tasks that may move one component's Membuffer into its Memtable at once (on the
  // process's drain pool, Env::SetBackgroundThreads(n, Env::Priority::kDrain)). They run only
  // while the component takes writes or holds entries: an idle component costs no drain work.
  int flodb_drain_threads = 1;
  // A bounded scan (DB::Scan) that finds a newer version in its range restarts; after this many
  // restarts it falls back to a scan that cannot be invalidated.
  int flodb_scan_max_restarts = 3;
  // --- SST files ---
  // Uncompressed bytes of user data per data block.
  size_t block_size = 4096;
  // Keys between restart points (full keys) in a data block; the others are prefix-compressed.
  int block_restart_interval = 16;
  // Bloom filter bits per key, one filter per SST file; 0 disables filters.
  int bloom_bits_per_key = 10;
  // Compression of the files compactions write (level 1 and below).
  CompressionType compression = CompressionType::kSnappy;
  // Compression of the level-0 files flushes write while L0 holds fewer than
  // level0_file_num_compaction_trigger files and no L0 compaction runs. None by default: such
  // a file lives until the next L0 compaction (seconds under writes) and is read by every Get
  // and seek meanwhile, so compressing it costs the flush and each block read CPU to save
  // little space for a short time; the compaction into L1 compresses it with `compression`. A
  // flush into a backlog (L0 at or above the trigger, or an L0 compaction running: the file
  // will wait longer) uses `compression`.
  CompressionType level0_compression = CompressionType::kNone;
  // Immutable memory components one flush merges into one L0 file while L0 is in a deep
  // backlog (at least twice level0_file_num_compaction_trigger files: compactions are not
  // keeping up). While fewer are ready and a compaction runs, the flush of the oldest waits
  // (the compaction's end wakes it), so an L0 file holds that many components' data and the L0
  // file-count triggers hold that many times the bytes: fewer L0 -> L1 jobs per byte, each
  // rewriting L1 once, so a long fill writes fewer bytes. At most
  // max_write_buffer_number - 1 are merged, so a writer never waits for a held flush (it may
  // wait for memory while a merged flush runs, which takes longer); Flush() and Close never
  // wait for a second component. 1: every component is its own L0 file (RocksDB's
  // min_write_buffer_number_to_merge is the unconditional form of this).
  int level0_backlog_flush_merge = 2;
  // --- Compaction ---
  int num_levels = 7;
  // Number of L0 files that triggers an L0 -> L1 compaction.
  int level0_file_num_compaction_trigger = 4;
  // The stall policy (RocksDB's triggers; docs/design.md "Write stalls"). Number of L0 files
  // at which writes are paced: the rate starts from the one writes ran at and falls as L0 grows
  // towards the stop trigger, to 1/16 of it there.
  int level0_slowdown_writes_trigger = 20;
  // Number of L0 files at which writes wait until compaction brings it below.
  int level0_stop_writes_trigger = 36;
  // Compaction debt (bytes compactions must still rewrite to bring every level within its
  // target; GetProperty("sluice.estimate-pending-compaction-bytes")) at which writes are paced,
  // the rate falling as the debt grows towards the hard limit. 0: no such slowdown.
  uint64_t soft_pending_compaction_bytes_limit = 64ull << 30;
  // Compaction debt at which writes wait until compaction brings it below. 0: no such stop.
  uint64_t hard_pending_compaction_bytes_limit = 256ull << 30;
  // Once no write has been applied for this many milliseconds, level 0 is compacted into
  // level 1 even below level0_file_num_compaction_trigger: batching L0 files only saves work
  // while more flushes come, and every read pays for each L0 file (a filter probe per Get, a
  // block per iterator seek). 0: never (L0 then waits for the trigger).
  int level0_idle_compaction_ms = 1000;
  // While scans dominate writes, level 0 (2 files or more) is compacted into level 1 even
  // below level0_file_num_compaction_trigger once the scans have paid for its files about as
  // much as the compaction costs: every iterator seek reads a block of each L0 file, and a
  // Get's filter spares it that, a seek's cannot. Counted: each iterator (or DB::Scan) adds
  // the number of L0 files it merges; due when that count, since L0 or L1 last changed,
  // reaches (L0 bytes + L1 bytes) / 1 KiB, and at least 65,536, with no more writes than
  // scans meanwhile (one L0 seek costs about what compacting 1 KiB does; the floor covers a
  // compaction's fixed costs).
  bool level0_scan_compaction = true;
  // Target size of compaction output files.
  uint64_t target_file_size_base = 64ull << 20;
  // Maximum bytes of level 1; each deeper level may hold max_bytes_for_level_multiplier times
  // the previous one.
  uint64_t max_bytes_for_level_base = 256ull << 20;
  double max_bytes_for_level_multiplier = 10.0;
  // Which file of a level n >= 1 is compacted next (see CompactionPri).
  CompactionPri compaction_pri = CompactionPri::kMinOverlappingRatio;
};

// Every option of a database with one column family (the default): DBOptions and the default
// family's ColumnFamilyOptions, in one struct, as LevelDB and RocksDB users expect.
struct Options : public DBOptions, public ColumnFamilyOptions {
  Options() = default;
  Options(const DBOptions& db, const ColumnFamilyOptions& family)
      : DBOptions(db), ColumnFamilyOptions(family) {}
};

struct ReadOptions {
  // Read at this snapshot (from DB::GetSnapshot); nullptr reads the latest state.
  const Snapshot* snapshot = nullptr;
  // Verify the checksum of every block read from disk (the default, as in RocksDB): a damaged
  // block is Corruption naming the file, never wrong data. Blocks are verified regardless when
  // they enter the block cache or when Options::paranoid_checks is set, so false only skips the
  // check, with paranoid_checks off, for blocks read without filling the cache; a bit flipped
  // on disk may then be returned as data.
  bool verify_checksums = true;
  // Keep blocks read by this operation in the block cache.
  bool fill_cache = true;
  // Iterators (and DB::Scan, whose [start, end) they narrow) see only keys k with
  // lower <= k < upper (nullptr: no bound). SeekToFirst goes to the first key >= lower,
  // SeekToLast to the last key < upper, a Seek below lower to lower; the iterator becomes
  // invalid at a bound instead of reading past it, so the hidden entries beyond it (deletions,
  // overwritten versions) cost nothing. As in RocksDB, except that the bounds are copied when
  // the iterator is created: the Slices need not outlive NewIterator (or Scan).
  const Slice* iterate_lower_bound = nullptr;
  const Slice* iterate_upper_bound = nullptr;
};

struct WriteOptions {
  // Return only once the write is durable on disk (fdatasync of the WAL; one fdatasync serves
  // every writer waiting for it). When false, the write has been handed to the operating system
  // when it is acknowledged: it survives a crash of the process, not of the machine.
  bool sync = false;
  // Skip the write-ahead log: the write is lost on any crash unless it was flushed first.
  bool disable_wal = false;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_OPTIONS_H_
