// tests/support/fault_env.h — an Env that injects faults, for tests of error handling.
//
// Faults are armed per kind and file-name filter (a substring such as ".log", ".sst",
// "MANIFEST", "CURRENT" or "" for all files): failing appends (ENOSPC), failing syncs, failing
// renames, failing file creation, each either at once or after N successful operations. It
// also tracks, per file, how many bytes were synced, so a test can simulate a power loss by
// dropping every unsynced byte (DropUnsyncedData).
//
// Freeze() simulates a crash at one instant: from then on every operation that would change
// the disk fails, so the files hold exactly what had been handed to the OS before. (Files
// written through this Env are unbuffered for that reason: each Append reaches the OS at once.)
// Reopening with a healthy Env then recovers from a true crash state.

#ifndef SLUICE_TESTS_SUPPORT_FAULT_ENV_H_
#define SLUICE_TESTS_SUPPORT_FAULT_ENV_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "sluice/env.h"

namespace sluice::test {

class FaultEnv : public EnvWrapper {
 public:
  enum class Op { kAppend, kSync, kRename, kCreate };

  FaultEnv() : EnvWrapper(Env::Default()) {}

  // The next operations of kind `op` on files whose name contains `filter` fail, after
  // `after` more of them succeed.
  void Arm(Op op, const std::string& filter, int after = 0);
  void Disarm();
  void Freeze() { frozen_.store(true); }
  bool frozen() const { return frozen_.load(); }
  // How many operations failed because of Arm.
  int failures() const { return failures_.load(); }

  // Truncates every file written through this Env to the bytes that were synced.
  void DropUnsyncedData();

  Status NewWritableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override;
  Status NewAppendableFile(const std::string& f, std::unique_ptr<WritableFile>* r) override;
  Status RenameFile(const std::string& s, const std::string& t) override;
  Status RemoveFile(const std::string& f) override;
  Status TruncateFile(const std::string& f, uint64_t size) override;
  Status SyncDir(const std::string& d) override;

  // Called by the wrapped files.
  Status MaybeFail(Op op, const std::string& fname);
  void RecordSynced(const std::string& fname, uint64_t size);

 private:
  struct Rule {
    bool armed = false;
    std::string filter;
    int after = 0;
  };
  std::mutex mu_;
  std::map<Op, Rule> rules_;                // guarded by mu_
  std::map<std::string, uint64_t> synced_;  // guarded by mu_: file -> synced bytes
  std::atomic<int> failures_{0};
  std::atomic<bool> frozen_{false};
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_FAULT_ENV_H_
