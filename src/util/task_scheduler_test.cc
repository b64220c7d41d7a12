// util/task_scheduler_test.cc — the shared background pools: ordering, priorities, delays,
// closing one client while others run, RunParallel, resizing; and a stress of many clients
// scheduling and closing at once (run under TSan by make test-tsan).

#include "util/task_scheduler.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "support/test_util.h"

namespace sluice {
namespace {

using Pool = TaskScheduler::Pool;
using test::Eventually;

// A one-shot gate a task can wait on.
class Gate {
 public:
  void Open() { promise_.set_value(); }
  void Wait() { future_.wait(); }

 private:
  std::promise<void> promise_;
  std::shared_future<void> future_{promise_.get_future().share()};
};

TEST(TaskSchedulerTest, RunsEachPoolsTasks) {
  TaskScheduler scheduler({1, 1, 1});
  auto client = scheduler.NewClient();
  std::atomic<int> ran{0};
  for (Pool pool : {Pool::kHigh, Pool::kLow, Pool::kDrain}) {
    ASSERT_TRUE(client->Schedule(pool, [&] { ran++; }));
  }
  ASSERT_TRUE(Eventually([&] { return ran.load() == 3; }));
  EXPECT_EQ(scheduler.TotalThreads(), 4);  // three pools of one, and the timer
}

TEST(TaskSchedulerTest, QueueIsFirstInFirstOutAcrossClients) {
  TaskScheduler scheduler({1, 1, 1});
  auto a = scheduler.NewClient();
  auto b = scheduler.NewClient();
  Gate gate;
  Mutex mu;
  std::vector<int> order;
  auto record = [&](int i) {
    MutexLock l(&mu);
    order.push_back(i);
  };
  auto recorded = [&] {
    MutexLock l(&mu);
    return order.size();
  };
  ASSERT_TRUE(a->Schedule(Pool::kLow, [&] { gate.Wait(); }));
  ASSERT_TRUE(a->Schedule(Pool::kLow, [&] { record(1); }));
  ASSERT_TRUE(b->Schedule(Pool::kLow, [&] { record(2); }));
  ASSERT_TRUE(a->Schedule(Pool::kLow, [&] { record(3); }));
  gate.Open();
  ASSERT_TRUE(Eventually([&] { return recorded() == 3; }));
  MutexLock l(&mu);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));  // b's ran before a's second
}

TEST(TaskSchedulerTest, HighPoolIsNotQueuedBehindLow) {
  TaskScheduler scheduler({1, 1, 1});
  auto client = scheduler.NewClient();
  Gate gate;
  std::atomic<bool> flushed{false};
  ASSERT_TRUE(client->Schedule(Pool::kLow, [&] { gate.Wait(); }));
  ASSERT_TRUE(client->Schedule(Pool::kLow, [] {}));
  ASSERT_TRUE(client->Schedule(Pool::kHigh, [&] { flushed = true; }));
  EXPECT_TRUE(Eventually([&] { return flushed.load(); }));
  gate.Open();
  client->Close();  // the held task is done with the gate before it goes
}

TEST(TaskSchedulerTest, DelayedTaskWaitsItsDelay) {
  TaskScheduler scheduler({1, 1, 1});
  auto client = scheduler.NewClient();
  const auto start = std::chrono::steady_clock::now();
  std::atomic<int64_t> waited_us{-1};
  ASSERT_TRUE(client->ScheduleAfter(Pool::kLow, std::chrono::milliseconds(30), [&] {
    waited_us = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count();
  }));
  // A later-due task scheduled first runs after the earlier-due one.
  std::atomic<bool> early{false};
  ASSERT_TRUE(client->ScheduleAfter(Pool::kLow, std::chrono::milliseconds(1),
                                    [&] { early = waited_us.load() < 0; }));
  ASSERT_TRUE(Eventually([&] { return waited_us.load() >= 0; }));
  EXPECT_GE(waited_us.load(), 30000);
  EXPECT_TRUE(early.load());
}

TEST(TaskSchedulerTest, CloseDropsQueuedTasksAndWaitsForRunningOnes) {
  TaskScheduler scheduler({1, 1, 1});
  auto client = scheduler.NewClient();
  Gate started;
  Gate release;
  std::atomic<bool> finished{false};
  std::atomic<int> dropped_ran{0};
  auto token = std::make_shared<int>(0);  // captured by the dropped tasks: freed unrun
  ASSERT_TRUE(client->Schedule(Pool::kLow, [&] {
    started.Open();
    release.Wait();
    finished = true;
  }));
  ASSERT_TRUE(client->Schedule(Pool::kLow, [&, token] { dropped_ran++; }));
  ASSERT_TRUE(
      client->ScheduleAfter(Pool::kHigh, std::chrono::seconds(60), [&, token] { dropped_ran++; }));
  started.Wait();
  EXPECT_EQ(token.use_count(), 3);
  std::atomic<bool> closed{false};
  std::thread closer([&] {
    client->Close();
    closed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(closed.load());  // the running task holds it
  release.Open();
  closer.join();
  EXPECT_TRUE(finished.load());
  EXPECT_EQ(dropped_ran.load(), 0);
  EXPECT_EQ(token.use_count(), 1);  // both dropped tasks destroyed
  EXPECT_FALSE(client->Schedule(Pool::kLow, [&] { dropped_ran++; }));
  EXPECT_FALSE(client->ScheduleAfter(Pool::kLow, std::chrono::milliseconds(1), [] {}));
}

TEST(TaskSchedulerTest, CloseWaitsOnlyForTheClientsOwnTasks) {
  TaskScheduler scheduler({2, 2, 2});
  auto busy = scheduler.NewClient();
  auto idle = scheduler.NewClient();
  Gate release;
  Gate started;
  ASSERT_TRUE(busy->Schedule(Pool::kLow, [&] {
    started.Open();
    release.Wait();
  }));
  started.Wait();
  std::atomic<bool> ran{false};
  ASSERT_TRUE(idle->Schedule(Pool::kLow, [&] { ran = true; }));
  ASSERT_TRUE(Eventually([&] { return ran.load(); }));
  idle->Close();  // returns although busy's task still runs
  release.Open();
  busy->Close();
}

TEST(TaskSchedulerTest, CloseFromTheClientsOwnTaskDoesNotWaitForItself) {
  TaskScheduler scheduler({1, 1, 1});
  auto client = scheduler.NewClient();
  std::atomic<bool> done{false};
  ASSERT_TRUE(client->Schedule(Pool::kLow, [&] {
    client->Close();
    done = true;
  }));
  ASSERT_TRUE(Eventually([&] { return done.load(); }));
  EXPECT_FALSE(client->Schedule(Pool::kLow, [] {}));
}

TEST(TaskSchedulerTest, RunParallelRunsEveryTaskEvenWhenThePoolIsBusy) {
  TaskScheduler scheduler({1, 1, 1});
  auto client = scheduler.NewClient();
  Gate release;
  ASSERT_TRUE(client->Schedule(Pool::kLow, [&] { release.Wait(); }));  // the pool's only thread
  std::vector<std::atomic<int>> runs(5);
  std::vector<std::function<void()>> tasks;
  for (size_t i = 0; i < runs.size(); i++) tasks.emplace_back([&runs, i] { runs[i]++; });
  client->RunParallel(Pool::kLow, std::move(tasks));  // all here: no thread is free
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  release.Open();
  client->Close();  // the helpers queued meanwhile found their tasks claimed
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
}

TEST(TaskSchedulerTest, RunParallelUsesFreeThreads) {
  TaskScheduler scheduler({1, 2, 1});
  auto client = scheduler.NewClient();
  // Task 0 waits until task 1 has run on another thread: only a pool thread can run it then.
  Gate second_ran;
  std::atomic<std::thread::id> second_thread{};
  std::vector<std::function<void()>> tasks;
  tasks.emplace_back([&] { second_ran.Wait(); });
  tasks.emplace_back([&] {
    second_thread = std::this_thread::get_id();
    second_ran.Open();
  });
  client->RunParallel(Pool::kLow, std::move(tasks));
  EXPECT_NE(second_thread.load(), std::this_thread::get_id());
}

TEST(TaskSchedulerTest, SetThreadsGrowsAndShrinks) {
  TaskScheduler scheduler({1, 1, 1});
  scheduler.SetThreads(Pool::kLow, 4);
  EXPECT_EQ(scheduler.Threads(Pool::kLow), 4);
  EXPECT_EQ(scheduler.TotalThreads(), 7);
  auto client = scheduler.NewClient();
  // Four tasks that each wait for all four to have started: only four threads get there.
  std::atomic<int> started{0};
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(client->Schedule(Pool::kLow, [&] {
      started++;
      Eventually([&] { return started.load() == 4; });
    }));
  }
  ASSERT_TRUE(Eventually([&] { return started.load() == 4; }));
  scheduler.SetThreads(Pool::kLow, 1);
  EXPECT_EQ(scheduler.Threads(Pool::kLow), 1);
  EXPECT_EQ(scheduler.TotalThreads(), 4);
  std::atomic<bool> ran{false};
  ASSERT_TRUE(client->Schedule(Pool::kLow, [&] { ran = true; }));
  EXPECT_TRUE(Eventually([&] { return ran.load(); }));
  scheduler.EnsureThreads(Pool::kLow, 3);
  EXPECT_EQ(scheduler.Threads(Pool::kLow), 3);
  scheduler.EnsureThreads(Pool::kLow, 2);  // never shrinks
  EXPECT_EQ(scheduler.Threads(Pool::kLow), 3);
  scheduler.SetThreads(Pool::kLow, 0);  // clamped
  EXPECT_EQ(scheduler.Threads(Pool::kLow), 1);
  client->Close();
}

TEST(TaskSchedulerTest, ManyClientsScheduleAndCloseAtOnce) {
  TaskScheduler scheduler({2, 2, 2});
  std::atomic<uint64_t> ran{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; round++) {
        auto client = scheduler.NewClient();
        // Each task re-queues itself a few times, as a drain or a compaction does.
        auto value = std::make_shared<std::atomic<int>>(0);
        std::function<void()> step = [&, value, c = client.get()] {
          ran++;
          if (value->fetch_add(1) < 20) {
            c->Schedule(static_cast<Pool>(value->load() % 3), [&, value, c] {
              ran++;
              value->fetch_add(1);
            });
          }
        };
        for (int i = 0; i < 8; i++) client->Schedule(static_cast<Pool>((t + i) % 3), step);
        client->ScheduleAfter(Pool::kLow, std::chrono::microseconds(round * 10), step);
        if (round % 2 == 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
        client->Close();
        const int after = value->load();
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        EXPECT_EQ(value->load(), after);  // nothing of a closed client runs
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_GT(ran.load(), 0u);
  for (Pool pool : {Pool::kHigh, Pool::kLow, Pool::kDrain}) {
    EXPECT_EQ(scheduler.Counts(pool).queued, 0u);
  }
}

}  // namespace
}  // namespace sluice
