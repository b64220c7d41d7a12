// db/write_controller_test.cc — the stall policy's states at RocksDB's triggers (L0 files and
// pending compaction bytes, soft and hard), the rate: the measured write rate where a slowdown
// begins (no faster than the long-run rate), falling with the square of the depth to 1/16 at
// the stop end; and the pacing of the virtual clock (sleeps of at least 1 ms that add up to the
// rate).

#include "db/write_controller.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

constexpr uint64_t kMiB = 1 << 20;

Options ControllerOptions() {
  Options o;
  o.level0_slowdown_writes_trigger = 20;
  o.level0_stop_writes_trigger = 36;
  o.soft_pending_compaction_bytes_limit = 1000 * kMiB;
  o.hard_pending_compaction_bytes_limit = 2000 * kMiB;
  o.delayed_write_rate = 0;
  return o;
}

// Writes measured at `rate` bytes/s for one second, then the tree given.
void Feed(WriteController* c, uint64_t rate, int l0, uint64_t pending) {
  WriteController::Inputs in;
  in.now_micros = 1'000'000;
  c->Update(in);  // opens the measurement window
  in.now_micros = 2'000'000;
  in.bytes_written = rate;
  in.l0_files = l0;
  in.pending_compaction_bytes = pending;
  c->Update(in);
}

TEST(WriteController, StatesFollowTheL0AndPendingTriggers) {
  using State = WriteController::State;
  struct Case {
    int l0;
    uint64_t pending;
    State expected;
  } cases[] = {
      {19, 999 * kMiB, State::kNormal},  {20, 0, State::kDelayed},
      {35, 0, State::kDelayed},          {36, 0, State::kStopped},
      {0, 1000 * kMiB, State::kDelayed}, {0, 1999 * kMiB, State::kDelayed},
      {0, 2000 * kMiB, State::kStopped}, {40, 3000 * kMiB, State::kStopped},
  };
  for (const Case& c : cases) {
    WriteController controller(ControllerOptions());
    Feed(&controller, 64 * kMiB, c.l0, c.pending);
    EXPECT_EQ(controller.state(), c.expected) << c.l0 << " L0 files, " << c.pending << " pending";
    EXPECT_EQ(controller.pending_compaction_bytes(), c.pending);
    EXPECT_EQ(controller.delayed_write_rate() > 0, c.expected == State::kDelayed);
  }
}

TEST(WriteController, ZeroLimitsTurnThePendingTriggersOff) {
  Options o = ControllerOptions();
  o.soft_pending_compaction_bytes_limit = 0;
  o.hard_pending_compaction_bytes_limit = 0;
  WriteController controller(o);
  Feed(&controller, 64 * kMiB, 0, uint64_t{1} << 50);
  EXPECT_EQ(controller.state(), WriteController::State::kNormal);

  // A soft limit alone paces but never stops.
  o.soft_pending_compaction_bytes_limit = 100 * kMiB;
  WriteController soft_only(o);
  Feed(&soft_only, 64 * kMiB, 0, uint64_t{1} << 50);
  EXPECT_EQ(soft_only.state(), WriteController::State::kDelayed);
  EXPECT_GE(soft_only.delayed_write_rate(), WriteController::kMinRate);
}

TEST(WriteController, ASlowdownStartsAtTheMeasuredRateAndFallsWithDepth) {
  WriteController controller(ControllerOptions());
  Feed(&controller, 64 * kMiB, 20, 0);  // at the trigger: depth 0, no step down
  EXPECT_EQ(controller.delayed_write_rate(), 64 * kMiB);

  // Deeper into the range (in the same slowdown: the start stays): quadratic in the depth.
  WriteController::Inputs in;
  in.now_micros = 2'050'000;
  in.bytes_written = 64 * kMiB;
  in.l0_files = 28;  // half way from 20 to 36
  controller.Update(in);
  const double half = 64.0 * kMiB * (1.0 - (1.0 - WriteController::kSlowestFraction) * 0.25);
  EXPECT_NEAR(static_cast<double>(controller.delayed_write_rate()), half, 1.0);

  // The pending debt, deeper than L0, decides: 3/4 of the way from soft to hard.
  in.pending_compaction_bytes = 1750 * kMiB;
  controller.Update(in);
  const double deep = 64.0 * kMiB * (1.0 - (1.0 - WriteController::kSlowestFraction) * 0.5625);
  EXPECT_NEAR(static_cast<double>(controller.delayed_write_rate()), deep, 1.0);

  // Back to normal, and a new slowdown measures again.
  in.l0_files = 4;
  in.pending_compaction_bytes = 0;
  in.now_micros = 3'000'000;
  in.bytes_written = 64 * kMiB + 8 * kMiB;  // 8 MiB/s since the last window
  controller.Update(in);
  EXPECT_EQ(controller.state(), WriteController::State::kNormal);
  in.now_micros = 4'000'000;
  in.bytes_written += 32 * kMiB;
  in.l0_files = 20;
  controller.Update(in);
  EXPECT_EQ(controller.delayed_write_rate(), 32 * kMiB);
}

TEST(WriteController, ASlowdownStartsNoFasterThanTheLongRunRate) {
  WriteController controller(ControllerOptions());
  WriteController::Inputs in;
  in.now_micros = 1'000'000;
  controller.Update(in);  // both windows open
  // 30 s at 10 MiB/s on average (installs every second), then a burst at 64 MiB/s.
  for (int s = 1; s <= 30; s++) {
    in.now_micros = 1'000'000 + static_cast<uint64_t>(s) * 1'000'000;
    in.bytes_written = static_cast<uint64_t>(s) * 10 * kMiB;
    controller.Update(in);
  }
  in.now_micros += 1'000'000;
  in.bytes_written += 64 * kMiB;
  in.l0_files = 20;
  controller.Update(in);
  EXPECT_EQ(controller.delayed_write_rate(), 10 * kMiB);
}

TEST(WriteController, AConfiguredRateIsWhereEverySlowdownStarts) {
  Options o = ControllerOptions();
  o.delayed_write_rate = 16 * kMiB;
  WriteController controller(o);
  Feed(&controller, 200 * kMiB, 20, 0);
  EXPECT_EQ(controller.delayed_write_rate(), 16 * kMiB);
}

TEST(WriteController, NothingMeasuredStartsAtRocksDBsDefaultRate) {
  WriteController controller(ControllerOptions());
  WriteController::Inputs in;
  in.now_micros = 1'000'000;
  in.l0_files = 20;  // a backlog at the first install (a reopened DB)
  controller.Update(in);
  EXPECT_EQ(controller.delayed_write_rate(), 16 * kMiB);
}

TEST(WriteController, PacingSleepsInSlicesThatAddUpToTheRate) {
  WriteController controller(ControllerOptions());
  Feed(&controller, 1 * kMiB, 20, 0);  // 1 MiB/s: 1 KiB costs ~977 us
  ASSERT_EQ(controller.delayed_write_rate(), 1 * kMiB);
  uint64_t now = 10'000'000;
  uint64_t slept = 0;
  int sleeps = 0;
  for (int i = 0; i < 1024; i++) {  // 1 MiB in 1 KiB writes, from threads that never pause
    const uint64_t wait = controller.Pace(1024, now);
    EXPECT_TRUE(wait == 0 || wait >= WriteController::kMinSleepMicros) << wait;
    if (wait > 0) sleeps++;
    slept += wait;
    now += wait;
  }
  // The writes cost one second of the clock: they slept for all of it but the last few writes.
  EXPECT_NEAR(static_cast<double>(slept), 1e6, 3000);  // up to 3 writes not slept for
  EXPECT_LT(sleeps, 1024);
  // Time nobody wrote in gives no credit: after a pause the next write is not free to burst.
  now += 5'000'000;
  EXPECT_EQ(controller.Pace(1024, now), 0u);
  EXPECT_EQ(controller.Pace(1024, now), 0u);  // 977 us ahead: still below a slice
  EXPECT_GT(controller.Pace(1024, now), 0u);
}

TEST(WriteController, NoPacingUnlessDelayed) {
  WriteController controller(ControllerOptions());
  Feed(&controller, 1 * kMiB, 4, 0);
  EXPECT_EQ(controller.Pace(uint64_t{1} << 30, 1'000'000), 0u);
  EXPECT_EQ(controller.Pace(uint64_t{1} << 30, 1'000'000), 0u);
}

}  // namespace
}  // namespace sluice
