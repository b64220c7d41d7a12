// version/version_set.cc — see version_set.h.

#include "version/version_set.h"

#include <fmt/format.h>

#include "base/filename.h"
#include "version/version_builder.h"
#include "wal/log_reader.h"

namespace sluice {

namespace {

constexpr uint64_t kMaxManifestSize = 64ull << 20;

// Collects the problems of a MANIFEST read, in file order, relative to the records read.
class ManifestProblems : public log::Reader::Reporter {
 public:
  void Report(log::Problem problem, uint64_t offset, size_t bytes, const Status& s) override {
    // A failed read is no damage: the rest of the MANIFEST is unknown.
    if (problem == log::Problem::kReadError) {
      if (read_error.ok()) read_error = Status::IOError(s.message());
      return;
    }
    pending.push_back(s.ToString());
    if (first_pending_offset == UINT64_MAX) first_pending_offset = offset;
  }
  // A valid record came after the pending problems: they are damage in the middle.
  void RecordSeen() {
    if (!pending.empty() && middle.empty()) middle = pending.front();
    pending.clear();
    first_pending_offset = UINT64_MAX;
  }
  std::vector<std::string> pending;
  std::string middle;
  Status read_error;
  uint64_t first_pending_offset = UINT64_MAX;
};

}  // namespace

VersionSet::VersionSet(std::string dbname, const Options& options,
                       std::shared_ptr<FileRegistry> registry)
    : dbname_(std::move(dbname)),
      options_(options),
      env_(options.env),
      registry_(std::move(registry)),
      picker_(options),
      current_(std::make_shared<Version>(options.num_levels)),
      compact_pointers_(static_cast<size_t>(options.num_levels)) {}

VersionSet::~VersionSet() = default;

void VersionSet::MarkFileNumberUsed(uint64_t number) {
  uint64_t cur = next_file_number_.load(std::memory_order_relaxed);
  while (cur <= number &&
         !next_file_number_.compare_exchange_weak(cur, number + 1, std::memory_order_relaxed)) {
  }
}

Status WriteSingleEditManifest(Env* env, const std::string& dbname, uint64_t number,
                               const VersionEdit& edit) {
  const std::string manifest = ManifestFileName(dbname, number);
  std::unique_ptr<WritableFile> file;
  Status s = env->NewWritableFile(manifest, &file);
  if (!s.ok()) return s;
  {
    log::Writer writer(std::move(file), manifest);
    std::string record;
    edit.EncodeTo(&record);
    s = writer.AddRecord(record, /*sync=*/true);
    if (s.ok()) s = writer.Close();
  }
  if (!s.ok()) {
    env->RemoveFile(manifest);
    return s;
  }
  // If this fails after its rename (the directory sync), CURRENT names the MANIFEST: keep it.
  return SetCurrentFile(env, dbname, number);
}

Status VersionSet::CreateNew() {
  VersionEdit edit;
  edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(2);
  edit.SetLastSequence(0);
  return WriteSingleEditManifest(env_, dbname_, 1, edit);
}

Status VersionSet::Recover(std::string* report) {
  std::string manifest;
  uint64_t number = 0;
  Status s = ReadCurrentFile(env_, dbname_, &manifest, &number);
  if (!s.ok()) return s;

  std::unique_ptr<SequentialFile> file;
  s = env_->NewSequentialFile(manifest, &file);
  if (!s.ok()) {
    if (s.IsNotFound()) {
      return Status::Corruption("CURRENT names a MANIFEST that does not exist", manifest);
    }
    return s;
  }

  ManifestProblems problems;
  log::Reader reader(std::move(file), manifest, &problems);
  VersionBuilder builder(*current_, registry_.get());
  bool have_log = false, have_next = false, have_last = false;
  uint64_t log_number = 0, next_file = 0;
  SequenceNumber last_sequence = 0;
  size_t records = 0;
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch)) {
    problems.RecordSeen();
    records++;
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (s.ok() && edit.has_comparator_ &&
        edit.comparator_ != DefaultInternalKeyComparator()->user_comparator()->Name()) {
      s = Status::InvalidArgument(manifest,
                                  "database was created with comparator " + edit.comparator_);
    }
    if (s.ok()) s = builder.Apply(edit);
    if (!s.ok()) {
      if (s.IsCorruption()) {
        return Status::Corruption(
            fmt::format("{} (record at offset {})", s.message(), reader.LastRecordOffset()),
            manifest);
      }
      return s;
    }
    if (edit.has_log_number_) {
      log_number = edit.log_number_;
      have_log = true;
    }
    if (edit.has_next_file_number_) {
      next_file = edit.next_file_number_;
      have_next = true;
    }
    if (edit.has_last_sequence_) {
      last_sequence = edit.last_sequence_;
      have_last = true;
    }
    for (const auto& [level, key] : edit.compact_pointers_) {
      if (level < options_.num_levels) {
        compact_pointers_[static_cast<size_t>(level)] = key.Encode().ToString();
      }
    }
  }
  if (!problems.read_error.ok()) return problems.read_error;
  if (!problems.middle.empty()) {
    return Status::Corruption("damaged record in the middle of the MANIFEST: " + problems.middle);
  }
  if (records == 0) {
    return Status::Corruption("MANIFEST holds no complete record (empty or truncated)", manifest);
  }
  if (!have_log || !have_next || !have_last) {
    return Status::Corruption("MANIFEST lacks the log number, next file number or last sequence",
                              manifest);
  }
  for (const std::string& p : problems.pending) {
    *report += "ignored torn record at the end of the MANIFEST: " + p + "\n";
  }

  std::shared_ptr<Version> v;
  s = builder.Build(&v);
  if (!s.ok()) return Status::Corruption(s.message(), manifest);
  current_ = std::move(v);
  manifest_file_number_ = number;
  log_number_ = log_number;
  last_sequence_ = last_sequence;
  next_file_number_.store(next_file, std::memory_order_relaxed);
  MarkFileNumberUsed(number);
  MarkFileNumberUsed(log_number);
  return Status::OK();
}

Status VersionSet::WriteSnapshot(log::Writer* writer) {
  VersionEdit edit;
  edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
  for (int level = 0; level < options_.num_levels; level++) {
    const std::string& pointer = compact_pointers_[static_cast<size_t>(level)];
    if (!pointer.empty()) {
      InternalKey key;
      key.DecodeFrom(pointer);
      edit.SetCompactPointer(level, key);
    }
    for (const auto& f : current_->files(level)) edit.AddFile(level, *f);
  }
  std::string record;
  edit.EncodeTo(&record);
  return writer->AddRecord(record, /*sync=*/false);
}

Status VersionSet::OpenNewManifest(uint64_t* number) {
  *number = NewFileNumber();
  const std::string fname = ManifestFileName(dbname_, *number);
  std::unique_ptr<WritableFile> file;
  Status s = env_->NewWritableFile(fname, &file);
  if (!s.ok()) return s;
  manifest_ = std::make_unique<log::Writer>(std::move(file), fname);
  return WriteSnapshot(manifest_.get());
}

Status VersionSet::LogAndApply(VersionEdit* edit) {
  if (!edit->has_log_number_) edit->SetLogNumber(log_number_);
  if (edit->log_number_ < log_number_) {
    return Status::InvalidArgument("version edit would move the log number backwards");
  }
  edit->SetLastSequence(last_sequence_);

  VersionBuilder builder(*current_, registry_.get());
  Status s = builder.Apply(*edit);
  std::shared_ptr<Version> v;
  if (s.ok()) s = builder.Build(&v);
  if (!s.ok()) return s;

  uint64_t new_manifest = 0;
  if (manifest_ == nullptr) {
    s = OpenNewManifest(&new_manifest);
  }
  // Set after OpenNewManifest, which may take a file number itself.
  edit->SetNextFile(next_file_number_.load(std::memory_order_relaxed));
  if (s.ok()) {
    std::string record;
    edit->EncodeTo(&record);
    s = manifest_->AddRecord(record, /*sync=*/true);
  }
  bool current_written = false;
  if (s.ok() && new_manifest != 0) {
    current_written = true;
    s = SetCurrentFile(env_, dbname_, new_manifest);
  }
  if (!s.ok()) {
    // The MANIFEST may end in a torn record now; start a fresh one next time.
    manifest_.reset();
    // Once SetCurrentFile ran, CURRENT may name the new MANIFEST although it failed (the rename
    // succeeded, the directory sync did not): keep the file. If unused, it is deleted with the
    // next MANIFEST (DeleteObsoleteFiles) or at the next open.
    if (new_manifest != 0 && !current_written) {
      env_->RemoveFile(ManifestFileName(dbname_, new_manifest));
    }
    return s;
  }
  if (new_manifest != 0) manifest_file_number_ = new_manifest;
  current_ = std::move(v);
  log_number_ = edit->log_number_;
  for (const auto& [level, key] : edit->compact_pointers_) {
    compact_pointers_[static_cast<size_t>(level)] = key.Encode().ToString();
  }
  if (manifest_->ReservedSize() > kMaxManifestSize) manifest_.reset();
  return Status::OK();
}

std::string VersionSet::LevelSummary() const {
  std::string r = "files[";
  for (int level = 0; level < current_->num_levels(); level++) {
    r += fmt::format(" {}", current_->NumFiles(level));
  }
  return r + " ]";
}

}  // namespace sluice
