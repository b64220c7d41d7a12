// sluice_bench/buffer_mix_workloads.cc — the four workload classes of "Anatomy of the LSM Memory
// Buffer" (DBTest'24) run through the whole database of any engine, so that the memory
// component's choice is measured with WAL, flushes and compactions around it:
//   buffer_mix_insert      --num distinct keys, each inserted once, in a random order;
//   buffer_mix_point       the same with --mix_query_ratio point reads per insert, each of a
//                          key this thread already inserted (so found);
//   buffer_mix_short_scan  the same with scans of --short_scan_length entries from such a key;
//   buffer_mix_long_scan   the same with scans of --long_scan_length entries.
// Queries are spread evenly over the inserts (one after every 1/ratio inserts). With several
// threads, thread t inserts the keys at positions t, t + threads, ... of the permutation. Every
// insert and every query is one operation; sluice's engine counters add the flushes,
// compactions and bytes (and the "adaptive" component's choices) to the result line.

#include <string>
#include <utility>
#include <vector>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/key_distribution.h"
#include "sluice_bench/op_budget.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {

void BenchmarkRunner::DoBufferMix(ThreadContext* t, const Workload& w) {
  const auto num = static_cast<uint64_t>(flags_.num);
  const auto threads = static_cast<uint64_t>(flags_.threads);
  const auto me = static_cast<uint64_t>(t->thread);
  // This thread's keys: permutation positions me, me + threads, ... below num.
  const uint64_t mine = num > me ? (num - me + threads - 1) / threads : 0;
  const PermutedKeys order(num);
  const double ratio = w.kind == BenchKind::kBufferMixInsert ? 0.0 : flags_.mix_query_ratio;
  const bool scans =
      w.kind == BenchKind::kBufferMixShortScan || w.kind == BenchKind::kBufferMixLongScan;
  const size_t scan_length =
      static_cast<size_t>(w.kind == BenchKind::kBufferMixShortScan ? flags_.short_scan_length
                                                                   : flags_.long_scan_length);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  std::string value;
  std::vector<std::pair<std::string, std::string>> entries;
  OpBudget budget(mine, w.duration);
  uint64_t inserted = 0;
  uint64_t queries = 0;
  while (budget.More(inserted)) {
    const std::string_view key = keys.Set(order.At(me + inserted * threads));
    const std::string_view v = values.Next(w.value_size);
    uint64_t op_start = t->stats.OpStart();
    EngineStatus s = engine_->Put(key, v, w.write_mode);
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    t->stats.FinishedOps(op_start, 1, key.size() + v.size());
    ++t->mix.puts;
    ++inserted;
    // Queries due after `inserted` inserts (the epsilon absorbs the ratio's rounding).
    const auto due = static_cast<uint64_t>(static_cast<double>(inserted) * ratio + 1e-9);
    for (; queries < due; queries++) {
      const std::string_view target = keys.Set(order.At(me + t->rnd.Uniform(inserted) * threads));
      op_start = t->stats.OpStart();
      uint64_t bytes = 0;
      if (scans) {
        s = engine_->Scan(target, scan_length, &entries);
        for (const auto& [k, val] : entries) bytes += k.size() + val.size();
        ++t->mix.scans;
        t->mix.scanned += entries.size();
      } else {
        s = CountedGet(t, target, &value, &bytes);
      }
      if (!s.ok()) {
        t->error = std::move(s);
        return;
      }
      t->stats.FinishedOps(op_start, 1, bytes);
    }
  }
}

}  // namespace sluice_bench
