// sluice_stress/stress_runner.h — the stress driver: many threads, one database, one expected
// state, every read checked.
//
// A run opens the database, verifies it against the expected state (expected_state.h: the
// baseline plus the histories the previous run left, possibly cut by a kill), makes what it
// found the new baseline, flushes every family, reopens and checks that the database still
// holds exactly what was verified (files recovery misjudged die at the first flush), and then,
// unless verify_only, runs `threads` threads for `duration`
// seconds doing puts, deletes, multi-key batches, read-modify-writes and compare-and-swaps,
// gets, snapshot reads and forward/backward iteration over keys 0..max_key-1. Writes of a key
// are serialised by a per-key lock, so each thread knows what a key must hold when it reads it
// under that lock; reads without the lock (snapshots, iterators) are checked for consistency
// instead: values well formed and belonging to their key, keys ascending, a snapshot's gets
// and iteration agreeing with each other and not changing over time.

#ifndef SLUICE_TOOLS_SLUICE_STRESS_STRESS_RUNNER_H_
#define SLUICE_TOOLS_SLUICE_STRESS_STRESS_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace sluice::stress {

struct StressOptions {
  std::string db;
  std::string expected_state;  // a directory; created if missing
  int threads = 4;
  double duration = 10;         // seconds of operations (0: until ops_per_thread are done)
  uint64_t ops_per_thread = 0;  // 0: no limit
  uint32_t max_key = 10000;
  std::string memtable = "flodb";
  bool sync = false;
  bool simulate_power_loss = false;
  size_t write_buffer_size = 256 << 10;
  uint64_t seed = 0;  // 0: from the clock
  bool verify_only = false;
  bool destroy = false;  // start from an empty database and expected state
  int max_batch = 8;     // keys in a multi-key batch: 2..max_batch
  // Operation mix, in percent of operations (the rest are gets).
  int put_percent = 35;
  int delete_percent = 10;
  int batch_percent = 10;
  int rmw_percent = 5;
  int snapshot_percent = 5;
  int iterate_percent = 10;
  // Range deletions of a few consecutive keys (a batch: WriteBatch::DeleteRange, sometimes
  // followed by a put of the range's last key, which must survive it).
  int delete_range_percent = 3;
  // Column families the keys are spread over (key k in family k % N; family_layout.h), so
  // batches and range deletions span families.
  int column_families = 1;
  // Written keys come in ascending order from a shared cursor (starting at seed % max_key,
  // wrapping at max_key), as a bulk load writes them; reads stay uniform. Flushed files then
  // cover narrow, disjoint ranges and compactions move files down a level whole (trivial
  // moves), which uniform keys never cause.
  bool sequential_writes = false;
};

// Returns the process exit code: 0 all checks passed, 1 a check failed, 2 an error (bad
// options, I/O) prevented checking. Prints progress and a summary to stdout.
int RunStress(const StressOptions& options);

}  // namespace sluice::stress

#endif  // SLUICE_TOOLS_SLUICE_STRESS_STRESS_RUNNER_H_
