// db/sequence_oracle_test.cc — the Active set's waits: a fence, a batch wait or a scan's wait
// for the writes below its read point must not pass a slot that is claimed but has not shown
// its sequence number yet (the number is drawn before it is shown; a write that skips the WAL
// draws it without the log's lock, so a smaller number may show up after a larger one); and
// linearizable read points: they cover announced writes, not writes still being logged, and
// the gate ends their retries.

#include "db/sequence_oracle.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace sluice {
namespace {

// Runs wait() on a thread; reports whether it has returned.
class Waiter {
 public:
  template <typename Wait>
  explicit Waiter(Wait wait)
      : thread_([this, wait] {
          wait();
          done_.store(true);
        }) {}
  ~Waiter() { thread_.join(); }
  bool done() const { return done_.load(); }
  // True once the wait has returned, false if it is still waiting after a while.
  bool ReturnsWithin(std::chrono::milliseconds limit) const {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return done();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

constexpr auto kWhile = std::chrono::milliseconds(100);
constexpr auto kLong = std::chrono::seconds(30);

TEST(SequenceOracleTest, FenceWaitsForAClaimedSlotToShowItsNumber) {
  SequenceOracle oracle;
  const uint64_t key = SequenceOracle::KeyTag("k");
  const int claimed = oracle.ClaimSlot();  // about to draw a number: may be below the fence's
  const int rmw = oracle.ClaimSlot();
  const SequenceNumber ts = oracle.AssignSequence(rmw, /*multi_entry=*/false, key);
  Waiter fence([&] { oracle.FenceBelow(ts, key); });
  EXPECT_FALSE(fence.ReturnsWithin(kWhile));  // the claimed slot may hold a smaller number
  // It draws a larger one: nothing to wait for any more.
  EXPECT_GT(oracle.AssignSequence(claimed, /*multi_entry=*/false, key), ts);
  EXPECT_TRUE(fence.ReturnsWithin(kLong));
  oracle.Release(claimed, false);
  oracle.Release(rmw, false);
}

TEST(SequenceOracleTest, FenceWaitsForAClaimedSlotGivenBack) {
  SequenceOracle oracle;
  const uint64_t key = SequenceOracle::KeyTag("k");
  const int claimed = oracle.ClaimSlot();
  const int rmw = oracle.ClaimSlot();
  const SequenceNumber ts = oracle.AssignSequence(rmw, /*multi_entry=*/false, key);
  Waiter fence([&] { oracle.FenceBelow(ts, key); });
  EXPECT_FALSE(fence.ReturnsWithin(kWhile));
  oracle.Release(claimed, false);  // abandoned before drawing (a sealed log)
  EXPECT_TRUE(fence.ReturnsWithin(kLong));
  oracle.Release(rmw, false);
}

TEST(SequenceOracleTest, FenceWaitsForASmallerNumberOfTheKeyUntilReleased) {
  SequenceOracle oracle;
  const uint64_t key = SequenceOracle::KeyTag("k");
  const uint64_t other = SequenceOracle::KeyTag("other");
  const int put = oracle.ClaimSlot();
  const int unrelated = oracle.ClaimSlot();
  oracle.AssignSequence(put, /*multi_entry=*/false, key);
  oracle.AssignSequence(unrelated, /*multi_entry=*/false, other);
  const int rmw = oracle.ClaimSlot();
  const SequenceNumber ts = oracle.AssignSequence(rmw, /*multi_entry=*/false, key);
  Waiter fence([&] { oracle.FenceBelow(ts, key); });
  EXPECT_FALSE(fence.ReturnsWithin(kWhile));  // the put of the same key is in flight
  oracle.Release(put, false);
  EXPECT_TRUE(fence.ReturnsWithin(kLong));  // the other key's write is not waited for
  oracle.Release(unrelated, false);
  oracle.Release(rmw, false);
}

TEST(SequenceOracleTest, WaitForWritesCoversAClaimedSlot) {
  // A scan picks its read point, then waits for the writes at or below it. A writer that has
  // claimed its slot may have drawn a number below the read point without showing it yet.
  SequenceOracle oracle;
  const int done = oracle.ClaimSlot();
  const SequenceNumber first = oracle.AssignSequence(done, /*multi_entry=*/false);
  oracle.Release(done, false);
  const int claimed = oracle.ClaimSlot();
  Waiter scan([&] { oracle.WaitForWritesUpTo(first); });
  EXPECT_FALSE(scan.ReturnsWithin(kWhile));
  const SequenceNumber drawn = oracle.AssignSequence(claimed, /*multi_entry=*/false);
  EXPECT_GT(drawn, first);  // above the read point: nothing to wait for
  EXPECT_TRUE(scan.ReturnsWithin(kLong));
  // A write at or below the point shown in its slot is waited for until released.
  Waiter second([&] { oracle.WaitForWritesUpTo(drawn); });
  EXPECT_FALSE(second.ReturnsWithin(kWhile));
  oracle.Release(claimed, false);
  EXPECT_TRUE(second.ReturnsWithin(kLong));
}

TEST(SequenceOracleTest, BatchWaitCoversABatchThatHasNotShownItsNumber) {
  SequenceOracle oracle;
  // A batch claims its slot; a single write then draws a number and waits for smaller batches.
  const int batch = oracle.ClaimSlot();
  const int write = oracle.ClaimSlot();
  const SequenceNumber ts = oracle.AssignSequence(write, /*multi_entry=*/false);
  Waiter wait([&] { oracle.WaitForBatchesBelow(ts); });
  // No batch is counted in flight yet, so the wait does not look at the slots at all.
  EXPECT_TRUE(wait.ReturnsWithin(kLong));
  // Once a batch is in flight with a smaller number, the wait holds until it is released.
  const int later = oracle.ClaimSlot();
  const SequenceNumber batch_seq = oracle.AssignSequence(batch, /*multi_entry=*/true);
  const SequenceNumber later_seq = oracle.AssignSequence(later, /*multi_entry=*/false);
  ASSERT_LT(batch_seq, later_seq);
  Waiter second([&] { oracle.WaitForBatchesBelow(later_seq); });
  EXPECT_FALSE(second.ReturnsWithin(kWhile));
  oracle.Release(batch, /*multi_entry=*/true);
  EXPECT_TRUE(second.ReturnsWithin(kLong));
  oracle.Release(write, false);
  oracle.Release(later, false);
}

TEST(SequenceOracleTest, LinearizableSnapshotPassesOverAWriteStillLogging) {
  SequenceOracle oracle;
  const int logging = oracle.ClaimSlot();
  const SequenceNumber seq = oracle.AssignSequence(logging, /*multi_entry=*/false);
  // Not announced: no reader can have seen it, so a snapshot is ordered before it at once.
  Waiter snapshot([&] { EXPECT_LT(oracle.SnapshotSequence(/*linearizable=*/true), seq); });
  EXPECT_TRUE(snapshot.ReturnsWithin(kLong));
  oracle.Announce(seq);
  // Announced (a reader may see it once inserted): the next snapshot covers it, so it waits.
  Waiter covering([&] { EXPECT_GE(oracle.SnapshotSequence(/*linearizable=*/true), seq); });
  EXPECT_FALSE(covering.ReturnsWithin(kWhile));
  oracle.Release(logging, false);
  EXPECT_TRUE(covering.ReturnsWithin(kLong));
}

TEST(SequenceOracleTest, AReaderThatSawAWriteAnnouncesIt) {
  // A point read found a version of a write that has inserted but not announced yet: the write
  // takes effect then, so a snapshot taken afterwards covers it, waiting for it to finish.
  SequenceOracle oracle;
  const int inserting = oracle.ClaimSlot();
  const SequenceNumber seq = oracle.AssignSequence(inserting, /*multi_entry=*/false);
  EXPECT_LT(oracle.AnnouncedSequence(), seq);
  oracle.EnsureAnnounced(seq);
  EXPECT_EQ(oracle.AnnouncedSequence(), seq);
  oracle.EnsureAnnounced(seq - 1);  // older: nothing to do
  EXPECT_EQ(oracle.AnnouncedSequence(), seq);
  Waiter snapshot([&] { EXPECT_GE(oracle.SnapshotSequence(true), seq); });
  EXPECT_FALSE(snapshot.ReturnsWithin(kWhile));
  oracle.Announce(seq);  // the write's own announcement changes nothing
  oracle.Release(inserting, false);
  EXPECT_TRUE(snapshot.ReturnsWithin(kLong));
  // Another oracle (a thread remembers what it saw of each one apart).
  SequenceOracle other;
  const int slot = other.ClaimSlot();
  const SequenceNumber first = other.AssignSequence(slot, false);
  other.EnsureAnnounced(first);
  EXPECT_EQ(other.AnnouncedSequence(), first);
  other.Release(slot, false);
}

TEST(SequenceOracleTest, LinearizableSnapshotCoversALaterWriteThatInsertedFirst) {
  // Two overlapping writes: the older is still logging when the newer has inserted and
  // returned. A snapshot must show the newer one, so it includes, and waits for, the older.
  SequenceOracle oracle;
  const int older = oracle.ClaimSlot();
  const SequenceNumber older_seq = oracle.AssignSequence(older, false);
  const int newer = oracle.ClaimSlot();
  const SequenceNumber newer_seq = oracle.AssignSequence(newer, false);
  oracle.Announce(newer_seq);
  oracle.Release(newer, false);
  Waiter snapshot([&] { EXPECT_GE(oracle.SnapshotSequence(true), newer_seq); });
  EXPECT_FALSE(snapshot.ReturnsWithin(kWhile));
  oracle.Announce(older_seq);
  oracle.Release(older, false);
  EXPECT_TRUE(snapshot.ReturnsWithin(kLong));
}

TEST(SequenceOracleTest, ReadPointRetriesThenGatesWritesThatKeepInsertingAbove) {
  // Every ungated proposal is overtaken by a write announcing above it (overlapping writers);
  // the gated proposal holds new writes back until the read point is chosen.
  SequenceOracle oracle;
  int ungated = 0;
  std::unique_ptr<Waiter> held;
  std::atomic<bool> held_done{false};
  SequenceNumber held_seq = 0;
  const SequenceNumber point = oracle.LinearizablePoint([&](SequenceNumber cap, bool first) {
    EXPECT_EQ(first, ungated == 0 && cap == kMaxSequenceNumber);
    const SequenceNumber p = std::min(cap, oracle.AnnouncedSequence());
    if (cap == kMaxSequenceNumber) {
      ungated++;
      const int slot = oracle.ClaimSlot();
      oracle.Announce(oracle.AssignSequence(slot, false));  // a write that overtakes
      oracle.Release(slot, false);
    } else if (held == nullptr) {
      // Under the gate: a new write above it waits before inserting.
      const int slot = oracle.ClaimSlot();
      held_seq = oracle.AssignSequence(slot, false);
      EXPECT_GT(held_seq, cap);
      held = std::make_unique<Waiter>([&, slot] {
        oracle.PassGate(held_seq);  // before inserting
        oracle.Announce(held_seq);
        oracle.Release(slot, false);
        held_done.store(true);
      });
      EXPECT_FALSE(held->ReturnsWithin(kWhile));
    }
    return p;
  });
  EXPECT_GE(ungated, 1);
  ASSERT_NE(held, nullptr);
  EXPECT_LT(point, held_seq);
  EXPECT_TRUE(held->ReturnsWithin(kLong));  // the gate opened when the point was chosen
  EXPECT_EQ(oracle.AnnouncedSequence(), held_seq);
}

}  // namespace
}  // namespace sluice
