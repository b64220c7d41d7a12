// version/version_set.h — the current Version and the MANIFEST that makes it durable.
//
// LogAndApply(edit) builds the next version from the current one plus the edit, appends the
// edit to the MANIFEST, syncs it, and only then installs the new version: a version change is
// visible only once it would survive a crash. The first LogAndApply after Open starts a new
// MANIFEST (a full snapshot of the current version, then the edit) and points CURRENT at it;
// so does the first one after the MANIFEST grows past 64 MiB or after a MANIFEST write failed.
//
// Recovery reads CURRENT, then replays every edit of the MANIFEST it names. A torn record at
// the very end (a crash during an append that was never acknowledged) is ignored and reported;
// damage followed by more records, a MANIFEST with no complete record, or one that lacks the
// counters is Corruption naming the file.
//
// Thread safety: every method except NewFileNumber() and the const getters requires the DB
// mutex; NewFileNumber() may be called from any thread. This layer cannot name the DB mutex:
// DBImpl declares its VersionSet PT_GUARDED_BY(mutex_), so the analysis checks every use
// (the getters included) and DBImpl::NewFileNumber() is the one exempted call.

#ifndef SLUICE_VERSION_VERSION_SET_H_
#define SLUICE_VERSION_VERSION_SET_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "sluice/env.h"
#include "sluice/options.h"
#include "version/compaction_picker.h"
#include "version/file_metadata.h"
#include "version/version.h"
#include "version/version_edit.h"
#include "wal/log_writer.h"

namespace sluice {

// Writes MANIFEST-<number> holding one edit, synced, and points CURRENT at it. On failure the
// new MANIFEST is removed and CURRENT is unchanged.
Status WriteSingleEditManifest(Env* env, const std::string& dbname, uint64_t number,
                               const VersionEdit& edit);

class VersionSet {
 public:
  VersionSet(std::string dbname, const Options& options, std::shared_ptr<FileRegistry> registry);
  ~VersionSet();
  VersionSet(const VersionSet&) = delete;
  VersionSet& operator=(const VersionSet&) = delete;

  // Writes MANIFEST-000001 for an empty database and points CURRENT at it.
  Status CreateNew();

  // Rebuilds the current version from CURRENT and its MANIFEST. Problems that were tolerated
  // (a torn last record) are appended to *report, one line each.
  Status Recover(std::string* report);

  // See the file comment. Fills in next-file, log number and last sequence if the edit lacks
  // them. REQUIRES: the DB mutex.
  Status LogAndApply(VersionEdit* edit);

  std::shared_ptr<const Version> current() const { return current_; }

  uint64_t NewFileNumber() { return next_file_number_.fetch_add(1, std::memory_order_relaxed); }
  void MarkFileNumberUsed(uint64_t number);
  uint64_t ManifestFileNumber() const { return manifest_file_number_; }
  uint64_t LogNumber() const { return log_number_; }
  SequenceNumber LastSequence() const { return last_sequence_; }
  void SetLastSequence(SequenceNumber s) {
    if (s > last_sequence_) last_sequence_ = s;
  }

  const CompactionPicker& picker() const { return picker_; }
  std::unique_ptr<Compaction> PickCompaction() const {
    return picker_.Pick(current_, compact_pointers_);
  }
  bool NeedsCompaction() const { return picker_.MaxScore(*current_) >= 1.0; }

  // "files[ 3 1 0 0 0 0 0 ]".
  std::string LevelSummary() const;

 private:
  Status WriteSnapshot(log::Writer* writer);
  Status OpenNewManifest(uint64_t* number);

  const std::string dbname_;
  const Options options_;
  Env* const env_;
  const std::shared_ptr<FileRegistry> registry_;
  const CompactionPicker picker_;

  std::shared_ptr<const Version> current_;
  std::atomic<uint64_t> next_file_number_{2};
  uint64_t manifest_file_number_ = 0;
  uint64_t log_number_ = 0;
  SequenceNumber last_sequence_ = 0;
  std::vector<std::string> compact_pointers_;  // per level: encoded internal key or ""
  std::unique_ptr<log::Writer> manifest_;
};

}  // namespace sluice

#endif  // SLUICE_VERSION_VERSION_SET_H_
