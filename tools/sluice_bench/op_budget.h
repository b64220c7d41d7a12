// sluice_bench/op_budget.h — decides whether a benchmark thread starts another operation: a
// count of operations, or a deadline with --duration (the clock is read once every few
// operations, so a timed run costs no clock read per operation).

#ifndef SLUICE_BENCH_OP_BUDGET_H_
#define SLUICE_BENCH_OP_BUDGET_H_

#include <cstdint>

#include "sluice_bench/thread_stats.h"

namespace sluice_bench {

class OpBudget {
 public:
  // With a duration, the clock is read once per this many calls of More.
  static constexpr uint64_t kClockCheckInterval = 8;

  // duration_seconds > 0: run until then, ignoring max_ops.
  OpBudget(uint64_t max_ops, int duration_seconds)
      : max_ops_(max_ops),
        deadline_ns_(duration_seconds > 0
                         ? NowNanos() + static_cast<uint64_t>(duration_seconds) * 1000000000ULL
                         : 0) {}

  bool timed() const { return deadline_ns_ != 0; }

  // `done`: operations finished so far.
  bool More(uint64_t done) {
    if (deadline_ns_ == 0) return done < max_ops_;
    if (expired_) return false;
    if (calls_++ % kClockCheckInterval == 0) expired_ = NowNanos() >= deadline_ns_;
    return !expired_;
  }

 private:
  uint64_t max_ops_;
  uint64_t deadline_ns_;
  uint64_t calls_ = 0;
  bool expired_ = false;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_OP_BUDGET_H_
