// Tests of util/epoch: a retired object is never freed while a reader that could see it is
// inside its critical section, and is freed once readers have left.

#include "util/epoch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace sluice {

namespace {

struct Tracked {
  explicit Tracked(std::atomic<int>* live, int v) : live(live), value(v) { live->fetch_add(1); }
  ~Tracked() {
    value = -1;
    live->fetch_sub(1);
  }
  std::atomic<int>* live;
  int value;
};

}  // namespace

TEST(Epoch, RetiredObjectOutlivesReaderThatSawIt) {
  std::atomic<int> live{0};
  std::atomic<Tracked*> shared{new Tracked(&live, 1)};
  std::atomic<bool> reader_in{false}, release_reader{false}, freed_early{false};

  std::thread reader([&] {
    epoch::Guard guard;
    Tracked* t = shared.load(std::memory_order_acquire);
    reader_in.store(true);
    while (!release_reader.load()) std::this_thread::yield();
    if (t->value != 1) freed_early.store(true);
  });
  while (!reader_in.load()) std::this_thread::yield();
  Tracked* old = shared.exchange(new Tracked(&live, 2));
  epoch::RetireDelete(old);
  // Give the reclaimer plenty of chances: the object must survive while the reader is inside.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(2, live.load());
  release_reader.store(true);
  reader.join();
  EXPECT_FALSE(freed_early.load());
  epoch::DrainAll();
  EXPECT_EQ(1, live.load());
  delete shared.load();
}

TEST(Epoch, StressReadersAndRetirers) {
  std::atomic<int> live{0};
  std::atomic<Tracked*> shared{new Tracked(&live, 0)};
  std::atomic<bool> stop{false}, bad{false};
  std::vector<std::thread> threads;
  for (int r = 0; r < 3; r++) {
    threads.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) {
        epoch::Guard guard;
        Tracked* t = shared.load(std::memory_order_acquire);
        if (t->value < 0) bad.store(true);
      }
    });
  }
  for (int i = 1; i <= 20000; i++) {
    Tracked* old = shared.exchange(new Tracked(&live, i), std::memory_order_acq_rel);
    epoch::RetireDelete(old);
  }
  stop.store(true);
  for (auto& t : threads) t.join();
  epoch::DrainAll();
  EXPECT_FALSE(bad.load());
  EXPECT_EQ(1, live.load());
  delete shared.load();
}

TEST(Epoch, SynchronizeWaitsForRunningSections) {
  std::atomic<bool> inside{false}, leave{false}, left{false};
  std::thread reader([&] {
    epoch::Enter();
    inside.store(true);
    while (!leave.load()) std::this_thread::yield();
    left.store(true);
    epoch::Exit();
  });
  while (!inside.load()) std::this_thread::yield();
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    leave.store(true);
  });
  epoch::Synchronize();
  EXPECT_TRUE(left.load());
  reader.join();
  releaser.join();
}

}  // namespace sluice
