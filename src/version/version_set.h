// version/version_set.h — the current Version of every column family and the MANIFEST that
// makes them durable.
//
// Column families: each has an id (0 is the default family, which every database has; ids are
// never reused), a name, its options, its current Version, its compaction pointers and its log
// number (WAL files below it hold nothing of the family's that its SST files lack). The WAL
// files below LogNumber(), the smallest log number of any family, are obsolete. File numbers,
// the last sequence number and the MANIFEST are shared.
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
#include <functional>
#include <map>
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

// Reads the names of the column families of the database at dbname (from its MANIFEST), the
// default one first.
Status ListColumnFamiliesInManifest(Env* env, const std::string& dbname,
                                    std::vector<std::string>* names);

// One column family's part of the version set.
struct FamilyVersions {
  FamilyVersions(uint32_t i, std::string n, const Options& o)
      : id(i),
        name(std::move(n)),
        options(o),
        picker(o),
        current(std::make_shared<Version>(o.num_levels)),
        compact_pointers(static_cast<size_t>(o.num_levels)) {}

  const uint32_t id;
  const std::string name;
  const Options options;  // the database's options with the family's own
  const CompactionPicker picker;
  std::shared_ptr<const Version> current;
  std::vector<std::string> compact_pointers;  // per level: encoded internal key or ""
  uint64_t log_number = 0;

  std::unique_ptr<Compaction> PickCompaction() const {
    return picker.Pick(current, compact_pointers);
  }
  bool NeedsCompaction() const { return picker.MaxScore(*current) >= 1.0; }
  // "files[ 3 1 0 0 0 0 0 ]".
  std::string LevelSummary() const;
};

class VersionSet {
 public:
  // options: the database's, with the default family's own.
  VersionSet(std::string dbname, const Options& options, std::shared_ptr<FileRegistry> registry);
  ~VersionSet();
  VersionSet(const VersionSet&) = delete;
  VersionSet& operator=(const VersionSet&) = delete;

  // Writes MANIFEST-000001 for an empty database and points CURRENT at it.
  Status CreateNew();

  // The options of a column family the MANIFEST names (nullptr: the caller did not name it).
  using FamilyOptionsLookup = std::function<const Options*(const std::string& name)>;

  // Rebuilds every family's current version from CURRENT and its MANIFEST, each family with the
  // options `lookup` gives for its name (the default family: the constructor's unless lookup
  // names it). A family lookup does not know is InvalidArgument naming every such family
  // (nothing is opened). Problems that were tolerated (a torn last record) are appended to
  // *report, one line each.
  Status Recover(const FamilyOptionsLookup& lookup, std::string* report);
  Status Recover(std::string* report) {
    return Recover([](const std::string&) { return nullptr; }, report);
  }

  // See the file comment. Applies to the edit's column family; fills in next-file, log number
  // and last sequence if the edit lacks them. An edit adding a family must come through
  // CreateColumnFamily, one dropping it through DropColumnFamily. REQUIRES: the DB mutex.
  Status LogAndApply(VersionEdit* edit);
  // The same for edits of distinct families, as one MANIFEST write (one sync, after the last).
  Status LogAndApply(const std::vector<VersionEdit*>& edits);

  // Creates column family `name` with `options` (the database's options with the family's own)
  // whose log number is log_number (it holds nothing in older WAL files); *result: it.
  // InvalidArgument if a live family has that name. REQUIRES: the DB mutex.
  Status CreateColumnFamily(const std::string& name, const Options& options, uint64_t log_number,
                            FamilyVersions** result);
  // Drops the family: its Version is released (its files become obsolete once no reader holds
  // them). The default family cannot be dropped. REQUIRES: the DB mutex.
  Status DropColumnFamily(uint32_t id);

  // The live family with this id, or nullptr.
  FamilyVersions* family(uint32_t id) const;
  FamilyVersions* default_family() const { return family(0); }
  // Every live family, by id.
  const std::map<uint32_t, std::unique_ptr<FamilyVersions>>& families() const { return families_; }
  uint32_t max_column_family() const { return max_column_family_; }

  // The default family's (the only one of a database without column families).
  std::shared_ptr<const Version> current() const { return default_family()->current; }

  uint64_t NewFileNumber() { return next_file_number_.fetch_add(1, std::memory_order_relaxed); }
  void MarkFileNumberUsed(uint64_t number);
  uint64_t ManifestFileNumber() const { return manifest_file_number_; }
  // WAL files below this hold nothing any family needs: the smallest family log number.
  uint64_t LogNumber() const;
  SequenceNumber LastSequence() const { return last_sequence_; }
  void SetLastSequence(SequenceNumber s) {
    if (s > last_sequence_) last_sequence_ = s;
  }

  // The default family's.
  const CompactionPicker& picker() const { return default_family()->picker; }
  std::unique_ptr<Compaction> PickCompaction() const { return default_family()->PickCompaction(); }
  bool NeedsCompaction() const { return default_family()->NeedsCompaction(); }
  std::string LevelSummary() const { return default_family()->LevelSummary(); }

 private:
  Status WriteSnapshot(log::Writer* writer);
  Status OpenNewManifest(uint64_t* number);
  // Appends the edit to the MANIFEST (starting a new one if needed); on success the caller
  // installs what it changes.
  Status WriteEdit(VersionEdit* edit, bool sync);

  const std::string dbname_;
  const Options options_;
  Env* const env_;
  const std::shared_ptr<FileRegistry> registry_;

  std::map<uint32_t, std::unique_ptr<FamilyVersions>> families_;
  uint32_t max_column_family_ = 0;
  std::atomic<uint64_t> next_file_number_{2};
  uint64_t manifest_file_number_ = 0;
  SequenceNumber last_sequence_ = 0;
  std::unique_ptr<log::Writer> manifest_;
};

}  // namespace sluice

#endif  // SLUICE_VERSION_VERSION_SET_H_
