// Tests of util/mutex: MutexLock releases and retakes its mutex (and releases it at scope exit
// only if held), TryLock fails while the mutex is held, and CondVar waits release the mutex,
// wake on Signal/SignalAll and time out.

#include "util/mutex.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

namespace sluice {

TEST(Mutex, TryLockFailsWhileHeld) {
  Mutex mu;
  mu.Lock();
  bool acquired = true;
  std::thread t([&] {
    acquired = mu.TryLock();
    if (acquired) mu.Unlock();
  });
  t.join();
  EXPECT_FALSE(acquired);
  mu.Unlock();
  ASSERT_TRUE(mu.TryLock());
  mu.Unlock();
}

TEST(MutexLock, UnlockAndLockInsideTheScope) {
  Mutex mu;
  {
    MutexLock l(&mu);
    l.Unlock();
    bool acquired = false;
    std::thread t([&] {
      acquired = mu.TryLock();
      if (acquired) mu.Unlock();
    });
    t.join();
    EXPECT_TRUE(acquired);  // released by Unlock
    l.Lock();
  }
  {
    MutexLock l(&mu);
    l.Unlock();
  }  // not held at scope exit: not released again
  ASSERT_TRUE(mu.TryLock());
  mu.Unlock();
}

TEST(CondVar, WaitReleasesTheMutexUntilSignalled) {
  Mutex mu;
  CondVar cv(&mu);
  int stage = 0;
  std::vector<std::thread> waiters;
  for (int i = 0; i < 3; i++) {
    waiters.emplace_back([&] {
      MutexLock l(&mu);
      while (stage == 0) cv.Wait();
      stage++;
    });
  }
  {
    MutexLock l(&mu);  // only possible while the waiters wait without the mutex
    stage = 1;
    cv.SignalAll();
  }
  for (auto& t : waiters) t.join();
  MutexLock l(&mu);
  EXPECT_EQ(stage, 4);
}

TEST(CondVar, WaitForTimesOutOrSeesThePredicate) {
  Mutex mu;
  CondVar cv(&mu);
  bool ready = false;
  {
    MutexLock l(&mu);
    EXPECT_FALSE(cv.WaitFor(std::chrono::milliseconds(5), [&] { return ready; }));
  }
  std::thread t([&] {
    MutexLock l(&mu);
    ready = true;
    cv.Signal();
  });
  {
    MutexLock l(&mu);
    EXPECT_TRUE(cv.WaitFor(std::chrono::seconds(60), [&] { return ready; }));
  }
  t.join();
}

}  // namespace sluice
