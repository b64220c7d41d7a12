// wal/log_writer.h — appends records to a log file from many threads at once.
//
// Reserve-then-fill with group commit. A writer first Reserve()s: under a short critical
// section it is given the next byte range of the file (and, through a callback, the next
// sequence number, so the order of records in the file is the order of their sequence
// numbers). It then encodes its record (framing, checksums) in parallel with other writers, and
// Commit() hands it to the OS: whichever waiting writer finds the I/O role free writes every
// contiguous filled range in one go (one write(2) for many records), and, if anyone asked for
// it, one fdatasync covering all of them. So:
//   * the file only ever grows by complete, contiguous records: after a crash it holds a prefix
//     of the reserved records plus at most one torn write at the end, never a hole;
//   * Commit(sync=false) returns once every byte up to the record's end is handed to the OS
//     (the record and everything before it survive a crash of the process);
//   * Commit(sync=true) returns once those bytes are durable; one fdatasync serves every writer
//     waiting at that moment.
// After an I/O error the writer is failed: that error is returned to the writers involved and
// to every later Reserve/Commit.
//
// Seal() ends reservations (the memory component using this log is being switched); writers
// that reserved before Seal() complete normally. Close() requires every reservation committed.

#ifndef SLUICE_WAL_LOG_WRITER_H_
#define SLUICE_WAL_LOG_WRITER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/env.h"
#include "sluice/slice.h"
#include "sluice/status.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice::log {

class Writer {
 public:
  // Takes ownership of file; the log starts at offset initial_size (0 for a new file).
  Writer(std::unique_ptr<WritableFile> file, std::string fname, uint64_t initial_size = 0);
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer();

  struct Reservation {
    uint64_t start = 0;
    uint64_t end = 0;
  };

  // Reserves room for a record of payload_size bytes and calls on_reserve() inside the same
  // critical section (use it to take the record's sequence number). Returns Busy if the log is
  // sealed, or the writer's error if it failed. (A write that skips the WAL does not come
  // here: it takes its sequence number without the lock and checks sealed() afterwards.)
  Status Reserve(size_t payload_size, const std::function<void()>& on_reserve, Reservation* r);

  // Writes the record reserved by r; see the file comment for when it returns.
  // REQUIRES: payload.size() is the size given to Reserve.
  Status Commit(const Reservation& r, const Slice& payload, bool sync);

  // Reserve + Commit, for single-threaded users (the MANIFEST).
  Status AddRecord(const Slice& payload, bool sync);

  // Makes everything written so far durable.
  Status Sync();

  // Seal: no Reserve succeeds afterwards. sealed() takes no lock: a seq_cst load of the flag
  // that Seal (and Close) store seq_cst, so a caller can order its own seq_cst operations
  // against a Seal (db/db_write.cc does, for writes that skip the WAL).
  void Seal();
  bool sealed() const { return sealed_.load(std::memory_order_seq_cst); }

  // Flushes and closes the file. REQUIRES: no reservation is outstanding.
  Status Close();

  // Bytes reserved so far (the file size once everything is committed).
  uint64_t ReservedSize() const;
  const std::string& file_name() const { return fname_; }

 private:
  // Hands the chunks to the OS (and syncs them if do_sync), with the crash-test kill points.
  Status WriteChunks(const std::vector<const std::string*>& chunks, bool do_sync);
  // "wal.<event>" or "manifest.<event>", from the file's name (util/kill_point.h).
  std::string KillPointName(std::string_view event) const;
  struct Filled {
    uint64_t end;
    const std::string* bytes;  // owned by the committing writer, which waits until written
  };

  // Records a change of the state below and wakes sleepers.
  void ChangedLocked() REQUIRES(mu_);
  // Waits (spinning without mu_, then sleeping) until ChangedLocked is called.
  void WaitForChange() REQUIRES(mu_);

  const std::string fname_;
  std::unique_ptr<WritableFile> file_;

  mutable Mutex mu_;
  CondVar cv_{&mu_};
  std::atomic<uint64_t> changes_{0};          // bumped under mu_ whenever the state below changes
  int sleepers_ GUARDED_BY(mu_) = 0;          // waiters blocked on cv_
  uint64_t reserved_ GUARDED_BY(mu_);         // end of the last reservation
  uint64_t written_ GUARDED_BY(mu_);          // bytes handed to the OS
  uint64_t synced_ GUARDED_BY(mu_);           // bytes made durable
  uint64_t sync_wanted_ GUARDED_BY(mu_) = 0;  // largest end a sync=true committer waits for
  bool io_busy_ GUARDED_BY(mu_) = false;      // a writer is doing I/O outside the lock
  // Written under mu_ (seq_cst), read under it or without it (sealed()).
  std::atomic<bool> sealed_{false};
  bool closed_ GUARDED_BY(mu_) = false;
  Status error_ GUARDED_BY(mu_);
  // Committed, not yet written. Few entries (at most one per writer in flight), so a vector
  // searched linearly beats a map and does not allocate per record.
  struct FilledRange {
    uint64_t start;
    Filled filled;
  };
  std::vector<FilledRange> filled_ GUARDED_BY(mu_);
  std::vector<const std::string*> chunks_ GUARDED_BY(mu_);  // spare capacity for I/O rounds
};

}  // namespace sluice::log

#endif  // SLUICE_WAL_LOG_WRITER_H_
