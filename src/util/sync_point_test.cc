// util/sync_point_test.cc — the sync point registry: a dependency orders two threads; callbacks
// get their argument and run in the thread at the point; with processing disabled nothing waits
// or calls back, and disabling releases a waiting thread; the RAII scope disarms everything.
// The registry is compiled in every build, so these call Process() directly rather than
// through the macros (which NDEBUG removes); one test checks the macros where they exist.

#include "util/sync_point.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/sync_point_scope.h"

namespace sluice {
namespace {

using test::SyncPointScope;

void Point(const char* name, void* arg = nullptr) { SyncPoint::Get()->Process(name, arg); }

TEST(SyncPointTest, DependencyOrdersTwoThreads) {
  SyncPointScope scope;
  scope->LoadDependency({{"T1:Second", "T2:Third"}, {"T2:Third", "T1:Fourth"}});
  scope->EnableProcessing();
  std::mutex mu;
  std::vector<std::string> order;
  auto record = [&](const std::string& s) {
    std::lock_guard<std::mutex> l(mu);
    order.push_back(s);
  };
  // A point's callback runs after its waits and before it counts as passed, so recording in
  // callbacks shows the order of the points themselves.
  scope->SetCallBack("T1:Second", [&](void*) { record("second"); });
  scope->SetCallBack("T2:Third", [&](void*) { record("third"); });
  // t2 starts first but must wait at T2:Third until t1 has passed T1:Second; t1 then waits at
  // T1:Fourth until t2 has passed T2:Third.
  std::thread t2([&] { Point("T2:Third"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::thread t1([&] {
    record("first");
    Point("T1:Second");
    Point("T1:Fourth");
    record("fourth");
  });
  t1.join();
  t2.join();
  EXPECT_EQ((std::vector<std::string>{"first", "second", "third", "fourth"}), order);
  EXPECT_TRUE(scope->Passed("T1:Second"));
  EXPECT_TRUE(scope->Passed("T2:Third"));
  EXPECT_TRUE(scope->Passed("T1:Fourth"));
}

TEST(SyncPointTest, SuccessorWaitsUntilPredecessorPassed) {
  SyncPointScope scope;
  scope->LoadDependency({{"A", "B"}});
  scope->EnableProcessing();
  std::atomic<bool> b_passed{false};
  std::thread t([&] {
    Point("B");
    b_passed.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(b_passed.load()) << "B passed before A";
  EXPECT_FALSE(scope->Passed("B"));
  Point("A");
  t.join();
  EXPECT_TRUE(b_passed.load());
}

TEST(SyncPointTest, CallbackGetsItsArgumentInTheThreadAtThePoint) {
  SyncPointScope scope;
  int calls = 0;
  std::thread::id caller;
  scope->SetCallBack("P", [&](void* arg) {
    *static_cast<int*>(arg) += 10;
    calls++;
    caller = std::this_thread::get_id();
  });
  int value = 1;
  Point("P", &value);  // not processing yet: no call
  EXPECT_EQ(0, calls);
  scope->EnableProcessing();
  std::thread t([&] { Point("P", &value); });
  const std::thread::id tid = t.get_id();
  t.join();
  EXPECT_EQ(1, calls);
  EXPECT_EQ(11, value);
  EXPECT_EQ(tid, caller);
  Point("Other", &value);  // no callback for this name
  EXPECT_EQ(1, calls);
  scope->ClearAllCallBacks();
  Point("P", &value);
  EXPECT_EQ(1, calls);
}

TEST(SyncPointTest, DisabledMeansNoWaiting) {
  SyncPointScope scope;
  scope->LoadDependency({{"Never", "Blocked"}});
  int calls = 0;
  scope->SetCallBack("Blocked", [&](void*) { calls++; });
  // Processing is off: the point neither waits for "Never" nor calls back.
  Point("Blocked");
  EXPECT_EQ(0, calls);
  EXPECT_FALSE(scope->Passed("Blocked"));
}

TEST(SyncPointTest, DisablingReleasesAWaitingThread) {
  SyncPointScope scope;
  scope->LoadDependency({{"Never", "Blocked"}});
  scope->EnableProcessing();
  std::atomic<bool> passed{false};
  std::thread t([&] {
    Point("Blocked");
    passed.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(passed.load());
  scope->DisableProcessing();
  t.join();
  EXPECT_TRUE(passed.load());
}

TEST(SyncPointTest, ScopeDisarmsEverythingOnExit) {
  {
    SyncPointScope scope;
    scope->LoadDependency({{"Never", "Blocked"}});
    scope->SetCallBack("Blocked", [](void*) { FAIL() << "callback survived its scope"; });
    scope->EnableProcessing();
  }
  EXPECT_FALSE(SyncPoint::Processing());
  // Even with processing enabled again, the old dependency and callback are gone.
  SyncPointScope scope;
  scope->EnableProcessing();
  Point("Blocked");
  EXPECT_TRUE(scope->Passed("Blocked"));
}

TEST(SyncPointTest, MacrosReachTheRegistryUnlessCompiledOut) {
  SKIP_WITHOUT_SYNC_POINTS();
  SyncPointScope scope;
  int calls = 0;
  scope->SetCallBack("SyncPointTest:Macro", [&](void* arg) { calls += *static_cast<int*>(arg); });
  [[maybe_unused]] int two = 2;  // unused where the macros are compiled out
  TEST_SYNC_POINT_CALLBACK("SyncPointTest:Macro", &two);
  EXPECT_EQ(0, calls);  // processing disabled: one relaxed load, nothing else
  scope->EnableProcessing();
  TEST_SYNC_POINT_CALLBACK("SyncPointTest:Macro", &two);
  TEST_SYNC_POINT("SyncPointTest:Plain");
  EXPECT_EQ(2, calls);
  EXPECT_TRUE(scope->Passed("SyncPointTest:Plain"));
}

}  // namespace
}  // namespace sluice
