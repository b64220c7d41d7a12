// sluice/db.h — the database: an embeddable, persistent, ordered key-value store.
//
// A DB is safe for concurrent use by many threads without external synchronization. Gets never
// block; writes block only while a full memory component is being switched for a fresh one (or
// when flush and compaction fall behind, see Options). Close the DB (or destroy it) only after
// every iterator and snapshot obtained from it has been released.

#ifndef SLUICE_DB_H_
#define SLUICE_DB_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/iterator.h"
#include "sluice/options.h"
#include "sluice/slice.h"
#include "sluice/snapshot.h"
#include "sluice/status.h"
#include "sluice/write_batch.h"

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

// The name of the column family every database has (RocksDB's).
inline constexpr char kDefaultColumnFamilyName[] = "default";

// A column family of an open database: a keyspace of its own, with its own memory components,
// SST files and ColumnFamilyOptions, sharing the database's WAL (one sequence space: a batch
// across families is atomic, and snapshots and iterators see one state across them), caches
// and background threads. Every database has the default family (DB::DefaultColumnFamily()).
// A handle is owned by the DB and stays valid until the DB is destroyed; once its family is
// dropped, calls taking it answer InvalidArgument. So does a handle of another DB.
class ColumnFamilyHandle {
 public:
  virtual ~ColumnFamilyHandle() = default;
  virtual const std::string& GetName() const = 0;
  virtual uint32_t GetID() const = 0;
};

// A column family to open, by name, with its options.
struct ColumnFamilyDescriptor {
  ColumnFamilyDescriptor() = default;
  ColumnFamilyDescriptor(std::string n, const ColumnFamilyOptions& o)
      : name(std::move(n)), options(o) {}
  std::string name;
  ColumnFamilyOptions options;
};

class DB {
 public:
  // Opens (or, with create_if_missing, creates) the database in directory `path`, with its
  // default column family only: a database that has others is InvalidArgument naming them.
  static Status Open(const Options& options, const std::string& path, std::unique_ptr<DB>* db);
  // Opens the database with the column families `families` (each with its options; the
  // default family must be among them). *handles receives one handle per descriptor, in order.
  // A family the database has that is not named is InvalidArgument naming every such family; a
  // named family the database lacks is InvalidArgument naming it, unless
  // db_options.create_missing_column_families (then it is created). Nothing is opened on error.
  static Status Open(const DBOptions& db_options, const std::string& path,
                     const std::vector<ColumnFamilyDescriptor>& families,
                     std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db);
  // The names of the database's column families ("default" first), read from its MANIFEST.
  static Status ListColumnFamilies(const DBOptions& options, const std::string& path,
                                   std::vector<std::string>* names);

  DB() = default;
  DB(const DB&) = delete;
  DB& operator=(const DB&) = delete;
  // Closes the database if Close() was not called.
  virtual ~DB() = default;

  // --- Column families ---
  // The default column family's handle (owned by the DB).
  virtual ColumnFamilyHandle* DefaultColumnFamily() = 0;
  // Creates column family `name` (non-empty; not the name of a live family) with `options`;
  // *handle receives its handle (owned by the DB). At most 65,536 families may exist at once.
  virtual Status CreateColumnFamily(const ColumnFamilyOptions& options, const std::string& name,
                                    ColumnFamilyHandle** handle) = 0;
  // Drops the family: its data is deleted (files once no iterator reads them). The default
  // family cannot be dropped. Iterators open on it keep working; new calls with its handle are
  // InvalidArgument.
  virtual Status DropColumnFamily(ColumnFamilyHandle* family) = 0;

  // Every call below that takes a ColumnFamilyHandle acts on that family; the overload without
  // one acts on the default family.
  virtual Status Put(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                     const Slice& value) = 0;
  Status Put(const WriteOptions& options, const Slice& key, const Slice& value) {
    return Put(options, DefaultColumnFamily(), key, value);
  }
  // Deleting a missing key is not an error.
  virtual Status Delete(const WriteOptions& options, ColumnFamilyHandle* family,
                        const Slice& key) = 0;
  Status Delete(const WriteOptions& options, const Slice& key) {
    return Delete(options, DefaultColumnFamily(), key);
  }
  // Deletes every key k with begin <= k < end (bytewise) that exists now, by writing one range
  // tombstone (whatever the number of keys). Reads, iterators, read-modify-writes and MultiGet
  // honour it at once; compactions drop the keys it covers. begin > end is InvalidArgument;
  // begin == end deletes nothing.
  virtual Status DeleteRange(const WriteOptions& options, ColumnFamilyHandle* family,
                             const Slice& begin, const Slice& end) = 0;
  Status DeleteRange(const WriteOptions& options, const Slice& begin, const Slice& end) {
    return DeleteRange(options, DefaultColumnFamily(), begin, end);
  }
  // Applies every update of the batch atomically; they become visible together.
  virtual Status Write(const WriteOptions& options, WriteBatch* batch) = 0;

  // --- Atomic read-modify-write (cLSM) ---
  // fn receives the key's current value (nullptr if it has none) and returns its new value, or
  // std::nullopt to delete the key. The call is atomic and linearizable with every other read
  // and write, and takes no lock: fn runs on an optimistic read; if another write to the key
  // slips in before the result is installed, fn runs again on the newer value. So fn may run
  // more than once and must have no side effects beyond its return value; keep it short.
  using ModifyFunction = std::function<std::optional<std::string>(const std::string* current)>;
  // *result (may be null) receives the value fn returned, or is cleared if fn deleted the key.
  virtual Status ReadModifyWrite(const WriteOptions& options, ColumnFamilyHandle* family,
                                 const Slice& key, const ModifyFunction& fn,
                                 std::string* result) = 0;
  Status ReadModifyWrite(const WriteOptions& options, const Slice& key, const ModifyFunction& fn,
                         std::string* result) {
    return ReadModifyWrite(options, DefaultColumnFamily(), key, fn, result);
  }
  // Sets key to value only if it has no value; *inserted (may be null) says which happened.
  virtual Status PutIfAbsent(const WriteOptions& options, ColumnFamilyHandle* family,
                             const Slice& key, const Slice& value, bool* inserted) = 0;
  Status PutIfAbsent(const WriteOptions& options, const Slice& key, const Slice& value,
                     bool* inserted) {
    return PutIfAbsent(options, DefaultColumnFamily(), key, value, inserted);
  }
  // Sets key to desired only if its value equals *expected (expected == nullptr: only if the key
  // has no value); *swapped (may be null) says which happened.
  virtual Status CompareAndSwap(const WriteOptions& options, ColumnFamilyHandle* family,
                                const Slice& key, const std::string* expected, const Slice& desired,
                                bool* swapped) = 0;
  Status CompareAndSwap(const WriteOptions& options, const Slice& key, const std::string* expected,
                        const Slice& desired, bool* swapped) {
    return CompareAndSwap(options, DefaultColumnFamily(), key, expected, desired, swapped);
  }
  // Adds delta to the key's counter, an 8-byte little-endian two's-complement integer (a
  // missing key counts as 0; the sum wraps around); *result (may be null) receives the new
  // value. InvalidArgument naming the key if its value is not 8 bytes long.
  virtual Status Increment(const WriteOptions& options, ColumnFamilyHandle* family,
                           const Slice& key, int64_t delta, int64_t* result) = 0;
  Status Increment(const WriteOptions& options, const Slice& key, int64_t delta, int64_t* result) {
    return Increment(options, DefaultColumnFamily(), key, delta, result);
  }

  // Sets *value to the value of key; NotFound if there is none.
  virtual Status Get(const ReadOptions& options, ColumnFamilyHandle* family, const Slice& key,
                     std::string* value) = 0;
  Status Get(const ReadOptions& options, const Slice& key, std::string* value) {
    return Get(options, DefaultColumnFamily(), key, value);
  }

  // Looks up many keys at once: statuses[i] and (*values)[i] are what Get would give for
  // keys[i] in families[i] (OK and the value, NotFound with an empty value, or an error), and
  // all of them read one consistent state: that of options.snapshot, or of one moment during
  // the call (as an implicit snapshot; RocksDB's MultiGet does the same). Cheaper than Gets in
  // a loop: the keys are looked up in key order under one reference to the tree, each SST file
  // is opened once for all its keys, and keys in one data block read it once. Keys may repeat.
  // *values is resized to keys.size(). families.size() must equal keys.size(), else every
  // status is InvalidArgument; a handle this DB does not know (or of a dropped family) is
  // InvalidArgument for its key.
  virtual std::vector<Status> MultiGet(const ReadOptions& options,
                                       const std::vector<ColumnFamilyHandle*>& families,
                                       const std::vector<Slice>& keys,
                                       std::vector<std::string>* values) = 0;
  // The same, every key in the default family.
  std::vector<Status> MultiGet(const ReadOptions& options, const std::vector<Slice>& keys,
                               std::vector<std::string>* values) {
    return MultiGet(options, std::vector<ColumnFamilyHandle*>(keys.size(), DefaultColumnFamily()),
                    keys, values);
  }

  // An iterator over the family (initially not Valid: call a Seek first). It reads one
  // consistent state: that of its snapshot, or of the moment it was created. (Iterators over
  // several families see one state across them when they share a snapshot.)
  virtual std::unique_ptr<Iterator> NewIterator(const ReadOptions& options,
                                                ColumnFamilyHandle* family) = 0;
  std::unique_ptr<Iterator> NewIterator(const ReadOptions& options) {
    return NewIterator(options, DefaultColumnFamily());
  }

  // A bounded range read: appends to *result up to `limit` pairs with start <= key < end, in
  // key order (an empty `end` means no upper bound; options' iterate bounds narrow the range). The
  // pairs form one consistent state that includes every write completed before the call. For short
  // scans under heavy writes this is cheaper than an iterator with the FloDB memory component (see
  // docs/design.md).
  virtual Status Scan(const ReadOptions& options, ColumnFamilyHandle* family, const Slice& start,
                      const Slice& end, size_t limit,
                      std::vector<std::pair<std::string, std::string>>* result) = 0;
  Status Scan(const ReadOptions& options, const Slice& start, const Slice& end, size_t limit,
              std::vector<std::pair<std::string, std::string>>* result) {
    return Scan(options, DefaultColumnFamily(), start, end, limit, result);
  }

  // A snapshot of the current state, to be passed in ReadOptions; release it with
  // ReleaseSnapshot. Versions a live snapshot needs are kept by flush and compaction.
  virtual const Snapshot* GetSnapshot() = 0;
  virtual void ReleaseSnapshot(const Snapshot* snapshot) = 0;

  // Writes the family's current memory component to an L0 SST file and waits until it is done.
  virtual Status Flush(ColumnFamilyHandle* family) = 0;
  Status Flush() { return Flush(DefaultColumnFamily()); }
  // Makes every write completed before the call durable (fdatasync of the write-ahead logs that
  // may hold them), as if each had been made with WriteOptions::sync; writes made with
  // disable_wal are not covered. Concurrent calls and synced writes share fdatasyncs. For group
  // commit by hand: write with sync=false, then SyncWAL once before acknowledging them all.
  virtual Status SyncWAL() = 0;
  // Compacts the key range [*begin, *end] (nullptr: unbounded) down to the last level that holds
  // data, removing deleted and overwritten versions no snapshot needs.
  virtual Status CompactRange(ColumnFamilyHandle* family, const Slice* begin, const Slice* end) = 0;
  Status CompactRange(const Slice* begin, const Slice* end) {
    return CompactRange(DefaultColumnFamily(), begin, end);
  }

  // Properties (false if the name is unknown):
  //   "sluice.stats"                  levels, files, sizes, compaction and stall statistics
  //   "sluice.stats-json"             the same as one JSON object (levels, memory, writes,
  //                                   flushes, write_amplification, stalls, ...; docs/cli.md)
  //   "sluice.num-files-at-level<N>"  number of SST files at level N
  //   "sluice.memory-usage"           bytes used by the memory components
  //   "sluice.estimate-num-keys"      an estimate of the number of keys: exact after a full
  //                                   compaction with no writes since, high under overwrites
  //   "sluice.sstables"               every SST file per level with its key range
  //   "sluice.flodb-stats"            the FloDB memory component's counters (memtable "flodb")
  //   "sluice.memtable-choices"       the "adaptive" memory component's decisions, one line per
  //                                   component: the representation, the operations observed
  //                                   and the estimated cost of each candidate
  //   "sluice.io-counters"            space-separated name=value counters since open: flushes,
  //                                   flush_bytes, compactions, compaction_bytes_read,
  //                                   compaction_bytes_written, wal_bytes, user_bytes
  //   "sluice.compaction-pending"     1 if a level is over its size or file-count target
  //   "sluice.num-running-compactions" compactions running now (background and CompactRange)
  //   "sluice.num-running-flushes"    flushes running now (0 or 1)
  //   "sluice.mem-table-flush-pending" 1 if an immutable memory component awaits its flush
  //   "sluice.num-immutable-mem-table" immutable memory components awaiting their flush
  //   (these five as RocksDB's "rocksdb.*" of the same names: all 0 once background work has
  //   settled)
  //   "sluice.idle-compaction-pending" 1 if L0 holds files that the idle L0 compaction
  //                                   (Options::level0_idle_compaction_ms > 0) will move to L1
  //                                   once writes stop: with the five above, all 0 once a
  //                                   write-idle DB has settled
  //   "sluice.estimate-pending-compaction-bytes" the compaction debt the stall policy compares
  //                                   with Options::soft/hard_pending_compaction_bytes_limit
  //   "sluice.actual-delayed-write-rate" bytes/s writes are paced to (0 unless slowed)
  //   "sluice.is-write-stopped"       1 while writes wait for compaction (a stop trigger)
  // With a family: the levels, files, memory and compaction properties are that family's
  // ("sluice.stats" and "sluice.stats-json" describe its levels; the write, stall and I/O
  // counters are the database's in every family).
  virtual bool GetProperty(ColumnFamilyHandle* family, const Slice& property,
                           std::string* value) = 0;
  bool GetProperty(const Slice& property, std::string* value) {
    return GetProperty(DefaultColumnFamily(), property, value);
  }

  // Waits for background work to stop, syncs the WAL and releases the directory lock.
  // Further calls on the DB return an error. Idempotent.
  virtual Status Close() = 0;
};

// Removes the database's files and directory.
Status DestroyDB(const std::string& path, const Options& options);

// Recovers as much data as possible from a damaged database: rebuilds the MANIFEST from the SST
// files that are readable and replays the WAL files into new SST files. Data in files that
// cannot be read is lost; unreadable files are moved to a lost/ subdirectory.
Status RepairDB(const std::string& path, const Options& options);

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_DB_H_
