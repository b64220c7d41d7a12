// version/version_set.cc — see version_set.h.

#include "version/version_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "base/filename.h"
#include "sluice/db.h"
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
      registry_(std::move(registry)) {
  families_[0] = std::make_unique<FamilyVersions>(0, kDefaultColumnFamilyName, options_);
}

VersionSet::~VersionSet() = default;

FamilyVersions* VersionSet::family(uint32_t id) const {
  auto it = families_.find(id);
  return it == families_.end() ? nullptr : it->second.get();
}

uint64_t VersionSet::LogNumber() const {
  uint64_t n = UINT64_MAX;
  for (const auto& [id, f] : families_) n = std::min(n, f->log_number);
  return n;
}

std::string FamilyVersions::LevelSummary() const {
  std::string r = "files[";
  for (int level = 0; level < current->num_levels(); level++) {
    r += fmt::format(" {}", current->NumFiles(level));
  }
  return r + " ]";
}

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
  VersionEdit edit;  // the default family's
  edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(2);
  edit.SetLastSequence(0);
  return WriteSingleEditManifest(env_, dbname_, 1, edit);
}

namespace {

// Reads the MANIFEST CURRENT names, handing every edit to `apply` in order. See the file
// comment of version_set.h for what is damage and what is tolerated (added to *report).
Status ReadManifest(Env* env, const std::string& dbname,
                    const std::function<Status(const VersionEdit&)>& apply, std::string* manifest,
                    uint64_t* number, std::string* report) {
  Status s = ReadCurrentFile(env, dbname, manifest, number);
  if (!s.ok()) return s;
  std::unique_ptr<SequentialFile> file;
  s = env->NewSequentialFile(*manifest, &file);
  if (!s.ok()) {
    if (s.IsNotFound()) {
      return Status::Corruption("CURRENT names a MANIFEST that does not exist", *manifest);
    }
    return s;
  }
  ManifestProblems problems;
  log::Reader reader(std::move(file), *manifest, &problems);
  size_t records = 0;
  Slice record;
  std::string scratch;
  while (reader.ReadRecord(&record, &scratch)) {
    problems.RecordSeen();
    records++;
    VersionEdit edit;
    s = edit.DecodeFrom(record);
    if (s.ok() && edit.has_comparator() &&
        edit.comparator_name() != DefaultInternalKeyComparator()->user_comparator()->Name()) {
      s = Status::InvalidArgument(*manifest,
                                  "database was created with comparator " + edit.comparator_name());
    }
    if (s.ok()) s = apply(edit);
    if (!s.ok()) {
      if (s.IsCorruption()) {
        return Status::Corruption(
            fmt::format("{} (record at offset {})", s.message(), reader.LastRecordOffset()),
            *manifest);
      }
      return s;
    }
  }
  if (!problems.read_error.ok()) return problems.read_error;
  if (!problems.middle.empty()) {
    return Status::Corruption("damaged record in the middle of the MANIFEST: " + problems.middle);
  }
  if (records == 0) {
    return Status::Corruption("MANIFEST holds no complete record (empty or truncated)", *manifest);
  }
  for (const std::string& p : problems.pending) {
    *report += "ignored torn record at the end of the MANIFEST: " + p + "\n";
  }
  return Status::OK();
}

// Tracks which families exist while a MANIFEST is replayed: the default one from the start,
// others from their add record to their drop record.
Status TrackFamilies(const VersionEdit& edit, std::map<uint32_t, std::string>* names) {
  const uint32_t id = edit.column_family();
  if (edit.is_column_family_add()) {
    if (id == 0 || names->count(id) > 0) return Status::Corruption("column family id reused");
    for (const auto& [other, name] : *names) {
      if (name == edit.column_family_name()) {
        return Status::Corruption("two column families named " + name);
      }
    }
    (*names)[id] = edit.column_family_name();
    return Status::OK();
  }
  if (names->count(id) == 0) {
    return Status::Corruption(fmt::format("edit of unknown column family {}", id));
  }
  if (edit.is_column_family_drop()) {
    if (id == 0) return Status::Corruption("the default column family is dropped");
    names->erase(id);
  }
  return Status::OK();
}

}  // namespace

Status ListColumnFamiliesInManifest(Env* env, const std::string& dbname,
                                    std::vector<std::string>* names) {
  names->clear();
  std::map<uint32_t, std::string> families{{0, kDefaultColumnFamilyName}};
  std::string manifest, report;
  uint64_t number = 0;
  Status s = ReadManifest(
      env, dbname, [&](const VersionEdit& edit) { return TrackFamilies(edit, &families); },
      &manifest, &number, &report);
  if (!s.ok()) return s;
  for (const auto& [id, name] : families) names->push_back(name);
  return Status::OK();
}

Status VersionSet::Recover(const FamilyOptionsLookup& lookup, std::string* report) {
  // A family being rebuilt: its options (a stand-in if the caller did not name it: it is then
  // reported, never opened), its edits applied to an empty version.
  struct Rebuild {
    Rebuild(std::string n, const Options* named, const Options& stand_in, FileRegistry* registry)
        : name(std::move(n)),
          options(named != nullptr ? *named : stand_in),
          known(named != nullptr),
          base(std::make_shared<Version>(options.num_levels)),
          builder(*base, registry),
          compact_pointers(static_cast<size_t>(options.num_levels)) {}
    std::string name;
    Options options;
    bool known;
    std::shared_ptr<Version> base;
    VersionBuilder builder;
    std::vector<std::string> compact_pointers;
    uint64_t log_number = 0;
    bool have_log = false;
  };
  Options stand_in = options_;
  stand_in.num_levels = 64;  // any level a MANIFEST can hold
  std::map<uint32_t, std::unique_ptr<Rebuild>> rebuilds;
  auto add = [&](uint32_t id, const std::string& name) {
    const Options* named = lookup(name);
    if (named == nullptr && id == 0) named = &options_;
    rebuilds[id] = std::make_unique<Rebuild>(name, named, stand_in, registry_.get());
  };
  add(0, kDefaultColumnFamilyName);
  std::map<uint32_t, std::string> names{{0, kDefaultColumnFamilyName}};
  bool have_next = false, have_last = false;
  uint64_t next_file = 0;
  SequenceNumber last_sequence = 0;
  uint32_t max_column_family = 0;
  auto apply = [&](const VersionEdit& edit) -> Status {
    Status s = TrackFamilies(edit, &names);
    if (!s.ok()) return s;
    const uint32_t id = edit.column_family();
    if (edit.is_column_family_add()) add(id, edit.column_family_name());
    if (edit.is_column_family_drop()) {
      rebuilds.erase(id);
      return Status::OK();
    }
    max_column_family = std::max(max_column_family, id);
    if (edit.has_max_column_family_) {
      max_column_family = std::max(max_column_family, edit.max_column_family_);
    }
    Rebuild& r = *rebuilds.at(id);
    s = r.builder.Apply(edit);
    if (!s.ok()) return s;
    if (edit.has_log_number_) {
      r.log_number = edit.log_number_;
      r.have_log = true;
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
      if (level < r.options.num_levels) {
        r.compact_pointers[static_cast<size_t>(level)] = key.Encode().ToString();
      }
    }
    return Status::OK();
  };
  std::string manifest;
  uint64_t number = 0;
  Status s = ReadManifest(env_, dbname_, apply, &manifest, &number, report);
  if (!s.ok()) return s;
  if (!rebuilds.at(0)->have_log || !have_next || !have_last) {
    return Status::Corruption("MANIFEST lacks the log number, next file number or last sequence",
                              manifest);
  }
  std::string missing;
  for (const auto& [id, r] : rebuilds) {
    if (!r->known) missing += (missing.empty() ? "" : ", ") + r->name;
  }
  if (!missing.empty()) {
    return Status::InvalidArgument(
        manifest,
        "the database has column families that were not named when opening it: " + missing);
  }

  std::map<uint32_t, std::unique_ptr<FamilyVersions>> families;
  for (auto& [id, r] : rebuilds) {
    std::shared_ptr<Version> v;
    s = r->builder.Build(&v);
    if (!s.ok()) return Status::Corruption(s.message(), manifest);
    auto f = std::make_unique<FamilyVersions>(id, r->name, r->options);
    f->current = std::move(v);
    f->compact_pointers = std::move(r->compact_pointers);
    f->log_number = r->log_number;
    families[id] = std::move(f);
  }
  families_ = std::move(families);
  max_column_family_ = max_column_family;
  manifest_file_number_ = number;
  last_sequence_ = last_sequence;
  next_file_number_.store(next_file, std::memory_order_relaxed);
  MarkFileNumberUsed(number);
  for (const auto& [id, f] : families_) MarkFileNumberUsed(f->log_number);
  return Status::OK();
}

Status VersionSet::WriteSnapshot(log::Writer* writer) {
  // One record per family: the default one's first, with the comparator.
  for (const auto& [id, f] : families_) {
    VersionEdit edit;
    if (id == 0) {
      edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
      edit.SetMaxColumnFamily(max_column_family_);
    } else {
      edit.SetColumnFamily(id);
      edit.AddColumnFamily(f->name);
    }
    edit.SetLogNumber(f->log_number);
    for (int level = 0; level < f->options.num_levels; level++) {
      const std::string& pointer = f->compact_pointers[static_cast<size_t>(level)];
      if (!pointer.empty()) {
        InternalKey key;
        key.DecodeFrom(pointer);
        edit.SetCompactPointer(level, key);
      }
      for (const auto& file : f->current->files(level)) edit.AddFile(level, *file);
    }
    std::string record;
    edit.EncodeTo(&record);
    Status s = writer->AddRecord(record, /*sync=*/false);
    if (!s.ok()) return s;
  }
  return Status::OK();
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

Status VersionSet::WriteEdit(VersionEdit* edit, bool sync) {
  edit->SetLastSequence(last_sequence_);
  Status s;
  uint64_t new_manifest = 0;
  if (manifest_ == nullptr) {
    s = OpenNewManifest(&new_manifest);
  }
  // Set after OpenNewManifest, which may take a file number itself.
  edit->SetNextFile(next_file_number_.load(std::memory_order_relaxed));
  if (s.ok()) {
    std::string record;
    edit->EncodeTo(&record);
    s = manifest_->AddRecord(record, sync);
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
  if (manifest_->ReservedSize() > kMaxManifestSize) manifest_.reset();
  return Status::OK();
}

Status VersionSet::LogAndApply(VersionEdit* edit) {
  std::vector<VersionEdit*> edits{edit};
  return LogAndApply(edits);
}

Status VersionSet::LogAndApply(const std::vector<VersionEdit*>& edits) {
  std::vector<FamilyVersions*> families;
  std::vector<std::shared_ptr<Version>> versions;
  for (VersionEdit* edit : edits) {
    assert(!edit->is_column_family_add() && !edit->is_column_family_drop());
    FamilyVersions* f = family(edit->column_family());
    if (f == nullptr) {
      return Status::InvalidArgument(
          fmt::format("version edit of unknown column family {}", edit->column_family()));
    }
    if (std::find(families.begin(), families.end(), f) != families.end()) {
      return Status::InvalidArgument("two version edits of one column family in one group");
    }
    if (!edit->has_log_number_) edit->SetLogNumber(f->log_number);
    if (edit->log_number_ < f->log_number) {
      return Status::InvalidArgument("version edit would move the log number backwards");
    }
    VersionBuilder builder(*f->current, registry_.get());
    Status s = builder.Apply(*edit);
    std::shared_ptr<Version> v;
    if (s.ok()) s = builder.Build(&v);
    if (!s.ok()) return s;
    families.push_back(f);
    versions.push_back(std::move(v));
  }
  // One sync for the group, after its last record. (Each record stands alone: after a crash
  // in between, the records before it apply and the rest do not.)
  for (size_t i = 0; i < edits.size(); i++) {
    Status s = WriteEdit(edits[i], /*sync=*/i + 1 == edits.size());
    if (!s.ok()) return s;
  }
  for (size_t i = 0; i < edits.size(); i++) {
    FamilyVersions* f = families[i];
    f->current = std::move(versions[i]);
    f->log_number = edits[i]->log_number_;
    for (const auto& [level, key] : edits[i]->compact_pointers_) {
      f->compact_pointers[static_cast<size_t>(level)] = key.Encode().ToString();
    }
  }
  return Status::OK();
}

Status VersionSet::CreateColumnFamily(const std::string& name, const Options& options,
                                      uint64_t log_number, FamilyVersions** result) {
  for (const auto& [id, f] : families_) {
    if (f->name == name) {
      return Status::InvalidArgument(fmt::format("column family \"{}\" already exists", name));
    }
  }
  if (max_column_family_ == UINT32_MAX) {
    return Status::InvalidArgument("no column family id is left (2^32 were created)");
  }
  const uint32_t id = max_column_family_ + 1;
  VersionEdit edit;
  edit.SetColumnFamily(id);
  edit.AddColumnFamily(name);
  edit.SetMaxColumnFamily(id);
  edit.SetLogNumber(log_number);
  Status s = WriteEdit(&edit, /*sync=*/true);
  if (!s.ok()) return s;
  max_column_family_ = id;
  auto f = std::make_unique<FamilyVersions>(id, name, options);
  f->log_number = log_number;
  *result = f.get();
  families_[id] = std::move(f);
  return Status::OK();
}

Status VersionSet::DropColumnFamily(uint32_t id) {
  if (id == 0) return Status::InvalidArgument("the default column family cannot be dropped");
  if (family(id) == nullptr) {
    return Status::InvalidArgument(fmt::format("unknown column family {}", id));
  }
  VersionEdit edit;
  edit.SetColumnFamily(id);
  edit.DropColumnFamily();
  Status s = WriteEdit(&edit, /*sync=*/true);
  if (!s.ok()) return s;
  families_.erase(id);
  return Status::OK();
}

}  // namespace sluice
