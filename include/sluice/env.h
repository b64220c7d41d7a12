// sluice/env.h — the one seam between sluice and the operating system.
//
// Every file, directory, lock and clock access of the engine goes through an Env, so tests can
// substitute one that injects faults (failed writes, failed fsync, ENOSPC, torn files) and
// check that the database reports them and keeps every acknowledged write. Env::Default() is
// the POSIX implementation; EnvWrapper forwards everything to another Env (mapped opens go
// through its NewRandomAccessFile) and is the base for such test environments. All methods are
// thread-safe.

#ifndef SLUICE_ENV_H_
#define SLUICE_ENV_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/slice.h"
#include "sluice/status.h"

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

// A file read from its start to its end.
class SequentialFile {
 public:
  virtual ~SequentialFile() = default;
  // Reads up to n bytes into scratch; *result points at the bytes read (fewer at end of file).
  virtual Status Read(size_t n, Slice* result, char* scratch) = 0;
  virtual Status Skip(uint64_t n) = 0;
};

// What RandomAccessFile::ReadWith hands the bytes it read to. Use must copy what it keeps:
// the bytes are valid only during the call.
class ReadConsumer {
 public:
  virtual ~ReadConsumer() = default;
  virtual Status Use(const Slice& bytes) = 0;
};

// A file read at arbitrary offsets, safe for concurrent readers.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads up to n bytes at offset into scratch; *result may point into scratch or elsewhere
  // (fewer bytes at end of file).
  virtual Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const = 0;
  // True if Read always returns a view of memory the file owns (valid while the file lives)
  // and never writes scratch, which may then be nullptr (a file kept in memory; the default
  // Env's mapped files copy instead, see NewMappedRandomAccessFile).
  virtual bool ReturnsViews() const { return false; }
  // Read, for bytes the caller will not read again soon (a compaction's input, a scan that
  // does not fill the block cache): a mapped file reads them with pread, so they do not become
  // pages of the process's mappings. The default is Read.
  virtual Status ReadOnce(uint64_t offset, size_t n, Slice* result, char* scratch) const {
    return Read(offset, n, result, scratch);
  }
  // Reads up to n bytes at offset (fewer at end of file) and passes them to consumer,
  // returning what it returns. The default reads into scratch with Read first. A mapped file
  // passes a view of its mapping instead (no copy), and returns Corruption if a page of it was
  // lost during the call, whatever Use returned.
  virtual Status ReadWith(uint64_t offset, size_t n, char* scratch, ReadConsumer* consumer) const {
    Slice bytes;
    Status s = Read(offset, n, &bytes, scratch);
    if (!s.ok()) return s;
    return consumer->Use(bytes);
  }
};

// A file written sequentially. Append may buffer in user space; Flush hands the buffered bytes
// to the operating system (they then survive a crash of the process); Sync makes them durable
// (they survive a crash of the machine). Not safe for concurrent use.
class WritableFile {
 public:
  virtual ~WritableFile() = default;
  virtual Status Append(const Slice& data) = 0;
  virtual Status Flush() = 0;
  virtual Status Sync() = 0;
  virtual Status Close() = 0;
};

// A held file lock (see Env::LockFile).
class FileLock {
 public:
  virtual ~FileLock() = default;
};

// Destination for the human-readable event log (the LOG file of a database).
class Logger {
 public:
  virtual ~Logger() = default;
  virtual void Log(const Slice& message) = 0;
};

class Env {
 public:
  virtual ~Env() = default;

  // The process-wide POSIX environment. Never destroyed.
  static Env* Default();

  virtual Status NewSequentialFile(const std::string& fname,
                                   std::unique_ptr<SequentialFile>* result) = 0;
  virtual Status NewRandomAccessFile(const std::string& fname,
                                     std::unique_ptr<RandomAccessFile>* result) = 0;
  // Opens fname, which no one writes any more (a table file), for random reads through a
  // read-only memory mapping of its length at open: Read copies from the mapping (no system
  // call), ReadOnce reads with pread, and reads past that length return fewer bytes, as at end
  // of file. The default Env guards the mapping: a page lost under it (another process
  // truncating the file, a failing disk) makes reads of the file Corruption naming it instead
  // of a SIGBUS that kills the process (it installs a SIGBUS handler, which passes other faults
  // to the handler installed before it). The default opens fname with NewRandomAccessFile;
  // EnvWrapper keeps that default, so a wrapper that intercepts NewRandomAccessFile keeps
  // seeing every read.
  virtual Status NewMappedRandomAccessFile(const std::string& fname,
                                           std::unique_ptr<RandomAccessFile>* result) {
    return NewRandomAccessFile(fname, result);
  }
  // Creates (or truncates) fname for writing.
  virtual Status NewWritableFile(const std::string& fname,
                                 std::unique_ptr<WritableFile>* result) = 0;
  // Opens fname for appending, creating it if missing.
  virtual Status NewAppendableFile(const std::string& fname,
                                   std::unique_ptr<WritableFile>* result) = 0;

  virtual bool FileExists(const std::string& fname) = 0;
  // Names (not paths) of the entries of dir, without "." and "..".
  virtual Status GetChildren(const std::string& dir, std::vector<std::string>* result) = 0;
  virtual Status RemoveFile(const std::string& fname) = 0;
  // Creates dir; OK if it already exists as a directory.
  virtual Status CreateDirIfMissing(const std::string& dir) = 0;
  virtual Status RemoveDir(const std::string& dir) = 0;
  virtual Status GetFileSize(const std::string& fname, uint64_t* size) = 0;
  // Atomically replaces target with src (POSIX rename).
  virtual Status RenameFile(const std::string& src, const std::string& target) = 0;
  // Makes the directory's entries (creations, renames, removals) durable.
  virtual Status SyncDir(const std::string& dir) = 0;
  // Truncates (or extends with zeros) fname to size bytes.
  virtual Status TruncateFile(const std::string& fname, uint64_t size) = 0;

  // Takes an exclusive advisory lock on fname (created if missing). Returns Busy naming the path
  // if another process (or this one) already holds it.
  virtual Status LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) = 0;
  virtual Status UnlockFile(std::unique_ptr<FileLock> lock) = 0;

  // A Logger appending to fname.
  virtual Status NewLogger(const std::string& fname, std::shared_ptr<Logger>* result) = 0;

  virtual uint64_t NowMicros() = 0;
  virtual void SleepForMicroseconds(int micros) = 0;

  // The background threads every DB of the process shares (RocksDB's Env thread pools), in
  // three pools: kHigh runs flushes, kLow compactions (and their parallel key ranges and the
  // deletion of obsolete files), kDrain FloDB's drains of the Membuffer. Defaults: kHigh
  // max(1, cores / 2), kLow and kDrain one per core. A DB opened with max_background_jobs
  // above the kLow size grows it to max_background_jobs - 1. Every Env reaches the same
  // process-wide pools. number is clamped to 1..1024; shrinking waits for the threads that
  // leave to finish their task (call it from no background task).
  enum class Priority { kLow, kHigh, kDrain };
  virtual void SetBackgroundThreads(int number, Priority pri = Priority::kLow);
  virtual int GetBackgroundThreads(Priority pri = Priority::kLow);
};

// Forwards every call to a target Env; override what you want to change.
class EnvWrapper : public Env {
 public:
  explicit EnvWrapper(Env* target) : target_(target) {}
  Env* target() const { return target_; }

  Status NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r) override {
    return target_->NewSequentialFile(f, r);
  }
  Status NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r) override {
    return target_->NewRandomAccessFile(f, r);
  }
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override {
    return target_->NewWritableFile(f, r);
  }
  Status NewAppendableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override {
    return target_->NewAppendableFile(f, r);
  }
  bool FileExists(const std::string& f) override { return target_->FileExists(f); }
  Status GetChildren(const std::string& dir, std::vector<std::string>* r) override {
    return target_->GetChildren(dir, r);
  }
  Status RemoveFile(const std::string& f) override { return target_->RemoveFile(f); }
  Status CreateDirIfMissing(const std::string& d) override {
    return target_->CreateDirIfMissing(d);
  }
  Status RemoveDir(const std::string& d) override { return target_->RemoveDir(d); }
  Status GetFileSize(const std::string& f, uint64_t* s) override {
    return target_->GetFileSize(f, s);
  }
  Status RenameFile(const std::string& s, const std::string& t) override {
    return target_->RenameFile(s, t);
  }
  Status SyncDir(const std::string& d) override { return target_->SyncDir(d); }
  Status TruncateFile(const std::string& f, uint64_t size) override {
    return target_->TruncateFile(f, size);
  }
  Status LockFile(const std::string& f, std::unique_ptr<FileLock>* l) override {
    return target_->LockFile(f, l);
  }
  Status UnlockFile(std::unique_ptr<FileLock> l) override {
    return target_->UnlockFile(std::move(l));
  }
  Status NewLogger(const std::string& f, std::shared_ptr<Logger>* r) override {
    return target_->NewLogger(f, r);
  }
  uint64_t NowMicros() override { return target_->NowMicros(); }
  void SleepForMicroseconds(int micros) override { target_->SleepForMicroseconds(micros); }

 private:
  Env* target_;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_ENV_H_
