// db/db_families.cc — column families: DB::Open with families, ListColumnFamilies,
// CreateColumnFamily, DropColumnFamily, and the lookup of a family from a handle.
//
// Create and drop hold switch_mu_ (no switch starts a WAL file meanwhile, so the new family's
// log number, the current WAL file's, is exact) and mutex_ (the MANIFEST and the family map).
// A family's ColumnFamilyData is never freed before the DB: its handle stays safe to pass.

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "base/filename.h"
#include "db/db_impl.h"
#include "util/epoch.h"
#include "util/logging.h"

namespace sluice {

namespace {

// At most this many families may be live at once (the contract, and what keeps the
// per-family work of a flush and of the stall policy bounded).
constexpr size_t kMaxLiveFamilies = size_t{1} << 16;

}  // namespace

Status DB::Open(const Options& options, const std::string& path, std::unique_ptr<DB>* db) {
  return DBImpl::OpenWithComponentFactory(options, path, nullptr, db);
}

Status DB::Open(const DBOptions& db_options, const std::string& path,
                const std::vector<ColumnFamilyDescriptor>& families,
                std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db) {
  return DBImpl::OpenFamilies(db_options, path, families, nullptr, handles, db);
}

Status DB::ListColumnFamilies(const DBOptions& options, const std::string& path,
                              std::vector<std::string>* names) {
  Env* env = options.env != nullptr ? options.env : Env::Default();
  return ListColumnFamiliesInManifest(env, NormalizeDbPath(path), names);
}

Status DBImpl::OpenWithComponentFactory(const Options& options, const std::string& path,
                                        std::unique_ptr<MemoryComponentFactory> component_factory,
                                        std::unique_ptr<DB>* db) {
  std::vector<ColumnFamilyHandle*> handles;
  return OpenFamilies(options, path, {ColumnFamilyDescriptor(kDefaultColumnFamilyName, options)},
                      std::move(component_factory), &handles, db);
}

Status DBImpl::OpenFamilies(const DBOptions& db_options, const std::string& path,
                            const std::vector<ColumnFamilyDescriptor>& families,
                            std::unique_ptr<MemoryComponentFactory> component_factory,
                            std::vector<ColumnFamilyHandle*>* handles, std::unique_ptr<DB>* db) {
  db->reset();
  handles->clear();
  if (path.empty()) return Status::InvalidArgument("database path is empty");
  std::set<std::string> names;
  const ColumnFamilyDescriptor* default_family = nullptr;
  for (const ColumnFamilyDescriptor& d : families) {
    if (d.name.empty()) return Status::InvalidArgument("a column family name is empty");
    if (!names.insert(d.name).second) {
      return Status::InvalidArgument(
          fmt::format("column family \"{}\" is named twice in DB::Open", d.name));
    }
    if (d.name == kDefaultColumnFamilyName) default_family = &d;
  }
  if (default_family == nullptr) {
    return Status::InvalidArgument(
        "DB::Open: the default column family (\"default\") must be among the families opened");
  }
  // Every family's options, sanitized now, so that a bad one fails before anything is opened.
  std::vector<ColumnFamilyDescriptor> sanitized_families;
  Options default_options;
  for (const ColumnFamilyDescriptor& d : families) {
    Options sanitized;
    Status s = SanitizeOptions(Options(db_options, d.options), &sanitized);
    if (!s.ok()) {
      return d.name == kDefaultColumnFamilyName
                 ? s
                 : Status::InvalidArgument(
                       fmt::format("column family \"{}\": {}", d.name, s.ToString()));
    }
    if (&d == default_family) default_options = sanitized;
    sanitized_families.emplace_back(d.name, sanitized);
  }
  auto impl = std::make_unique<DBImpl>(default_options, NormalizeDbPath(path),
                                       std::move(component_factory));
  Status s = impl->Open(sanitized_families);
  if (!s.ok()) {
    impl->Close();
    return s;
  }
  *handles = impl->OpenedHandles(families);
  *db = std::move(impl);
  return Status::OK();
}

std::vector<ColumnFamilyHandle*> DBImpl::OpenedHandles(
    const std::vector<ColumnFamilyDescriptor>& families) {
  MutexLock l(&mutex_);
  std::vector<ColumnFamilyHandle*> handles;
  for (const ColumnFamilyDescriptor& d : families) {
    for (const auto& [id, cfd] : families_) {
      if (!cfd->dropped.load() && cfd->name == d.name) handles.push_back(&cfd->handle);
    }
  }
  return handles;
}

Status DBImpl::CheckFamilyHandle(ColumnFamilyHandle* handle, const char* op,
                                 ColumnFamilyData** cfd) const {
  auto* impl = dynamic_cast<ColumnFamilyHandleImpl*>(handle);
  if (impl == nullptr || impl->db() != this) {
    return Status::InvalidArgument(
        fmt::format("{}: {} column family handle", op, handle == nullptr ? "null" : "unknown"));
  }
  if (impl->cfd()->dropped.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(
        fmt::format("{}: column family \"{}\" was dropped", op, impl->cfd()->name));
  }
  *cfd = impl->cfd();
  return Status::OK();
}

Status DBImpl::NewFamilyData(uint32_t id, const std::string& name, const Options& options,
                             std::unique_ptr<MemoryComponentFactory> component_factory,
                             std::unique_ptr<ColumnFamilyData>* result) {
  auto cfd = std::make_unique<ColumnFamilyData>(this, id, name, options);
  if (component_factory != nullptr) {
    cfd->component_factory = std::move(component_factory);
  } else {
    Status s = NewMemoryComponentFactory(options, &cfd->component_factory);
    if (!s.ok()) return s;
  }
  *result = std::move(cfd);
  return Status::OK();
}

std::vector<ColumnFamilyData*> DBImpl::LiveFamilies() const {
  std::vector<ColumnFamilyData*> live;
  for (const auto& [id, cfd] : families_) {
    if (!cfd->dropped.load(std::memory_order_relaxed)) live.push_back(cfd.get());
  }
  return live;
}

void DBImpl::PublishFamilyTable() {
  auto* table = new FamilyTable{LiveFamilies()};
  // acq_rel: writers that acquire the pointer see the table and the families it names built.
  FamilyTable* old = family_table_.exchange(table, std::memory_order_acq_rel);
  if (old != nullptr) epoch::RetireDelete(old);
}

Status DBImpl::CreateColumnFamily(const ColumnFamilyOptions& family_options,
                                  const std::string& name, ColumnFamilyHandle** handle) {
  if (handle != nullptr) *handle = nullptr;
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  if (handle == nullptr) return Status::InvalidArgument("CreateColumnFamily: handle is null");
  if (name.empty()) return Status::InvalidArgument("CreateColumnFamily: the name is empty");
  Options options;
  Status s = SanitizeOptions(Options(options_, family_options), &options);
  if (!s.ok()) {
    return Status::InvalidArgument(fmt::format("column family \"{}\": {}", name, s.ToString()));
  }
  s = BackgroundError();
  if (!s.ok()) return s;
  MutexLock switch_lock(&switch_mu_);  // the current WAL file stays current
  MutexLock l(&mutex_);
  if (LiveFamilies().size() >= kMaxLiveFamilies) {
    return Status::InvalidArgument(fmt::format(
        "CreateColumnFamily(\"{}\"): the database already has {} column families, the most it "
        "may have",
        name, kMaxLiveFamilies));
  }
  FamilyVersions* versions = nullptr;
  const uint64_t log_number = CurrentWalSet()->current->number;
  uint32_t id = versions_->max_column_family() + 1;
  std::unique_ptr<ColumnFamilyData> cfd;
  s = NewFamilyData(id, name, options, nullptr, &cfd);
  std::shared_ptr<LoggedComponent> mem;
  if (s.ok()) s = NewLoggedComponent(cfd.get(), log_number, &mem);
  // Written last: a failure before leaves nothing behind.
  if (s.ok()) s = versions_->CreateColumnFamily(name, options, log_number, &versions);
  if (!s.ok()) return s;
  assert(versions->id == id);
  cfd->versions = versions;
  cfd->replaces_in_place = mem->component->ReplacesInPlace();
  if (cfd->replaces_in_place) in_place_families_.fetch_add(1, std::memory_order_acq_rel);
  InstallSuperVersion(cfd.get(), std::move(mem), {}, versions->current);
  stats_.EnsureLevels(options.num_levels);
  *handle = &cfd->handle;
  families_[id] = std::move(cfd);
  PublishFamilyTable();
  Log(info_log_.get(), "created column family \"{}\" (id {}), memtable={}", name, id,
      options.memtable);
  return Status::OK();
}

Status DBImpl::DropColumnFamily(ColumnFamilyHandle* family) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(family, "DropColumnFamily", &cfd);
  if (!s.ok()) return s;
  if (cfd == default_cfd_) {
    return Status::InvalidArgument("DropColumnFamily: the default column family cannot be dropped");
  }
  MutexLock switch_lock(&switch_mu_);
  MutexLock l(&mutex_);
  if (cfd->dropped.load()) {
    return Status::InvalidArgument(
        fmt::format("DropColumnFamily: column family \"{}\" was dropped", cfd->name));
  }
  s = versions_->DropColumnFamily(cfd->id);
  if (!s.ok()) return s;
  cfd->dropped.store(true, std::memory_order_release);
  cfd->versions = nullptr;
  // Its files and immutable components are let go of (they go once no reader holds them).
  // Its mutable component stays until the DB closes: a reader or writer that passed the
  // dropped check just before may still be using it.
  SuperVersion* sv = CurrentSuperVersion(cfd);
  InstallSuperVersion(cfd, sv->mem, {}, std::make_shared<Version>(cfd->options.num_levels));
  if (cfd->replaces_in_place) in_place_families_.fetch_sub(1, std::memory_order_acq_rel);
  PublishFamilyTable();
  // The WAL files only it held are no longer needed.
  DropObsoleteWals();
  UpdateWriteController();
  MaybeScheduleWork();  // obsolete files, a flush no longer held
  bg_cv_.SignalAll();
  Log(info_log_.get(), "dropped column family \"{}\" (id {})", cfd->name, cfd->id);
  return Status::OK();
}

}  // namespace sluice
