// sluice_bench/range_delete_workload.cc — deleterange: --max_num_range_tombstones range
// deletions, one thread, each over --range_tombstone_width consecutive keys starting at a
// random key of [0, --num) (from --seed, so every engine of a run deletes the same ranges).
// Run before read benchmarks, it leaves that many live range tombstones for them to honour
// (bench/read_experiments.sh's rangedel points). LevelDB has no range deletion: skipped.

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/random.h"
#include "sluice_bench/thread_stats.h"

namespace sluice_bench {

bool BenchmarkRunner::RunDeleteRanges(const BenchmarkSpec& spec, BenchResult* result,
                                      std::string* error) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const uint64_t width = static_cast<uint64_t>(flags_.range_tombstone_width);
  const uint64_t count = static_cast<uint64_t>(flags_.max_num_range_tombstones);
  const WriteMode mode{flags_.engine.sync, flags_.engine.disable_wal};
  Random64 rnd(flags_.seed ^ 0x72616e6765ULL);  // its own stream: the ranges do not depend on
                                                // what ran before
  KeyBuffer begin_keys = NewKeyBuffer();
  KeyBuffer end_keys = NewKeyBuffer();
  ThreadStats stats(/*measure_latency=*/true);
  stats.Start();
  for (uint64_t i = 0; i < count; i++) {
    const uint64_t first = rnd.Uniform(num);
    const std::string_view begin = begin_keys.Set(first);
    // The key after the last one deleted; past the key space, its successor in key order.
    const std::string end = first + width < num ? std::string(end_keys.Set(first + width))
                                                : std::string(begin) + "\xff";
    const uint64_t op_start = stats.OpStart();
    EngineStatus s = engine_->DeleteRange(begin, end, mode);
    bool ok = true;
    if (StopsBenchmark(s, spec.name, result, error, &ok)) return ok;
    stats.FinishedOps(op_start, 1, begin.size() + end.size());
  }
  stats.Stop();
  *result = MergeThreadStats(spec.name, spec.op_label, {&stats});
  result->message = fmt::format("({} ranges of {} keys)", count, width);
  return true;
}

}  // namespace sluice_bench
