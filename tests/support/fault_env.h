// tests/support/fault_env.h — an Env that injects faults, for tests of error handling.
//
// Faults are armed per kind and file-name filter (a substring such as ".log", ".sst",
// "MANIFEST", "CURRENT" or "" for all files): failing appends (ENOSPC), syncs, renames, file
// creation, reads (RandomAccessFile and SequentialFile Read), opening a file for reading,
// removals and directory syncs, each either at once or after N successful operations, for
// every later operation or only for the next few. Every injected fault is counted per kind
// (InjectedFaults), so a test can state how many faults it injected. It also tracks, per
// file, how many bytes were synced, so a test can simulate a power loss by dropping every
// unsynced byte (DropUnsyncedData), and it damages files on disk (TruncateTo, FlipBit).
//
// Freeze() simulates a crash at one instant: from then on every operation that would change
// the disk fails, so the files hold exactly what had been handed to the OS before. (Files
// written through this Env are unbuffered for that reason: each Append reaches the OS at once.)
// Reopening with a healthy Env then recovers from a true crash state.

#ifndef SLUICE_TESTS_SUPPORT_FAULT_ENV_H_
#define SLUICE_TESTS_SUPPORT_FAULT_ENV_H_

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "sluice/env.h"

namespace sluice::test {

class FaultEnv : public EnvWrapper {
 public:
  enum class Op {
    kAppend,    // WritableFile::Append: "No space left on device"
    kSync,      // WritableFile::Sync: an fsync error
    kRename,    // Env::RenameFile (filtered on the source name)
    kCreate,    // Env::NewWritableFile / NewAppendableFile: "No space left on device"
    kRead,      // RandomAccessFile::Read and SequentialFile::Read: an EIO
    kOpenRead,  // Env::NewRandomAccessFile / NewSequentialFile
    kRemove,    // Env::RemoveFile
    kSyncDir,   // Env::SyncDir (filtered on the directory name)
  };
  static constexpr int kNumOps = 8;
  static constexpr int kForever = -1;
  static const char* OpName(Op op);

  FaultEnv() : EnvWrapper(Env::Default()) {}

  // The operations of kind `op` on files whose name contains `filter` fail after `after` more
  // of them succeed: the next `times` of them, or all (kForever). One rule per kind; arming a
  // kind again replaces its rule.
  void Arm(Op op, const std::string& filter, int after = 0, int times = kForever);
  void Disarm();
  // With true, a failing Append first writes the first half of its data (a torn write, as a
  // real ENOSPC may leave behind).
  void SetTornAppends(bool torn) { torn_appends_.store(torn); }
  void Freeze() {
    if (!frozen_.exchange(true)) crashes_.fetch_add(1);
  }
  bool frozen() const { return frozen_.load(); }
  // How many operations failed because of Arm: in all, or of one kind.
  int failures() const;
  int failures(Op op) const { return failures_[static_cast<size_t>(op)].load(); }
  // Every fault injected so far: armed failures, simulated crashes (Freeze) and on-disk damage
  // (TruncateTo, FlipBit).
  int InjectedFaults() const { return failures() + crashes_.load() + damage_.load(); }
  // "append=2 sync=1 crash=1 damage=3": the non-zero counts, for test logs.
  std::string FaultSummary() const;

  // Truncates every file written through this Env to the bytes that were synced.
  void DropUnsyncedData();
  // On-disk damage (counted as injected faults): cut fname to size bytes; flip bit `bit`
  // (0-7) of the byte at offset.
  void TruncateTo(const std::string& fname, uint64_t size);
  void FlipBit(const std::string& fname, uint64_t offset, int bit = 0);

  Status NewSequentialFile(const std::string& f, std::unique_ptr<SequentialFile>* r) override;
  Status NewRandomAccessFile(const std::string& f, std::unique_ptr<RandomAccessFile>* r) override;
  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override;
  Status NewAppendableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override;
  Status RenameFile(const std::string& s, const std::string& t) override;
  Status RemoveFile(const std::string& f) override;
  Status TruncateFile(const std::string& f, uint64_t size) override;
  Status SyncDir(const std::string& d) override;

  // Called by the wrapped files.
  Status MaybeFail(Op op, const std::string& fname);
  void RecordSynced(const std::string& fname, uint64_t size);
  bool torn_appends() const { return torn_appends_.load(); }

 private:
  struct Rule {
    bool armed = false;
    std::string filter;
    int after = 0;
    int times = kForever;
  };
  mutable std::mutex mu_;
  std::map<Op, Rule> rules_;                // guarded by mu_
  std::map<std::string, uint64_t> synced_;  // guarded by mu_: file -> synced bytes
  std::atomic<bool> any_armed_{false};      // fast path for reads: no rule, no lock
  std::array<std::atomic<int>, kNumOps> failures_{};
  std::atomic<int> crashes_{0};
  std::atomic<int> damage_{0};
  std::atomic<bool> torn_appends_{false};
  std::atomic<bool> frozen_{false};
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_FAULT_ENV_H_
