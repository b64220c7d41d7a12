// tests/support/compaction_gate.h — holds every compaction of a running DB at its start (the
// "DBImpl::RunCompaction:Begin" sync point) until the test lets them go, so L0 and the
// compaction state stay where the test put them. A held compaction gives up by itself after
// kPatience, so a broken engine fails the test instead of hanging it.

#ifndef SLUICE_TESTS_SUPPORT_COMPACTION_GATE_H_
#define SLUICE_TESTS_SUPPORT_COMPACTION_GATE_H_

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "support/sync_point_scope.h"

namespace sluice::test {

class CompactionGate {
 public:
  // Long: a test's body runs while the compaction is held, however slowly a busy machine runs it.
  static constexpr auto kPatience = std::chrono::seconds(60);

  explicit CompactionGate(SyncPointScope* sync) {
    (*sync)->SetCallBack("DBImpl::RunCompaction:Begin", [this](void*) {
      std::unique_lock<std::mutex> l(mu_);
      held_++;
      cv_.notify_all();
      cv_.wait_for(l, kPatience, [this] { return released_; });
    });
    (*sync)->EnableProcessing();
  }
  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    released_ = true;
    cv_.notify_all();
  }
  // True once a compaction is held (false after kPatience without one).
  bool WaitUntilHeld() {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, kPatience, [this] { return held_ > 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int held_ = 0;
  bool released_ = false;
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_COMPACTION_GATE_H_
