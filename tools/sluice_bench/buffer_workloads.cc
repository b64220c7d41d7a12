// sluice_bench/buffer_workloads.cc — the memory-buffer experiments of "Anatomy of the LSM
// Memory Buffer" (DBTest'24), on one sluice memory component driven directly (KVBufferProbe:
// no WAL, no database, no budget), single-threaded. Keys are --num distinct keys in a random
// order (each inserted once); values are --value_size bytes (the paper: 64-byte entries).
//   buffer_footprint  inserts every key; reports the component's bytes (its own accounting,
//                     metadata included), bytes per entry, and how many entries fitted in
//                     --write_buffer_size before it was reached.
//   buffer_insert     times each insert: the latency histogram is the inserts'.
//   buffer_point      after --buffer_query_start of the inserts, --buffer_queries point reads
//                     of already inserted keys are spread evenly over the remaining inserts;
//                     the histogram is the reads' (the paper: 140K inserts, 200 reads after
//                     75%).
//   buffer_range      the same with range scans, each visiting --range_selectivity of the
//                     entries inserted so far from a random inserted key.
// Other engines report these as skipped (they have no such interface).

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/key_distribution.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {

bool BenchmarkRunner::RunBuffer(const BenchmarkSpec& spec, BenchResult* result,
                                std::string* error) {
  std::unique_ptr<KVBufferProbe> probe;
  result->name = std::string(spec.name);
  result->op_label = std::string(spec.op_label);
  bool ok = true;
  if (StopsBenchmark(engine_->NewBufferProbe(&probe), spec.name, result, error, &ok)) return ok;

  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const size_t value_size = static_cast<size_t>(flags_.value_size);
  const PermutedKeys order(num);
  KeyBuffer keys = NewKeyBuffer();
  KeyBuffer query_keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, value_size, flags_.seed);
  Random64 rnd(flags_.seed + 1);

  const bool queries =
      spec.kind == BenchKind::kBufferPointQuery || spec.kind == BenchKind::kBufferRangeQuery;
  const uint64_t query_from =
      std::min(num, static_cast<uint64_t>(static_cast<double>(num) * flags_.buffer_query_start));
  const uint64_t query_count = queries ? static_cast<uint64_t>(flags_.buffer_queries) : 0;
  // Query q runs after insert query_from + q * gap (evenly over the remaining inserts).
  const double gap = query_count == 0
                         ? 0
                         : static_cast<double>(num - query_from) / static_cast<double>(query_count);
  uint64_t next_query = 0;
  uint64_t within_budget = num;  // entries inserted before the budget was reached
  bool budget_reached = false;
  uint64_t found = 0, scanned = 0;
  LatencyHistogram latency;
  const uint64_t start = NowNanos();
  uint64_t query_nanos = 0;
  for (uint64_t i = 0; i < num; i++) {
    const std::string_view key = keys.Set(order.At(i));
    const std::string_view value = values.Next(value_size);
    if (spec.kind == BenchKind::kBufferInsert) {
      const uint64_t t0 = NowNanos();
      probe->Add(key, value);
      latency.Record(NowNanos() - t0);
    } else {
      probe->Add(key, value);
    }
    if (!budget_reached && probe->MemoryUsage() >= flags_.engine.write_buffer_size) {
      budget_reached = true;
      within_budget = i;  // the entries before this insert fitted
    }
    while (next_query < query_count &&
           i + 1 >= query_from + static_cast<uint64_t>(static_cast<double>(next_query) * gap)) {
      // A key inserted so far, chosen uniformly.
      const std::string_view target = query_keys.Set(order.At(rnd.Uniform(i + 1)));
      const uint64_t t0 = NowNanos();
      if (spec.kind == BenchKind::kBufferPointQuery) {
        found += probe->Get(target) ? 1 : 0;
      } else {
        const auto want =
            static_cast<uint64_t>(flags_.range_selectivity * static_cast<double>(i + 1));
        scanned += probe->Scan(target, std::max<uint64_t>(want, 1));
      }
      const uint64_t took = NowNanos() - t0;
      latency.Record(took);
      query_nanos += took;
      next_query++;
    }
  }
  const double seconds = static_cast<double>(NowNanos() - start) / 1e9;
  const size_t bytes = probe->MemoryUsage();

  result->threads = 1;
  result->elapsed_seconds = seconds;
  result->thread_seconds = seconds;
  result->metrics.emplace_back("footprint_bytes", static_cast<double>(bytes));
  result->metrics.emplace_back("bytes_per_entry",
                               static_cast<double>(bytes) / static_cast<double>(num));
  result->metrics.emplace_back("entries_within_budget", static_cast<double>(within_budget));
  result->message =
      fmt::format("({:.1f} MB for {} entries, {:.1f} B/entry; {} fit in {:.1f} MB)",
                  static_cast<double>(bytes) / 1048576.0, num,
                  static_cast<double>(bytes) / static_cast<double>(num), within_budget,
                  static_cast<double>(flags_.engine.write_buffer_size) / 1048576.0);
  if (queries) {
    // The rates are the queries'; the inserts around them are not counted.
    result->ops = next_query;
    result->elapsed_seconds = static_cast<double>(query_nanos) / 1e9;
    result->thread_seconds = result->elapsed_seconds;
    if (spec.kind == BenchKind::kBufferPointQuery) {
      result->has_lookups = true;
      result->lookups = next_query;
      result->found = found;
    } else {
      result->metrics.emplace_back("entries_scanned", static_cast<double>(scanned));
      result->message += fmt::format(" ({} entries scanned)", scanned);
    }
  } else {
    result->ops = num;
    result->bytes = num * (static_cast<uint64_t>(flags_.key_size) + value_size);
  }
  if (spec.kind != BenchKind::kBufferFootprint) {
    result->has_latency = true;
    result->latency = latency;
  }
  return true;
}

}  // namespace sluice_bench
