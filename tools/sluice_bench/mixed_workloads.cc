// sluice_bench/mixed_workloads.cc — the mixed workloads of FloDB's evaluation (EuroSys'17,
// section 5), run against the database of any engine:
//   writeonly          50% Puts, 50% Deletes of uniformly random keys;
//   readupdate_skewed  50% Gets, 50% Puts, hot_op_fraction of them on hot_key_fraction of the
//                      keys (key_distribution.h);
//   updatescan         95% Puts of random keys, 5% scans of scan_length entries from a random
//                      key; ops counts keys accessed (an update is 1, a scan the entries it
//                      returned), the paper's measure.
// Each operation is chosen at random, per thread, from the thread's own generator, so every
// engine of a run sees the same operation and key sequence.

#include <string>
#include <utility>
#include <vector>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/key_distribution.h"
#include "sluice_bench/op_budget.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {
namespace {

// updatescan: scans per 100 operations.
constexpr uint64_t kScanPercent = 5;

}  // namespace

void BenchmarkRunner::DoWriteOnly(ThreadContext* t, const Workload& w) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  while (budget.More(done)) {
    const bool put = t->rnd.Uniform(2) == 0;
    const std::string_view key = keys.Set(t->rnd.Uniform(num));
    const uint64_t op_start = t->stats.OpStart();
    EngineStatus s;
    uint64_t bytes = key.size();
    if (put) {
      const std::string_view value = values.Next(w.value_size);
      s = engine_->Put(key, value, w.write_mode);
      bytes += value.size();
      ++t->mix.puts;
    } else {
      s = engine_->Delete(key, w.write_mode);
      ++t->mix.deletes;
    }
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    t->stats.FinishedOps(op_start, 1, bytes);
    ++done;
  }
}

EngineStatus BenchmarkRunner::CountedGet(ThreadContext* t, std::string_view key, std::string* value,
                                         uint64_t* bytes) {
  EngineStatus s = engine_->Get(key, value);
  ++t->mix.reads;
  if (s.ok()) {
    ++t->mix.found;
    *bytes = key.size() + value->size();
  } else if (s.IsNotFound()) {
    s = EngineStatus::OK();
  }
  return s;
}

void BenchmarkRunner::DoReadsAndPuts(ThreadContext* t, const Workload& w, uint64_t read_percent,
                                     const SkewedKeys* skew) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  std::string value;
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  while (budget.More(done)) {
    const bool read = t->rnd.Uniform(100) < read_percent;
    const uint64_t k = skew != nullptr ? skew->Next(&t->rnd) : t->rnd.Uniform(num);
    if (skew != nullptr && skew->IsHot(k)) ++t->mix.hot;
    const std::string_view key = keys.Set(k);
    const uint64_t op_start = t->stats.OpStart();
    EngineStatus s;
    uint64_t bytes = 0;
    if (read) {
      s = CountedGet(t, key, &value, &bytes);
    } else {
      const std::string_view v = values.Next(w.value_size);
      s = engine_->Put(key, v, w.write_mode);
      bytes = key.size() + v.size();
      ++t->mix.puts;
    }
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    t->stats.FinishedOps(op_start, 1, bytes);
    ++done;
  }
}

void BenchmarkRunner::DoReadUpdateSkewed(ThreadContext* t, const Workload& w) {
  const SkewedKeys skew(static_cast<uint64_t>(flags_.num), flags_.hot_key_fraction,
                        flags_.hot_op_fraction);
  DoReadsAndPuts(t, w, /*read_percent=*/50, &skew);
}

void BenchmarkRunner::DoUpdateScan(ThreadContext* t, const Workload& w) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const size_t scan_length = static_cast<size_t>(flags_.scan_length);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  std::vector<std::pair<std::string, std::string>> entries;
  entries.reserve(scan_length);
  OpBudget budget(w.ops, w.duration);
  // Counted in keys accessed, so a count-bound run stops after w.ops keys, not operations.
  uint64_t done = 0;
  while (budget.More(done)) {
    const bool scan = t->rnd.Uniform(100) < kScanPercent;
    const std::string_view key = keys.Set(t->rnd.Uniform(num));
    const uint64_t op_start = t->stats.OpStart();
    EngineStatus s;
    uint64_t accessed = 1;
    uint64_t bytes = 0;
    if (scan) {
      s = engine_->Scan(key, scan_length, &entries);
      accessed = entries.size();
      for (const auto& [k, v] : entries) bytes += k.size() + v.size();
      ++t->mix.scans;
      t->mix.scanned += accessed;
    } else {
      const std::string_view value = values.Next(w.value_size);
      s = engine_->Put(key, value, w.write_mode);
      bytes = key.size() + value.size();
      ++t->mix.puts;
    }
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    t->stats.FinishedOps(op_start, accessed, bytes);
    done += accessed;
    // A scan that found nothing (past the last key) still counts as an attempt, so an empty
    // database cannot spin forever in a count-bound run.
    if (accessed == 0) ++done;
  }
}

}  // namespace sluice_bench
