// util/env_posix.cc — Env::Default(): the POSIX implementation of the OS seam.
//
// Every error names the file and carries strerror(errno). Writable files buffer up to 64 KiB in
// user space; Flush() hands the bytes to the kernel with write(2) (retrying short writes and
// EINTR); Sync() adds fdatasync(2); files created empty reserve disk blocks 1 MiB ahead. File locks
// use fcntl(F_SETLK) plus a process-local table, because fcntl locks do not exclude a second open
// from the same process. Mapped files (NewMappedRandomAccessFile) map the length the file had at
// open, read-only and shared, through a GuardedMapping (a page lost under it is Corruption, not
// SIGBUS), and unmap when destroyed; an empty file, which cannot be mapped, or one past the
// guarded mappings' limit, is read with pread instead. Env::SetBackgroundThreads sizes the
// process-wide pools (util/task_scheduler.h), whichever Env it is called on.

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <set>
#include <string>
#include <thread>

#include "sluice/env.h"
#include "util/guarded_mapping.h"
#include "util/mutex.h"
#include "util/task_scheduler.h"
#include "util/thread_annotations.h"

namespace sluice {

namespace {

Status PosixError(const std::string& context, int err) {
  if (err == ENOENT) return Status::NotFound(context, std::strerror(err));
  return Status::IOError(context, std::strerror(err));
}

class PosixSequentialFile final : public SequentialFile {
 public:
  PosixSequentialFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~PosixSequentialFile() override { ::close(fd_); }

  Status Read(size_t n, Slice* result, char* scratch) override {
    size_t done = 0;
    while (done < n) {
      const ssize_t r = ::read(fd_, scratch + done, n - done);
      if (r < 0) {
        if (errno == EINTR) continue;
        return PosixError(fname_, errno);
      }
      if (r == 0) break;
      done += static_cast<size_t>(r);
    }
    *result = Slice(scratch, done);
    return Status::OK();
  }

  Status Skip(uint64_t n) override {
    if (::lseek(fd_, static_cast<off_t>(n), SEEK_CUR) == static_cast<off_t>(-1)) {
      return PosixError(fname_, errno);
    }
    return Status::OK();
  }

 private:
  const std::string fname_;
  const int fd_;
};

// Reads n bytes at offset with pread(2), retrying short reads and EINTR; fewer at end of file.
Status PreadFully(int fd, const std::string& fname, uint64_t offset, size_t n, Slice* result,
                  char* scratch) {
  size_t done = 0;
  while (done < n) {
    const ssize_t r = ::pread(fd, scratch + done, n - done, static_cast<off_t>(offset + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      *result = Slice(scratch, 0);
      return PosixError(fname, errno);
    }
    if (r == 0) break;
    done += static_cast<size_t>(r);
  }
  *result = Slice(scratch, done);
  return Status::OK();
}

class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string fname, int fd) : fname_(std::move(fname)), fd_(fd) {}
  ~PosixRandomAccessFile() override { ::close(fd_); }

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return PreadFully(fd_, fname_, offset, n, result, scratch);
  }

 private:
  const std::string fname_;
  const int fd_;
};

// Reads copy out of a guarded mapping of the file's length at open (no system call), ReadWith
// lends its consumer a view of it for the call; ReadOnce uses pread on the file, which stays
// open, so bulk reads do not map pages into the process.
// Past the mapped length a read returns fewer bytes (none), as pread does at end of file.
class PosixMappedFile final : public RandomAccessFile {
 public:
  PosixMappedFile(std::string fname, int fd, std::unique_ptr<GuardedMapping> mapping)
      : fname_(std::move(fname)), fd_(fd), mapping_(std::move(mapping)) {}
  ~PosixMappedFile() override {
    mapping_.reset();
    ::close(fd_);
  }

  Status Read(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    const size_t length = mapping_->length();
    const size_t got = offset >= length ? 0 : std::min<uint64_t>(n, length - offset);
    *result = Slice(scratch, 0);
    if (got == 0) return Status::OK();
    Status s = mapping_->CopyOut(static_cast<size_t>(offset), got, scratch, fname_);
    if (s.ok()) *result = Slice(scratch, got);
    return s;
  }
  Status ReadOnce(uint64_t offset, size_t n, Slice* result, char* scratch) const override {
    return PreadFully(fd_, fname_, offset, n, result, scratch);
  }
  Status ReadWith(uint64_t offset, size_t n, char* /*scratch*/,
                  ReadConsumer* consumer) const override {
    const size_t length = mapping_->length();
    const size_t got = offset >= length ? 0 : std::min<uint64_t>(n, length - offset);
    if (got == 0) return consumer->Use(Slice());
    return mapping_->UseInPlace(static_cast<size_t>(offset), got, consumer, fname_);
  }

 private:
  const std::string fname_;
  const int fd_;
  std::unique_ptr<GuardedMapping> mapping_;
};

// Appends through a 64 KiB buffer. A file created empty (NewWritableFile) also reserves its
// disk space ahead of the writes, 1 MiB at a time (fallocate, FALLOC_FL_KEEP_SIZE: the size
// does not change), and gives back what it did not use at Close (ftruncate to its size), so a
// write(2) that grows the file (a WAL append) finds its blocks allocated rather than asking
// ext4 for them on the spot, as RocksDB's WAL does. Reservation is a hint: on a file system
// that refuses it the file is written as before. Invariant: the file's size is always the
// bytes written, never the reserved end.
class PosixWritableFile final : public WritableFile {
 public:
  static constexpr size_t kBufferSize = 64 << 10;
  static constexpr uint64_t kReserveChunk = 1 << 20;

  // reserve: the file was created empty here (its size is the bytes written through this).
  PosixWritableFile(std::string fname, int fd, bool reserve)
      : fname_(std::move(fname)), fd_(fd), reserve_(reserve) {
    buf_.reserve(kBufferSize);
  }
  ~PosixWritableFile() override {
    if (fd_ >= 0) Close();
  }

  Status Append(const Slice& data) override {
    if (buf_.size() + data.size() <= kBufferSize) {
      buf_.append(data.data(), data.size());
      return Status::OK();
    }
    Status s = FlushBuffer();
    if (!s.ok()) return s;
    if (data.size() <= kBufferSize) {
      buf_.append(data.data(), data.size());
      return Status::OK();
    }
    return WriteRaw(data.data(), data.size());
  }

  Status Flush() override { return FlushBuffer(); }

  Status Sync() override {
    Status s = FlushBuffer();
    if (!s.ok()) return s;
    if (::fdatasync(fd_) != 0) return PosixError(fname_, errno);
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return Status::OK();
    Status s = FlushBuffer();
    // Give back the reserved blocks past the end: truncating to the file's size frees them.
    // The size is asked of the file, not taken from written_, so that a file cut shorter
    // meanwhile (a test's simulated power loss) is never extended with zeros.
    if (s.ok() && reserved_ > 0) {
      struct stat st {};
      if (::fstat(fd_, &st) != 0 || ::ftruncate(fd_, st.st_size) != 0) {
        s = PosixError(fname_, errno);
      }
    }
    if (::close(fd_) != 0 && s.ok()) s = PosixError(fname_, errno);
    fd_ = -1;
    return s;
  }

 private:
  Status FlushBuffer() {
    if (buf_.empty()) return Status::OK();
    Status s = WriteRaw(buf_.data(), buf_.size());
    buf_.clear();
    return s;
  }

  Status WriteRaw(const char* p, size_t n) {
    if (fd_ < 0) return Status::IOError(fname_, "file is closed");
    if (reserve_ && written_ + n > reserved_) Reserve(written_ + n);
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        return PosixError(fname_, errno);
      }
      p += w;
      n -= static_cast<size_t>(w);
      written_ += static_cast<uint64_t>(w);
    }
    return Status::OK();
  }

  // Reserves disk blocks up to at least `end`, in whole chunks; stops trying on failure.
  void Reserve(uint64_t end) {
    const uint64_t target = (end + kReserveChunk - 1) / kReserveChunk * kReserveChunk;
    if (::fallocate(fd_, FALLOC_FL_KEEP_SIZE, static_cast<off_t>(reserved_),
                    static_cast<off_t>(target - reserved_)) == 0) {
      reserved_ = target;
    } else {
      reserve_ = false;  // not supported here (or no space: the write will say so)
    }
  }

  const std::string fname_;
  int fd_;
  std::string buf_;
  bool reserve_;
  uint64_t written_ = 0;   // bytes written to the file through this object
  uint64_t reserved_ = 0;  // bytes of disk space reserved from offset 0
};

class PosixFileLock final : public FileLock {
 public:
  PosixFileLock(int fd, std::string fname) : fd(fd), fname(std::move(fname)) {}
  const int fd;
  const std::string fname;
};

class PosixLogger final : public Logger {
 public:
  explicit PosixLogger(int fd) : fd_(fd) {}
  ~PosixLogger() override { ::close(fd_); }

  void Log(const Slice& message) override {
    using std::chrono::system_clock;
    const auto now = system_clock::now();
    const std::time_t secs = system_clock::to_time_t(now);
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
        1000000;
    std::tm tm;
    localtime_r(&secs, &tm);
    char prefix[64];
    const int n = std::snprintf(prefix, sizeof(prefix), "%04d/%02d/%02d-%02d:%02d:%02d.%06d ",
                                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                                tm.tm_sec, static_cast<int>(micros));
    std::string line(prefix, static_cast<size_t>(n));
    line.append(message.data(), message.size());
    if (line.empty() || line.back() != '\n') line.push_back('\n');
    // One write(2) per line: lines from concurrent threads do not interleave (O_APPEND).
    ssize_t ignored = ::write(fd_, line.data(), line.size());
    (void)ignored;
  }

 private:
  const int fd_;
};

class PosixEnv final : public Env {
 public:
  Status NewSequentialFile(const std::string& fname,
                           std::unique_ptr<SequentialFile>* result) override {
    const int fd = ::open(fname.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError(fname, errno);
    *result = std::make_unique<PosixSequentialFile>(fname, fd);
    return Status::OK();
  }

  Status NewRandomAccessFile(const std::string& fname,
                             std::unique_ptr<RandomAccessFile>* result) override {
    const int fd = ::open(fname.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError(fname, errno);
    *result = std::make_unique<PosixRandomAccessFile>(fname, fd);
    return Status::OK();
  }

  Status NewMappedRandomAccessFile(const std::string& fname,
                                   std::unique_ptr<RandomAccessFile>* result) override {
    const int fd = ::open(fname.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return PosixError(fname, errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return PosixError(fname, err);
    }
    const auto length = static_cast<size_t>(st.st_size);
    std::unique_ptr<GuardedMapping> mapping;
    if (length > 0 && static_cast<uint64_t>(st.st_size) == length) {
      Status s = GuardedMapping::Map(fd, length, fname, &mapping);
      if (!s.ok()) {
        ::close(fd);
        return s;
      }
    }
    if (mapping == nullptr) {  // empty, or every guarded slot taken: pread
      *result = std::make_unique<PosixRandomAccessFile>(fname, fd);
    } else {
      *result = std::make_unique<PosixMappedFile>(fname, fd, std::move(mapping));
    }
    return Status::OK();
  }

  Status NewWritableFile(const std::string& fname, std::unique_ptr<WritableFile>* result) override {
    const int fd = ::open(fname.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError(fname, errno);
    *result = std::make_unique<PosixWritableFile>(fname, fd, /*reserve=*/true);
    return Status::OK();
  }

  Status NewAppendableFile(const std::string& fname,
                           std::unique_ptr<WritableFile>* result) override {
    const int fd = ::open(fname.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError(fname, errno);
    *result = std::make_unique<PosixWritableFile>(fname, fd, /*reserve=*/false);
    return Status::OK();
  }

  bool FileExists(const std::string& fname) override { return ::access(fname.c_str(), F_OK) == 0; }

  Status GetChildren(const std::string& dir, std::vector<std::string>* result) override {
    result->clear();
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return PosixError(dir, errno);
    while (struct dirent* entry = ::readdir(d)) {
      if (std::strcmp(entry->d_name, ".") == 0 || std::strcmp(entry->d_name, "..") == 0) continue;
      result->emplace_back(entry->d_name);
    }
    ::closedir(d);
    return Status::OK();
  }

  Status RemoveFile(const std::string& fname) override {
    if (::unlink(fname.c_str()) != 0) return PosixError(fname, errno);
    return Status::OK();
  }

  Status CreateDirIfMissing(const std::string& dir) override {
    if (::mkdir(dir.c_str(), 0755) == 0) return Status::OK();
    const int err = errno;
    struct stat st;
    if (err == EEXIST && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      return Status::OK();
    }
    if (err == EEXIST) return Status::IOError(dir, "exists and is not a directory");
    return PosixError(dir, err);
  }

  Status RemoveDir(const std::string& dir) override {
    if (::rmdir(dir.c_str()) != 0) return PosixError(dir, errno);
    return Status::OK();
  }

  Status GetFileSize(const std::string& fname, uint64_t* size) override {
    struct stat st;
    if (::stat(fname.c_str(), &st) != 0) {
      *size = 0;
      return PosixError(fname, errno);
    }
    *size = static_cast<uint64_t>(st.st_size);
    return Status::OK();
  }

  Status RenameFile(const std::string& src, const std::string& target) override {
    if (::rename(src.c_str(), target.c_str()) != 0) return PosixError(src, errno);
    return Status::OK();
  }

  Status SyncDir(const std::string& dir) override {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return PosixError(dir, errno);
    Status s;
    if (::fsync(fd) != 0) s = PosixError(dir, errno);
    ::close(fd);
    return s;
  }

  Status TruncateFile(const std::string& fname, uint64_t size) override {
    if (::truncate(fname.c_str(), static_cast<off_t>(size)) != 0) return PosixError(fname, errno);
    return Status::OK();
  }

  Status LockFile(const std::string& fname, std::unique_ptr<FileLock>* lock) override {
    {
      MutexLock l(&locks_mu_);
      if (!locked_.insert(fname).second) {
        return Status::Busy(fname, "lock already held by this process (is the DB open?)");
      }
    }
    const int fd = ::open(fname.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
      const int err = errno;
      Unregister(fname);
      return PosixError(fname, err);
    }
    struct flock f;
    std::memset(&f, 0, sizeof(f));
    f.l_type = F_WRLCK;
    f.l_whence = SEEK_SET;
    if (::fcntl(fd, F_SETLK, &f) != 0) {
      const int err = errno;
      ::close(fd);
      Unregister(fname);
      if (err == EACCES || err == EAGAIN) {
        return Status::Busy(fname, "lock held by another process (is the DB open elsewhere?)");
      }
      return PosixError(fname, err);
    }
    *lock = std::make_unique<PosixFileLock>(fd, fname);
    return Status::OK();
  }

  Status UnlockFile(std::unique_ptr<FileLock> lock) override {
    auto* l = static_cast<PosixFileLock*>(lock.get());
    struct flock f;
    std::memset(&f, 0, sizeof(f));
    f.l_type = F_UNLCK;
    f.l_whence = SEEK_SET;
    Status s;
    if (::fcntl(l->fd, F_SETLK, &f) != 0) s = PosixError(l->fname, errno);
    ::close(l->fd);
    Unregister(l->fname);
    return s;
  }

  Status NewLogger(const std::string& fname, std::shared_ptr<Logger>* result) override {
    const int fd = ::open(fname.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return PosixError(fname, errno);
    *result = std::make_shared<PosixLogger>(fd);
    return Status::OK();
  }

  uint64_t NowMicros() override {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
  }

  void SleepForMicroseconds(int micros) override {
    std::this_thread::sleep_for(std::chrono::microseconds(micros));
  }

 private:
  void Unregister(const std::string& fname) {
    MutexLock l(&locks_mu_);
    locked_.erase(fname);
  }

  Mutex locks_mu_;
  std::set<std::string> locked_ GUARDED_BY(locks_mu_);
};

}  // namespace

Env* Env::Default() {
  static Env* env = new PosixEnv;  // never destroyed: used until the very end of the process
  return env;
}

namespace {
TaskScheduler::Pool PoolOf(Env::Priority pri) {
  switch (pri) {
    case Env::Priority::kHigh: return TaskScheduler::Pool::kHigh;
    case Env::Priority::kDrain: return TaskScheduler::Pool::kDrain;
    case Env::Priority::kLow: break;
  }
  return TaskScheduler::Pool::kLow;
}
}  // namespace

void Env::SetBackgroundThreads(int number, Priority pri) {
  TaskScheduler::Default().SetThreads(PoolOf(pri), number);
}

int Env::GetBackgroundThreads(Priority pri) {
  return TaskScheduler::Default().Threads(PoolOf(pri));
}

}  // namespace sluice
