// db/db_stats.h — counters the DB keeps for GetProperty("sluice.stats") and tools. Relaxed
// atomics (they order nothing); the ones every read or write bumps are sharded per thread;
// per-level compaction figures are guarded by the DB mutex.

#ifndef SLUICE_DB_DB_STATS_H_
#define SLUICE_DB_DB_STATS_H_

#include <atomic>
#include <cstdint>
#include <vector>

#include "util/sharded_counter.h"

namespace sluice {

struct LevelCompactionStats {
  uint64_t compactions = 0;
  uint64_t bytes_read = 0;     // input bytes from this level and the one below
  uint64_t bytes_written = 0;  // output bytes written to the level below
  uint64_t micros = 0;
  uint64_t trivial_moves = 0;
};

struct DBStats {
  ShardedCounter writes;              // Write() calls that succeeded
  ShardedCounter keys_written;        // updates in those writes
  ShardedCounter user_bytes_written;  // key + value bytes of those updates
  ShardedCounter wal_bytes_written;
  ShardedCounter gets;                     // keys looked up by Get and MultiGet
  ShardedCounter multi_gets;               // MultiGet calls
  ShardedCounter rmws;                     // read-modify-write calls that succeeded
  ShardedCounter rmw_noops;                // ...of which left the value as it was
  std::atomic<uint64_t> rmw_conflicts{0};  // attempts retried after a conflict
  ShardedCounter get_hits;
  std::atomic<uint64_t> flushes{0};
  std::atomic<uint64_t> flush_bytes{0};
  std::atomic<uint64_t> flush_micros{0};
  std::atomic<uint64_t> merged_flushes{0};  // flushes of more than one component (a backlog)
  std::atomic<uint64_t> merged_flush_components{0};  // the components those wrote
  std::atomic<uint64_t> slowdown_writes{0};
  std::atomic<uint64_t> slowdown_micros{0};
  std::atomic<uint64_t> stop_writes{0};
  std::atomic<uint64_t> stop_micros{0};
  std::atomic<uint64_t> memtable_waits{0};
  std::atomic<uint64_t> memtable_wait_micros{0};
  std::atomic<uint64_t> budget_stalls{0};  // writes that waited for the memory budget
  std::atomic<uint64_t> budget_stall_micros{0};
  std::atomic<uint64_t> budget_flushes{0};  // components switched out for the memory budget
  std::atomic<uint64_t> idle_compactions{0};  // L0 -> L1 compactions started because writes stopped
  std::atomic<uint64_t> scan_compactions{0};  // L0 -> L1 compactions started because scans paid
  std::atomic<uint64_t> split_compactions{0};  // compactions merged as more than one key range
  std::atomic<uint64_t> split_compaction_ranges{0};  // the ranges those were split into
  std::atomic<uint64_t> recovered_torn_bytes{0};
  std::atomic<uint64_t> recovered_skipped_records{0};
  std::vector<LevelCompactionStats> levels;  // guarded by the DB mutex; every family's summed

  // Makes room for the levels of a family with num_levels levels. REQUIRES: the DB mutex.
  void EnsureLevels(int num_levels) {
    if (levels.size() < static_cast<size_t>(num_levels)) {
      levels.resize(static_cast<size_t>(num_levels));
    }
  }

  static void Add(std::atomic<uint64_t>* counter, uint64_t n) {
    counter->fetch_add(n, std::memory_order_relaxed);
  }
  static void Add(ShardedCounter* counter, uint64_t n) { counter->Add(n); }
  static uint64_t Get(const std::atomic<uint64_t>& counter) {
    return counter.load(std::memory_order_relaxed);
  }
  static uint64_t Get(const ShardedCounter& counter) { return counter.Get(); }
};

}  // namespace sluice

#endif  // SLUICE_DB_DB_STATS_H_
