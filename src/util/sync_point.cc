// util/sync_point.cc — the sync point registry (see sync_point.h). Every member takes mu_;
// callbacks run outside it, counted in running_callbacks_ so that ClearCallBack can wait for
// them; a point is marked passed only after its callback returned.

#include "util/sync_point.h"

namespace sluice {

SyncPoint* SyncPoint::Get() {
  static SyncPoint* const instance = new SyncPoint();  // never destroyed
  return instance;
}

void SyncPoint::LoadDependency(const std::vector<Dependency>& dependencies) {
  std::lock_guard<std::mutex> l(mu_);
  predecessors_.clear();
  for (const Dependency& d : dependencies) predecessors_[d.successor].push_back(d.predecessor);
  passed_.clear();
  cv_.notify_all();
}

void SyncPoint::SetCallBack(const std::string& name, std::function<void(void*)> callback) {
  std::lock_guard<std::mutex> l(mu_);
  callbacks_[name] = std::move(callback);
}

void SyncPoint::ClearCallBack(const std::string& name) {
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait(l, [&] { return running_callbacks_.count(name) == 0; });
  callbacks_.erase(name);
}

void SyncPoint::ClearAllCallBacks() {
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait(l, [&] { return running_callbacks_.empty(); });
  callbacks_.clear();
}

void SyncPoint::EnableProcessing() {
  std::lock_guard<std::mutex> l(mu_);
  processing_.store(true, std::memory_order_relaxed);
}

void SyncPoint::DisableProcessing() {
  std::lock_guard<std::mutex> l(mu_);
  processing_.store(false, std::memory_order_relaxed);
  cv_.notify_all();
}

void SyncPoint::ClearTrace() {
  std::lock_guard<std::mutex> l(mu_);
  passed_.clear();
}

void SyncPoint::Reset() {
  DisableProcessing();
  ClearAllCallBacks();
  std::lock_guard<std::mutex> l(mu_);
  predecessors_.clear();
  passed_.clear();
}

bool SyncPoint::Passed(const std::string& name) const {
  std::lock_guard<std::mutex> l(mu_);
  return passed_.count(name) != 0;
}

bool SyncPoint::PredecessorsPassed(const std::string& name) const {
  auto it = predecessors_.find(name);
  if (it == predecessors_.end()) return true;
  for (const std::string& p : it->second) {
    if (passed_.count(p) == 0) return false;
  }
  return true;
}

void SyncPoint::Process(std::string_view name_view, void* arg) {
  std::unique_lock<std::mutex> l(mu_);
  // Re-read under mu_: DisableProcessing and the waits below are ordered by it.
  if (!processing_.load(std::memory_order_relaxed)) return;
  const std::string name(name_view);
  cv_.wait(
      l, [&] { return !processing_.load(std::memory_order_relaxed) || PredecessorsPassed(name); });
  if (!processing_.load(std::memory_order_relaxed)) return;
  auto cb = callbacks_.find(name);
  if (cb != callbacks_.end()) {
    // A copy: the callback may be replaced or cleared while it runs (ClearCallBack waits for
    // running ones, but SetCallBack does not).
    std::function<void(void*)> callback = cb->second;
    auto running = running_callbacks_.insert(name);
    l.unlock();
    callback(arg);
    l.lock();
    running_callbacks_.erase(running);
  }
  passed_.insert(name);
  cv_.notify_all();
}

}  // namespace sluice
