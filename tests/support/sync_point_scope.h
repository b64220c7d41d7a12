// tests/support/sync_point_scope.h — RAII for tests that arm sync points (util/sync_point.h):
// the registry is reset when the scope is entered and again when it is left, so a test that
// fails (an assertion returns early) leaves no dependency or callback armed for the next one.
//
// Leaving the scope disables processing first, which releases every thread waiting at a point,
// and then waits for callbacks still running: a callback that holds a thread must therefore
// give up by itself (wait with a deadline), or the scope's end waits for it.

#ifndef SLUICE_TESTS_SUPPORT_SYNC_POINT_SCOPE_H_
#define SLUICE_TESTS_SUPPORT_SYNC_POINT_SCOPE_H_

#include "util/sync_point.h"

namespace sluice::test {

class SyncPointScope {
 public:
  SyncPointScope() { SyncPoint::Get()->Reset(); }
  ~SyncPointScope() { SyncPoint::Get()->Reset(); }
  SyncPointScope(const SyncPointScope&) = delete;
  SyncPointScope& operator=(const SyncPointScope&) = delete;

  SyncPoint* operator->() const { return SyncPoint::Get(); }
};

}  // namespace sluice::test

// In a test body: skips the test when the engine's sync points are compiled out (NDEBUG).
#define SKIP_WITHOUT_SYNC_POINTS()                                           \
  do {                                                                       \
    if (!::sluice::kSyncPointsCompiledIn) {                                  \
      GTEST_SKIP() << "sync points are compiled out in this build (NDEBUG)"; \
    }                                                                        \
  } while (0)

#endif  // SLUICE_TESTS_SUPPORT_SYNC_POINT_SCOPE_H_
