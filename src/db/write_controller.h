// db/write_controller.h — the write stall policy: from the shape of the tree (L0 files and the
// compaction debt), whether writes run freely, are paced, or wait; and the pacing itself.
//
// The triggers are RocksDB's and mean what they mean there:
//   stopped  L0 files >= level0_stop_writes_trigger, or pending compaction bytes >=
//            hard_pending_compaction_bytes_limit (when not 0): writes wait until compaction
//            brings the tree below both.
//   delayed  L0 files >= level0_slowdown_writes_trigger, or pending compaction bytes >=
//            soft_pending_compaction_bytes_limit (when not 0): writes are paced to a rate.
//   normal   otherwise.
// The rate is where sluice differs: it is a function of how far into the delayed range the
// tree is, not a ratchet. Let f in [0, 1) be the larger of (L0 files - slowdown) / (stop -
// slowdown) and (pending - soft) / (hard - soft). Then rate = start * (1 - 15/16 f^2), where
// start is the rate writes ran at when the slowdown began (measured over the installs before
// it), but no more than their average over the last 30 s (what the background work kept up
// with), or delayed_write_rate when that is not 0. So a slowdown begins with no step down
// in throughput, and the deeper compaction falls behind the slower writes go; at the stop
// trigger it is 1/16 of start, then writes stop. Quadratic, not linear, in f: a sustained fill
// enters the range on every long L0 -> L1 job (L0 fills while the job rewrites L1, and drops
// only when it ends), so the first part of the range is the normal swing, paced little (3/4 of
// start half way); the steep part is near the stop, so a sustained fill has fewer slow
// intervals at the same mean. It does not smooth what the tree does in steps: an L0 -> L1 job
// that ends drops L0 by all its inputs at once, and writes run free until the trigger again.
//
// Thread safety: Update is called with the DB mutex held (serialised); State and Pace are
// called by writers concurrently, without it. The state and rate are advisory snapshots: a
// write that reads a stale one is paced (or not) by one install's worth of difference, which
// the next write corrects; so they are relaxed atomics. A stopped write re-reads the state
// under the DB mutex, which Update is called under, and waits on the condition variable the
// installs signal: it cannot miss the install that ends the stop. Pace's virtual clock has its
// own mutex, taken only by writes in the delayed state.

#ifndef SLUICE_DB_WRITE_CONTROLLER_H_
#define SLUICE_DB_WRITE_CONTROLLER_H_

#include <atomic>
#include <cstdint>

#include "sluice/options.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class WriteController {
 public:
  enum class State : uint8_t { kNormal, kDelayed, kStopped };

  // What Update looks at: the tree after an install, and the writes applied so far.
  struct Inputs {
    int l0_files = 0;
    uint64_t pending_compaction_bytes = 0;
    uint64_t bytes_written = 0;  // user bytes written since open (monotonic)
    uint64_t now_micros = 0;
  };

  explicit WriteController(const Options& options);

  // Recomputes the state and the rate. REQUIRES: calls are serialised (the DB mutex).
  void Update(const Inputs& in);

  State state() const { return state_.load(std::memory_order_relaxed); }
  // Bytes per second writes are paced to (0 unless delayed).
  uint64_t delayed_write_rate() const { return rate_.load(std::memory_order_relaxed); }
  // The compaction debt the last Update saw (for properties).
  uint64_t pending_compaction_bytes() const { return pending_.load(std::memory_order_relaxed); }

  // Reserves `bytes` of the delayed rate for one write at now_micros and returns how long the
  // write must sleep first (0 while the virtual clock is less than kMinSleepMicros ahead, so
  // writes sleep in slices of at least that, not a few microseconds each). 0 if not delayed.
  uint64_t Pace(uint64_t bytes, uint64_t now_micros) EXCLUDES(pace_mu_);

  static constexpr uint64_t kMinSleepMicros = 1000;
  // The rate at the stop end of the delayed range, as a fraction of the starting rate.
  static constexpr double kSlowestFraction = 1.0 / 16;
  // Writes are measured over at least this long before a slowdown takes their rate as start.
  static constexpr uint64_t kRateWindowMicros = 100000;
  // ...and a slowdown starts no faster than their average over the last window this long.
  static constexpr uint64_t kLongRateWindowMicros = 30000000;
  // Floor of any paced rate (RocksDB's minimum write rate).
  static constexpr uint64_t kMinRate = 16 << 10;

 private:
  // How far into the delayed range the tree is: < 0 normal, [0, 1) delayed, >= 1 stopped.
  double Depth(const Inputs& in) const;
  // The write rate over consecutive windows of at least `length` microseconds: Add returns
  // the rate of the last window that ended (0 before the first one ends).
  struct RateWindow {
    uint64_t length;
    uint64_t start_bytes = 0, start_micros = 0, rate = 0;
    uint64_t Add(const Inputs& in);
  };

  const Options options_;
  std::atomic<State> state_{State::kNormal};
  std::atomic<uint64_t> rate_{0};
  std::atomic<uint64_t> pending_{0};

  // Guarded by the serialisation of Update.
  uint64_t start_rate_ = 0;  // the rate a slowdown started from
  RateWindow recent_{kRateWindowMicros};
  RateWindow long_run_{kLongRateWindowMicros};

  Mutex pace_mu_;
  // The virtual clock: when the next write may start.
  uint64_t next_free_micros_ GUARDED_BY(pace_mu_) = 0;
};

}  // namespace sluice

#endif  // SLUICE_DB_WRITE_CONTROLLER_H_
