// db/memory_budget_test.cc — the memory budget's counts (charges in steps, moved out of the
// mutable count at a switch, gone at release or destruction), its thresholds (RocksDB's flush
// rule, the stall from 7/8 of the cap while a flush can help, both lowered by the mutable
// components' headroom), the components' share of the cap, its one outstanding flush request
// aimed at the client with the most mutable bytes, and the stall wait woken by a release.

#include "db/memory_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "sluice/write_buffer_manager.h"

namespace sluice {
namespace {

constexpr size_t kKiB = 1 << 10;
constexpr size_t kMiB = 1 << 20;

struct CountingClient {
  std::shared_ptr<MemoryBudget::Client> client = std::make_shared<MemoryBudget::Client>();
  std::atomic<int> requests{0};
  CountingClient() {
    client->request_flush = [this] { requests.fetch_add(1); };
  }
};

TEST(MemoryBudget, ChargesInStepsAndLeavesTheMutableCountAtASwitch) {
  auto manager = std::make_shared<WriteBufferManager>(16 * kMiB);
  MemoryBudget& budget = manager->budget();
  EXPECT_EQ(budget.step(), 64 * kKiB);  // 16 MiB / 256
  CountingClient c;
  {
    MemoryCharge charge(manager, c.client, 100 * kKiB);  // the empty component: not filled
    EXPECT_EQ(manager->memory_usage(), 100 * kKiB);
    EXPECT_EQ(c.client->filled_bytes.load(), 0u);
    charge.Update(100 * kKiB + budget.step() - 1);  // less than a step more: not charged yet
    EXPECT_EQ(manager->memory_usage(), 100 * kKiB);
    charge.Update(300 * kKiB);
    EXPECT_EQ(manager->memory_usage(), 300 * kKiB);
    EXPECT_EQ(manager->mutable_memtable_memory_usage(), 300 * kKiB);
    EXPECT_EQ(c.client->filled_bytes.load(), 200 * kKiB);

    charge.MarkImmutable();
    EXPECT_EQ(manager->memory_usage(), 300 * kKiB);
    EXPECT_EQ(manager->mutable_memtable_memory_usage(), 0u);
    EXPECT_EQ(c.client->filled_bytes.load(), 0u);
    // Writes that reserved before the switch still land in it: total only.
    charge.Update(400 * kKiB);
    EXPECT_EQ(manager->memory_usage(), 400 * kKiB);
    EXPECT_EQ(manager->mutable_memtable_memory_usage(), 0u);

    charge.Release();
    EXPECT_EQ(manager->memory_usage(), 0u);
    charge.Update(800 * kKiB);  // released: nothing more is charged
    EXPECT_EQ(manager->memory_usage(), 0u);
    charge.Release();  // idempotent
  }
  EXPECT_EQ(manager->memory_usage(), 0u);
  {
    MemoryCharge mutable_charge(manager, c.client, 0);
    mutable_charge.Update(1 * kMiB);
    EXPECT_EQ(manager->mutable_memtable_memory_usage(), 1 * kMiB);
  }  // destroyed unreleased: its bytes leave both counts
  EXPECT_EQ(manager->memory_usage(), 0u);
  EXPECT_EQ(manager->mutable_memtable_memory_usage(), 0u);
  EXPECT_EQ(c.client->filled_bytes.load(), 0u);
}

// Each mutable charge's headroom lowers where flushes start and writes wait, so that what the
// components add before a write sees it stays under the cap; at least an eighth of the cap is
// kept, and the limit never falls below half of it.
TEST(MemoryBudget, HeadroomLowersTheSoftLimit) {
  auto manager = std::make_shared<WriteBufferManager>(8 * kMiB, /*allow_stall=*/true);
  MemoryBudget& budget = manager->budget();
  CountingClient c;
  EXPECT_EQ(budget.soft_limit(), 7 * kMiB);  // no charges: 7/8
  {
    MemoryCharge small(manager, c.client, 0, 512 * kKiB);  // under an eighth: still 7/8
    EXPECT_EQ(budget.headroom(), 512 * kKiB);
    EXPECT_EQ(budget.mutable_charges(), 1u);
    EXPECT_EQ(budget.soft_limit(), 7 * kMiB);
    MemoryCharge a(manager, c.client, 0, 1 * kMiB);
    MemoryCharge b(manager, c.client, 0, 1 * kMiB);
    EXPECT_EQ(budget.soft_limit(), 8 * kMiB - 2560 * kKiB);
    a.Update(5 * kMiB);  // 5 MiB of 5.5: no flush, no stall yet
    EXPECT_FALSE(budget.ShouldFlush());
    EXPECT_FALSE(budget.ShouldStall());
    a.Update(5 * kMiB + 768 * kKiB);  // past 5.5 MiB
    EXPECT_TRUE(budget.ShouldFlush());
    EXPECT_TRUE(budget.ShouldStall());
    a.MarkImmutable();  // its headroom goes: nothing more is written into it
    EXPECT_EQ(budget.headroom(), 1536 * kKiB);
    EXPECT_EQ(budget.mutable_charges(), 2u);
    EXPECT_EQ(budget.soft_limit(), 8 * kMiB - 1536 * kKiB);
    MemoryCharge huge(manager, c.client, 0, 6 * kMiB);  // more than half the cap: half
    EXPECT_EQ(budget.soft_limit(), 4 * kMiB);
    huge.Release();
    b.Release();
    EXPECT_EQ(budget.headroom(), 512 * kKiB);
  }  // destroyed: their headroom leaves with them
  EXPECT_EQ(budget.headroom(), 0u);
  EXPECT_EQ(budget.mutable_charges(), 0u);
  EXPECT_EQ(budget.soft_limit(), 7 * kMiB);
}

// A new component's size is its share of the cap among the mutable components (a quarter at
// most, 64 KiB at least), or what the family asked for if smaller.
TEST(MemoryBudget, ComponentsAreSizedForTheirShare) {
  auto manager = std::make_shared<WriteBufferManager>(40 * kMiB);
  MemoryBudget& budget = manager->budget();
  CountingClient c;
  EXPECT_EQ(budget.ComponentSize(64 * kMiB), 10 * kMiB);  // a quarter
  EXPECT_EQ(budget.ComponentSize(1 * kMiB), 1 * kMiB);    // asked for less
  std::vector<std::unique_ptr<MemoryCharge>> charges;
  for (int i = 0; i < 9; i++) {
    charges.push_back(std::make_unique<MemoryCharge>(manager, c.client, 0, 0));
  }
  EXPECT_EQ(budget.ComponentSize(64 * kMiB), 4 * kMiB);  // a tenth: nine others
  for (int i = 0; i < 991; i++) {
    charges.push_back(std::make_unique<MemoryCharge>(manager, c.client, 0, 0));
  }
  EXPECT_EQ(budget.ComponentSize(64 * kMiB), 64 * kKiB);  // at least 64 KiB
}

TEST(MemoryBudget, StepsScaleWithTheCap) {
  EXPECT_EQ(WriteBufferManager(0).budget().step(), 64 * kKiB);  // counting only
  EXPECT_EQ(WriteBufferManager(1 * kMiB).budget().step(), 4 * kKiB);
  EXPECT_EQ(WriteBufferManager(256 * kKiB).budget().step(), 4 * kKiB);    // at least 4 KiB
  EXPECT_EQ(WriteBufferManager(1024 * kMiB).budget().step(), 64 * kKiB);  // at most 64 KiB
}

TEST(MemoryBudget, FlushAndStallThresholds) {
  auto manager = std::make_shared<WriteBufferManager>(8 * kMiB, /*allow_stall=*/true);
  MemoryBudget& budget = manager->budget();
  CountingClient c;
  MemoryCharge old_charge(manager, c.client, 0);
  MemoryCharge new_charge(manager, c.client, 0);
  EXPECT_FALSE(budget.ShouldFlush());
  EXPECT_FALSE(budget.ShouldStall());
  new_charge.Update(6 * kMiB);
  EXPECT_FALSE(budget.ShouldFlush());
  EXPECT_FALSE(budget.ShouldStall());
  new_charge.Update(7 * kMiB);  // mutable = 7/8 of the cap: no flush yet, but writes wait
  EXPECT_FALSE(budget.ShouldFlush());
  EXPECT_TRUE(budget.ShouldStall());
  new_charge.Update(7 * kMiB + 64 * kKiB);  // past 7/8
  EXPECT_TRUE(budget.ShouldFlush());

  // Mostly immutable: at the cap, a flush is asked for only while mutable >= half.
  new_charge.MarkImmutable();
  EXPECT_FALSE(budget.ShouldFlush());
  EXPECT_TRUE(budget.ShouldStall());  // its flush is under way
  old_charge.Update(1 * kMiB);        // total 8 MiB + 64 KiB, mutable 1 MiB
  EXPECT_FALSE(budget.ShouldFlush());
  old_charge.Update(4 * kMiB);  // total 11 MiB + 64 KiB, mutable 4 MiB = half
  EXPECT_TRUE(budget.ShouldFlush());
  new_charge.Release();  // total 4 MiB
  EXPECT_FALSE(budget.ShouldStall());
  EXPECT_FALSE(budget.ShouldFlush());

  // No stall without allow_stall, nothing at all with a cap of 0.
  auto no_stall = std::make_shared<WriteBufferManager>(1 * kMiB);
  MemoryCharge big(no_stall, c.client, 0);
  big.Update(4 * kMiB);
  EXPECT_TRUE(no_stall->budget().ShouldFlush());
  EXPECT_FALSE(no_stall->budget().ShouldStall());
  auto counting = std::make_shared<WriteBufferManager>(0, /*allow_stall=*/true);
  MemoryCharge counted(counting, c.client, 0);
  counted.Update(4 * kMiB);
  EXPECT_EQ(counting->memory_usage(), 4 * kMiB);
  EXPECT_FALSE(counting->budget().ShouldFlush());
  EXPECT_FALSE(counting->budget().ShouldStall());
}

TEST(MemoryBudget, OneRequestAtATimeToTheClientWithTheMostMutableBytes) {
  auto manager = std::make_shared<WriteBufferManager>(4 * kMiB);
  MemoryBudget& budget = manager->budget();
  CountingClient small;
  CountingClient large;
  CountingClient unregistered;  // never asked, however large
  budget.Register(small.client);
  budget.Register(large.client);
  MemoryCharge a(manager, small.client, 0);
  MemoryCharge b(manager, large.client, 0);
  MemoryCharge u(manager, unregistered.client, 0);
  MemoryCharge empty(manager, large.client, 16 * kMiB);  // large, but nothing a flush frees
  a.Update(1 * kMiB);
  b.Update(2 * kMiB);
  u.Update(8 * kMiB);

  budget.MaybeRequestFlush();
  budget.MaybeRequestFlush();  // outstanding: not asked again
  EXPECT_EQ(large.requests.load(), 1);
  EXPECT_EQ(small.requests.load(), 0);
  EXPECT_EQ(unregistered.requests.load(), 0);
  EXPECT_EQ(manager->flushes_requested(), 1u);
  budget.FlushRequestDone(small.client.get(), true);  // not the one asked: ignored
  budget.MaybeRequestFlush();
  EXPECT_EQ(large.requests.load(), 1);

  // The large one switched: the next request goes to the small one.
  b.MarkImmutable();
  budget.FlushRequestDone(large.client.get(), true);
  budget.MaybeRequestFlush();
  EXPECT_EQ(small.requests.load(), 1);

  // It found nothing to switch: no new request until its bytes grow a step or bytes are freed.
  budget.FlushRequestDone(small.client.get(), false);
  budget.MaybeRequestFlush();
  EXPECT_EQ(small.requests.load(), 1);
  a.Update(1 * kMiB + budget.step());
  budget.MaybeRequestFlush();
  EXPECT_EQ(small.requests.load(), 2);
  budget.FlushRequestDone(small.client.get(), false);
  b.Release();
  budget.MaybeRequestFlush();
  EXPECT_EQ(small.requests.load(), 3);

  // Unregistering the client asked clears the request; it is never asked again.
  budget.Unregister(small.client);
  budget.MaybeRequestFlush();  // nobody registered with mutable bytes but large (0 now)
  EXPECT_EQ(small.requests.load(), 3);
  EXPECT_EQ(large.requests.load(), 1);
  budget.Unregister(large.client);
}

// At the cap with every byte in empty components, a write does not wait: no flush would help.
TEST(MemoryBudget, NoStallWhenNothingCouldBeFlushed) {
  auto manager = std::make_shared<WriteBufferManager>(1 * kMiB, /*allow_stall=*/true);
  MemoryBudget& budget = manager->budget();
  CountingClient c;
  budget.Register(c.client);
  MemoryCharge empty(manager, c.client, 2 * kMiB);
  EXPECT_TRUE(budget.ShouldStall());  // until a request has been tried
  budget.MaybeRequestFlush();
  EXPECT_EQ(c.requests.load(), 0);  // nobody holds writes
  EXPECT_FALSE(budget.ShouldStall());
  // Writes arrive: a request goes out and the writes wait for it.
  empty.Update(2 * kMiB + budget.step());
  budget.MaybeRequestFlush();
  EXPECT_EQ(c.requests.load(), 1);
  EXPECT_TRUE(budget.ShouldStall());
  budget.FlushRequestDone(c.client.get(), /*switched=*/false);  // it could not switch
  EXPECT_FALSE(budget.ShouldStall());
  budget.Unregister(c.client);
}

TEST(MemoryBudget, AStalledWaitEndsAtARelease) {
  auto manager = std::make_shared<WriteBufferManager>(1 * kMiB, /*allow_stall=*/true);
  MemoryBudget& budget = manager->budget();
  CountingClient c;
  auto charge = std::make_unique<MemoryCharge>(manager, c.client, 0);
  charge->Update(2 * kMiB);
  ASSERT_TRUE(budget.ShouldStall());
  const uint64_t seen = budget.releases();
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    charge->Release();
  });
  // A wait of a minute that a release ends early (a hang here fails the test by timeout).
  budget.WaitForRelease(seen, std::chrono::minutes(1));
  releaser.join();
  EXPECT_NE(budget.releases(), seen);
  EXPECT_FALSE(budget.ShouldStall());
}

}  // namespace
}  // namespace sluice
