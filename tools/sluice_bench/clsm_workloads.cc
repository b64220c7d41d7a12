// sluice_bench/clsm_workloads.cc — the workloads of cLSM's evaluation (EuroSys'15, section 5),
// run against the database of any engine:
//   rmw_putifabsent        atomic put-if-absent of uniformly random keys (the paper's RMW);
//   rmw_increment          atomic increments of counters at uniformly random keys;
//   readrandomwriterandom  --readwritepercent% Gets, the rest Puts (db_bench's);
//   readskewed             Gets with locality: --hot_op_fraction of them on --hot_key_fraction
//                          of the keys (key_distribution.h; the paper: 90% on 10%);
//   scanwhilewriting       iterator scans of --scan_length entries from random keys (each
//                          iterator reads one snapshot) while an extra thread overwrites.
// The RMW benchmarks use the engine's own read-modify-write with --rmw=native (NotSupported,
// and so skipped, for engines without one) and LockStripedRmw with --rmw=striped.

#include <memory>
#include <string>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/key_distribution.h"
#include "sluice_bench/lock_striped_rmw.h"
#include "sluice_bench/op_budget.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {

void BenchmarkRunner::DoRmw(ThreadContext* t, const Workload& w, LockStripedRmw* striped) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  const bool put_if_absent = w.kind == BenchKind::kRmwPutIfAbsent;
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  while (budget.More(done)) {
    const std::string_view key = keys.Set(t->rnd.Uniform(num));
    const uint64_t op_start = t->stats.OpStart();
    EngineStatus s;
    uint64_t bytes = key.size();
    bool wrote = true;
    if (put_if_absent) {
      const std::string_view value = values.Next(w.value_size);
      s = striped != nullptr ? striped->PutIfAbsent(key, value, w.write_mode, &wrote)
                             : engine_->PutIfAbsent(key, value, w.write_mode, &wrote);
      if (wrote) bytes += value.size();
    } else {
      int64_t result = 0;
      s = striped != nullptr ? striped->Increment(key, 1, w.write_mode, &result)
                             : engine_->Increment(key, 1, w.write_mode, &result);
      bytes += sizeof(result);
    }
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    ++t->mix.rmws;
    if (wrote) ++t->mix.puts;
    t->stats.FinishedOps(op_start, 1, bytes);
    ++done;
  }
}

void BenchmarkRunner::DoReadRandomWriteRandom(ThreadContext* t, const Workload& w) {
  DoReadsAndPuts(t, w, static_cast<uint64_t>(flags_.readwritepercent), /*skew=*/nullptr);
}

void BenchmarkRunner::DoReadSkewed(ThreadContext* t, const Workload& w) {
  const SkewedKeys skew(static_cast<uint64_t>(flags_.num), flags_.hot_key_fraction,
                        flags_.hot_op_fraction);
  DoPointReads(t, w, /*missing=*/false, &skew);
}

void BenchmarkRunner::DoScansWhileWriting(ThreadContext* t, const Workload& w) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const size_t scan_length = static_cast<size_t>(flags_.scan_length);
  KeyBuffer keys = NewKeyBuffer();
  OpBudget budget(w.ops, w.duration);
  // Counted in keys read, so a count-bound run stops after w.ops keys.
  uint64_t done = 0;
  while (budget.More(done)) {
    const std::string_view start = keys.Set(t->rnd.Uniform(num));
    const uint64_t op_start = t->stats.OpStart();
    // A fresh iterator per scan: each scan reads its own snapshot, as the paper's do.
    std::unique_ptr<KVIterator> it = engine_->NewIterator();
    uint64_t read = 0;
    uint64_t bytes = 0;
    for (it->Seek(start); it->Valid() && read < scan_length; it->Next()) {
      bytes += it->key().size() + it->value().size();
      ++read;
    }
    EngineStatus s = it->status();
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    ++t->mix.scans;
    t->mix.scanned += read;
    t->stats.FinishedOps(op_start, read, bytes);
    done += read == 0 ? 1 : read;  // past the last key: still an attempt
  }
}

}  // namespace sluice_bench
