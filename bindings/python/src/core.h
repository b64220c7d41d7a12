// bindings/python/src/core.h — the state a Python DB shares with its iterators, snapshots and
// write batches: the engine, the reader-writer lock that makes close() safe while other Python
// threads are inside calls with the GIL released, and the registry of live iterators and
// snapshots that close() releases before DB::Close (the engine requires it).
//
// Locking rules (they rule out deadlocks with the GIL):
//   * every engine call releases the GIL first, then takes the lock shared (Core::Run);
//   * close() marks the core closing (new calls fail at once, so a stream of calls cannot starve
//     it), releases the GIL and takes the lock exclusively;
//   * nothing waits for the lock while holding the GIL; the only code that takes the GIL while
//     holding the lock is read_modify_write's callback, and nothing holding the GIL waits for it.

#ifndef SLUICE_PYTHON_CORE_H_
#define SLUICE_PYTHON_CORE_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common.h"
#include "sluice/db.h"
#include "sluice/options.h"

namespace sluice_python {

// An iterator or snapshot holding engine resources. The core calls ReleaseForClose, with its
// lock held exclusively, for every one still registered when the database closes.
class Resource {
 public:
  virtual ~Resource() = default;
  virtual void ReleaseForClose() = 0;
};

class Core {
 public:
  Core(std::unique_ptr<sluice::DB> db, std::string path, const sluice::ReadOptions& read,
       const sluice::WriteOptions& write);
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;
  // Closes the database if close() was not called (the last Python object using it is gone).
  ~Core();

  const std::string& path() const { return path_; }
  const sluice::ReadOptions& read_options() const { return read_options_; }
  // The default write options, with sync replaced when `sync` is a bool (not None).
  sluice::WriteOptions WriteOptionsFor(py::handle sync) const;

  bool closed() const { return closing_.load(std::memory_order_acquire); }
  // Raises sluice.Error("... is closed") if close() was called. Needs the GIL.
  void CheckOpen() const {
    if (closed()) RaiseClosed();
  }
  [[noreturn]] void RaiseClosed() const;

  // Runs fn(sluice::DB*) with the GIL released and the lock held shared, and returns its result
  // (fn must return a value). Raises sluice.Error if the database is closed. Called with the GIL.
  template <typename Fn>
  auto Run(Fn&& fn) {
    using Result = std::invoke_result_t<Fn, sluice::DB*>;
    CheckOpen();
    std::optional<Result> result;
    {
      GilRelease nogil;
      std::shared_lock<std::shared_mutex> lock(mu_);
      if (!closed()) result.emplace(fn(db_.get()));
    }
    if (!result) RaiseClosed();
    return std::move(*result);
  }

  // Runs fn() with the GIL released and the lock held shared, but only if the engine has not
  // been closed yet (used to release resources, which close() releases itself otherwise). Safe
  // with or without the GIL; fn must not throw.
  template <typename Fn>
  void RunIfOpen(Fn&& fn) {
    GilRelease nogil;
    std::shared_lock<std::shared_mutex> lock(mu_);
    if (db_ != nullptr) fn();
  }

  // The column families opened or created, by name (their handles are the engine's, valid
  // while it is open: use them only inside Run). Guarded by their own mutex.
  void AddFamily(const std::string& name, sluice::ColumnFamilyHandle* handle);
  sluice::ColumnFamilyHandle* FindFamily(const std::string& name) const;  // null if unknown
  void RemoveFamily(const std::string& name);
  std::vector<std::string> FamilyNames() const;  // sorted

  // Registry of live resources; call with the lock held shared (inside Run or RunIfOpen).
  void Register(Resource* r);
  void Unregister(Resource* r);

  // Releases every registered resource and closes the engine; waits for calls in progress in
  // other threads. Idempotent. Called with the GIL (released while waiting). Raises if called
  // from inside a read_modify_write function of this database (it would wait for itself).
  sluice::Status Close();

  // Marks this thread as running a read_modify_write function of this core (see Close).
  class CallbackScope {
   public:
    explicit CallbackScope(const Core* core);
    ~CallbackScope();
    CallbackScope(const CallbackScope&) = delete;
    CallbackScope& operator=(const CallbackScope&) = delete;
  };

 private:
  sluice::Status CloseLocked();  // REQUIRES: mu_ held exclusively.

  const std::string path_;
  const sluice::ReadOptions read_options_;
  const sluice::WriteOptions write_options_;
  std::atomic<bool> closing_{false};
  std::shared_mutex mu_;
  std::unique_ptr<sluice::DB> db_;  // guarded by mu_; null once closed
  std::mutex registry_mu_;
  std::unordered_set<Resource*> resources_;  // guarded by registry_mu_; not owned
  mutable std::mutex families_mu_;
  std::map<std::string, sluice::ColumnFamilyHandle*> families_;  // guarded by families_mu_
};

}  // namespace sluice_python

#endif  // SLUICE_PYTHON_CORE_H_
