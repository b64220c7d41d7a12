// bindings/python/src/core.cc — the shared database state: closing, the resource registry and
// the guard against closing from inside a read_modify_write function (see core.h).

#include "core.h"

#include <algorithm>
#include <vector>

namespace sluice_python {

namespace {

// The cores whose read_modify_write function this thread is running, innermost last.
thread_local std::vector<const Core*> tls_callback_cores;

}  // namespace

Core::CallbackScope::CallbackScope(const Core* core) { tls_callback_cores.push_back(core); }

Core::CallbackScope::~CallbackScope() { tls_callback_cores.pop_back(); }

Core::Core(std::unique_ptr<sluice::DB> db, std::string path, const sluice::ReadOptions& read,
           const sluice::WriteOptions& write)
    : path_(std::move(path)), read_options_(read), write_options_(write), db_(std::move(db)) {}

Core::~Core() {
  closing_.store(true, std::memory_order_release);
  GilRelease nogil;  // DB::Close waits for background work
  std::unique_lock<std::shared_mutex> lock(mu_);
  CloseLocked();  // nothing to report to: the status of an implicit close is dropped
}

sluice::WriteOptions Core::WriteOptionsFor(py::handle sync) const {
  sluice::WriteOptions w = write_options_;
  if (!sync.is_none()) {
    if (!PyBool_Check(sync.ptr())) RaiseTypeError("sync must be bool, not " + TypeName(sync));
    w.sync = sync.ptr() == Py_True;
  }
  return w;
}

void Core::RaiseClosed() const { RaiseError("sluice: the database " + path_ + " is closed"); }

void Core::AddFamily(const std::string& name, sluice::ColumnFamilyHandle* handle) {
  std::lock_guard<std::mutex> l(families_mu_);
  families_[name] = handle;
}

sluice::ColumnFamilyHandle* Core::FindFamily(const std::string& name) const {
  std::lock_guard<std::mutex> l(families_mu_);
  auto it = families_.find(name);
  return it == families_.end() ? nullptr : it->second;
}

void Core::RemoveFamily(const std::string& name) {
  std::lock_guard<std::mutex> l(families_mu_);
  families_.erase(name);
}

std::vector<std::string> Core::FamilyNames() const {
  std::lock_guard<std::mutex> l(families_mu_);
  std::vector<std::string> names;
  for (const auto& [name, handle] : families_) names.push_back(name);
  return names;
}

void Core::Register(Resource* r) {
  std::lock_guard<std::mutex> l(registry_mu_);
  resources_.insert(r);
}

void Core::Unregister(Resource* r) {
  std::lock_guard<std::mutex> l(registry_mu_);
  resources_.erase(r);
}

sluice::Status Core::Close() {
  if (std::find(tls_callback_cores.begin(), tls_callback_cores.end(), this) !=
      tls_callback_cores.end()) {
    RaiseError("sluice: close() called from inside a read_modify_write function of " + path_);
  }
  closing_.store(true, std::memory_order_release);
  GilRelease nogil;
  std::unique_lock<std::shared_mutex> lock(mu_);
  return CloseLocked();
}

sluice::Status Core::CloseLocked() {
  if (db_ == nullptr) return sluice::Status::OK();
  std::unordered_set<Resource*> live;
  {
    std::lock_guard<std::mutex> l(registry_mu_);
    live.swap(resources_);
  }
  for (Resource* r : live) r->ReleaseForClose();
  sluice::Status s = db_->Close();
  db_.reset();
  return s;
}

}  // namespace sluice_python
