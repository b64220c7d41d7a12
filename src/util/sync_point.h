// util/sync_point.h — named sync points: places in the engine where a test can force the order
// in which threads pass, or run code of its own, to pin a race to one exact interleaving.
//
// TEST_SYNC_POINT("Class::Function:Where") marks a place; TEST_SYNC_POINT_CALLBACK(name, arg)
// also hands `arg` (a void*, the point's documented object) to a callback. A test arms them
// through the process-wide registry, SyncPoint::Get():
//   * LoadDependency({{"A", "B"}, ...}): a thread reaching B waits until some thread has passed
//     A (a point is passed once its own waits and its callback are done);
//   * SetCallBack(name, fn): fn(arg) runs in the thread that reaches the point, outside the
//     registry's lock (it may block, e.g. to hold a thread at the point);
//   * EnableProcessing() / DisableProcessing(): only while processing is enabled do points wait
//     or call back. Disabling wakes every thread waiting at a point, and it passes at once.
//   * ClearAllCallBacks() waits for callbacks still running; Reset() disables processing and
//     forgets dependencies, callbacks and passed points.
// tests/support/sync_point_scope.h is the RAII helper tests use, so that a failing test leaves
// nothing armed.
//
// Cost: with NDEBUG (release builds) the macros compile to nothing, and their arguments are not
// evaluated; otherwise (dev, asan, tsan) a point costs one relaxed atomic load while
// processing is disabled. The registry itself is always compiled, so tests link in every
// build; kSyncPointsCompiledIn says whether the engine's points exist (tests GTEST_SKIP if not).
//
// Thread-safety: every member function may be called from any thread; one mutex and one
// condition variable guard the registry. Points are named after their place; a test that
// depends on a point names it, so renaming one means updating its tests.

#ifndef SLUICE_UTIL_SYNC_POINT_H_
#define SLUICE_UTIL_SYNC_POINT_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

#ifdef NDEBUG
inline constexpr bool kSyncPointsCompiledIn = false;
#else
inline constexpr bool kSyncPointsCompiledIn = true;
#endif

class SyncPoint {
 public:
  // "A thread reaching `successor` waits until some thread has passed `predecessor`."
  struct Dependency {
    std::string predecessor;
    std::string successor;
  };

  // The process-wide registry (never destroyed, so points reached during exit are safe).
  static SyncPoint* Get();

  // Replaces the dependencies, and forgets which points were passed.
  void LoadDependency(const std::vector<Dependency>& dependencies);
  void SetCallBack(const std::string& name, std::function<void(void*)> callback);
  // Wait for callbacks still running (of that name, or all) before returning.
  void ClearCallBack(const std::string& name);
  void ClearAllCallBacks();
  void EnableProcessing();
  // Wakes every thread waiting at a point; they pass without waiting further.
  void DisableProcessing();
  // Forgets which points were passed (dependencies stay).
  void ClearTrace();
  // DisableProcessing, then forget dependencies, callbacks and passed points.
  void Reset();

  // True if some thread has passed `name` since the last ClearTrace/LoadDependency/Reset.
  bool Passed(const std::string& name) const;

  // The body of a point; call through the macros.
  void Process(std::string_view name, void* arg);

  // relaxed: read by every point on its fast path; the registry's state it guards is read
  // again under mu_.
  static bool Processing() { return processing_.load(std::memory_order_relaxed); }

 private:
  SyncPoint() = default;
  // REQUIRES: mu_ held.
  bool PredecessorsPassed(const std::string& name) const;

  static inline std::atomic<bool> processing_{false};

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::vector<std::string>> predecessors_;  // successor -> predecessors
  std::map<std::string, std::function<void(void*)>, std::less<>> callbacks_;
  std::multiset<std::string> running_callbacks_;  // names of callbacks running now
  std::set<std::string> passed_;
};

}  // namespace sluice

#ifdef NDEBUG
#define TEST_SYNC_POINT(name) \
  do {                        \
  } while (0)
#define TEST_SYNC_POINT_CALLBACK(name, arg) \
  do {                                      \
  } while (0)
#else
#define TEST_SYNC_POINT(name) TEST_SYNC_POINT_CALLBACK(name, nullptr)
#define TEST_SYNC_POINT_CALLBACK(name, arg)                                                \
  do {                                                                                     \
    if (::sluice::SyncPoint::Processing()) ::sluice::SyncPoint::Get()->Process(name, arg); \
  } while (0)
#endif

#endif  // SLUICE_UTIL_SYNC_POINT_H_
