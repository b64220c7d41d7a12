// db/sequence_oracle_test.cc — the Active set's waits: a fence, a batch wait or a scan's wait
// for the writes below its read point must not pass a slot that is claimed but has not shown
// its sequence number yet (the number is drawn before it is shown; a write that skips the WAL
// draws it without the log's lock, so a smaller number may show up after a larger one).

#include "db/sequence_oracle.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
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

}  // namespace
}  // namespace sluice
