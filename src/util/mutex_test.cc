// Tests of util/mutex: MutexLock releases and retakes its mutex (and releases it at scope exit
// only if held), TryLock fails while the mutex is held, a contended Lock excludes (whether it
// gets the mutex while spinning or after sleeping), and CondVar waits release the mutex, wake
// on Signal/SignalAll and time out.

#include "util/mutex.h"

#include <gtest/gtest.h>

#include <atomic>
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

// Short sections (taken while spinning, mostly) and, every so often, a section that outlasts the
// spin (its waiters go to sleep): no two threads are ever inside, and no increment is lost.
TEST(Mutex, ContendedLockExcludes) {
  Mutex mu;
  int counter = 0;  // plain: a lost update shows in the total
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; i++) {
        MutexLock l(&mu);
        if (inside.fetch_add(1) != 0) overlapped = true;
        counter++;
        if (t == 0 && i % 2000 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        inside.fetch_sub(1);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_FALSE(overlapped.load());
  EXPECT_EQ(counter, kThreads * kRounds);
}

// A holder that keeps the mutex far longer than the spin: the waiter sleeps, and gets the
// mutex only after the holder's release (it sees what the holder wrote last).
TEST(Mutex, WaiterThatOutlastsTheSpinGetsTheMutexAfterTheRelease) {
  Mutex mu;
  int written = 0;
  mu.Lock();
  std::atomic<bool> started{false};
  int seen = -1;
  std::thread waiter([&] {
    started = true;
    MutexLock l(&mu);
    seen = written;
  });
  while (!started.load()) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  written = 7;
  mu.Unlock();
  waiter.join();
  EXPECT_EQ(seen, 7);
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
