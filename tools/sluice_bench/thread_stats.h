// sluice_bench/thread_stats.h — what one benchmark thread measures while it runs.
//
// Wall-clock start and finish, operations, bytes moved, lookups that found their key, and (with
// --histogram) the latency of each operation or batch. Owned by one thread; merged into a
// BenchResult after the threads have joined. Only progress() may be read while the thread
// runs (the --stats_interval_seconds sampler).

#ifndef SLUICE_BENCH_THREAD_STATS_H_
#define SLUICE_BENCH_THREAD_STATS_H_

#include <atomic>
#include <cstdint>

#include "sluice_bench/histogram.h"

namespace sluice_bench {

// Monotonic clock in nanoseconds.
uint64_t NowNanos();

class ThreadStats {
 public:
  explicit ThreadStats(bool measure_latency) : measure_latency_(measure_latency) {}

  void Start() { start_ns_ = NowNanos(); }
  void Stop() { finish_ns_ = NowNanos(); }

  // The start time of an operation if latencies are measured, else 0 (no clock read).
  uint64_t OpStart() const { return measure_latency_ ? NowNanos() : 0; }
  // Counts `ops` operations moving `bytes` that began at op_start (from OpStart).
  void FinishedOps(uint64_t op_start, uint64_t ops, uint64_t bytes) {
    if (measure_latency_) latency_.Record(NowNanos() - op_start);
    ops_ += ops;
    bytes_ += bytes;
    // relaxed: a monotonic count for the sampler, which needs no other data with it. One writer,
    // so a plain store (no read-modify-write) suffices.
    progress_.store(ops_, std::memory_order_relaxed);
  }
  // Operations finished so far; safe to read from another thread.
  uint64_t progress() const { return progress_.load(std::memory_order_relaxed); }
  void AddLookups(uint64_t lookups, uint64_t found) {
    lookups_ += lookups;
    found_ += found;
  }

  bool measure_latency() const { return measure_latency_; }
  uint64_t start_ns() const { return start_ns_; }
  uint64_t finish_ns() const { return finish_ns_; }
  uint64_t ops() const { return ops_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t lookups() const { return lookups_; }
  uint64_t found() const { return found_; }
  const LatencyHistogram& latency() const { return latency_; }

 private:
  bool measure_latency_;
  uint64_t start_ns_ = 0;
  uint64_t finish_ns_ = 0;
  uint64_t ops_ = 0;
  uint64_t bytes_ = 0;
  uint64_t lookups_ = 0;
  uint64_t found_ = 0;
  std::atomic<uint64_t> progress_{0};
  LatencyHistogram latency_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_THREAD_STATS_H_
