// db/write_controller.cc — see write_controller.h for the policy and its thread safety.

#include "db/write_controller.h"

#include <algorithm>

namespace sluice {

namespace {

// Where x lies in [low, high): < 0 below, [0, 1) inside, >= 1 at or above high.
double Fraction(double x, double low, double high) {
  if (high <= low) return x >= high ? 1.0 : -1.0;
  return (x - low) / (high - low);
}

}  // namespace

WriteController::WriteController(const Options& options) : options_(options) {}

double WriteController::Depth(const Inputs& in) const {
  double depth = Fraction(in.l0_files, options_.level0_slowdown_writes_trigger,
                          options_.level0_stop_writes_trigger);
  const auto pending = static_cast<double>(in.pending_compaction_bytes);
  const auto soft = static_cast<double>(options_.soft_pending_compaction_bytes_limit);
  const auto hard = static_cast<double>(options_.hard_pending_compaction_bytes_limit);
  if (soft > 0 && hard > 0) {
    depth = std::max(depth, Fraction(pending, soft, hard));
  } else if (soft > 0) {
    // No stop: the rate falls over [soft, 4 soft) and stays at its slowest beyond.
    depth = std::max(depth, std::min(Fraction(pending, soft, 4 * soft), 0.999));
  } else if (hard > 0 && pending >= hard) {
    depth = 1.0;  // a stop with no slowdown before it
  }
  return depth;
}

uint64_t WriteController::RateWindow::Add(const Inputs& in) {
  if (start_micros == 0 || in.bytes_written < start_bytes || in.now_micros < start_micros) {
    start_bytes = in.bytes_written;
    start_micros = in.now_micros;
    return rate;
  }
  const uint64_t elapsed = in.now_micros - start_micros;
  if (elapsed >= length) {
    rate = static_cast<uint64_t>(static_cast<double>(in.bytes_written - start_bytes) * 1e6 /
                                 static_cast<double>(elapsed));
    start_bytes = in.bytes_written;
    start_micros = in.now_micros;
  }
  return rate;
}

void WriteController::Update(const Inputs& in) {
  pending_.store(in.pending_compaction_bytes, std::memory_order_relaxed);
  const State before = state_.load(std::memory_order_relaxed);
  // Measured in every state, but taken as a start only when a slowdown begins from normal:
  // writes measured while paced or stopped show the controller's rate, not the writers'.
  const uint64_t measured = recent_.Add(in);
  const uint64_t long_run = long_run_.Add(in);
  const double depth = Depth(in);
  if (depth < 0) {
    rate_.store(0, std::memory_order_relaxed);
    state_.store(State::kNormal, std::memory_order_relaxed);
    return;
  }
  if (before == State::kNormal || start_rate_ == 0) {
    if (options_.delayed_write_rate > 0) {
      start_rate_ = options_.delayed_write_rate;
    } else {
      // The writers' rate, but no more than the long-run rate: under a sustained load the
      // writes alternate between free bursts and slowdowns, and their average over the last
      // window is what flushes and compactions kept up with, so a slowdown that starts above
      // it only lets the backlog grow to the stop trigger. Nothing measured yet (a DB reopened
      // with a backlog): RocksDB's default rate.
      start_rate_ = measured > 0 ? measured : (16u << 20);
      if (long_run > 0) start_rate_ = std::min(start_rate_, long_run);
    }
  }
  if (depth >= 1) {
    rate_.store(0, std::memory_order_relaxed);
    state_.store(State::kStopped, std::memory_order_relaxed);
    return;
  }
  // Quadratic in the depth: gentle while the backlog is what one long L0 -> L1 job leaves
  // behind, steep near the stop (see the header).
  const double rate =
      static_cast<double>(start_rate_) * (1.0 - (1.0 - kSlowestFraction) * depth * depth);
  rate_.store(std::max(kMinRate, static_cast<uint64_t>(rate)), std::memory_order_relaxed);
  state_.store(State::kDelayed, std::memory_order_relaxed);
}

uint64_t WriteController::Pace(uint64_t bytes, uint64_t now_micros) {
  if (state() != State::kDelayed) return 0;
  const uint64_t rate = std::max(kMinRate, delayed_write_rate());
  MutexLock l(&pace_mu_);
  // No credit for time nobody wrote in: the clock restarts from now.
  next_free_micros_ = std::max(next_free_micros_, now_micros);
  const uint64_t wait = next_free_micros_ - now_micros;
  next_free_micros_ +=
      static_cast<uint64_t>(static_cast<double>(bytes) * 1e6 / static_cast<double>(rate));
  return wait >= kMinSleepMicros ? wait : 0;
}

}  // namespace sluice
