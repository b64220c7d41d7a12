// sluice_bench/internal_workloads.cc — the benchmarks that drive sluice's internals instead of
// a database (other engines report them as skipped):
//   memcomponent  --threads writers put random keys straight into a memory component (no WAL,
//                 no sequence-number oracle beyond one atomic counter); a full component is
//                 dropped and replaced (persisting disabled), as in section 5.5 of FloDB's paper;
//   persist       the persist ceiling: --num distinct keys, in random order, fill memory
//                 components of --write_buffer_size (not timed), and each is written to an SST
//                 file by sluice's flush code (timed): entries per second the disk side of the
//                 engine can absorb.

#include <fmt/format.h>

#include <string>
#include <utility>

#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/key_distribution.h"
#include "sluice_bench/op_budget.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {

void BenchmarkRunner::DoMemComponentWrites(ThreadContext* t, const Workload& w,
                                           KVMemoryComponentDriver* driver) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  while (budget.More(done)) {
    const std::string_view key = keys.Set(t->rnd.Uniform(num));
    const std::string_view value = values.Next(w.value_size);
    const uint64_t op_start = t->stats.OpStart();
    driver->Put(key, value);
    t->stats.FinishedOps(op_start, 1, key.size() + value.size());
    ++done;
  }
}

bool BenchmarkRunner::RunPersist(const BenchmarkSpec& spec, BenchResult* result,
                                 std::string* error) {
  std::unique_ptr<KVPersistJob> job;
  EngineStatus s = engine_->NewPersistJob(db_path_ + ".persist", &job);
  result->name = std::string(spec.name);
  bool ok = true;
  if (StopsBenchmark(s, spec.name, result, error, &ok)) return ok;
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const size_t value_size = static_cast<size_t>(flags_.value_size);
  const PermutedKeys order(num);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, value_size, flags_.seed);
  KVPersistJob::Round total;
  uint64_t filled = 0;
  while (filled < num) {
    while (filled < num && !job->Full()) {
      job->Add(keys.Set(order.At(filled)), values.Next(value_size));
      ++filled;
    }
    KVPersistJob::Round round;
    s = job->Persist(&round);
    if (!s.ok()) {
      *error = fmt::format("{}: {}", spec.name, s.message());
      return false;
    }
    total.entries += round.entries;
    total.user_bytes += round.user_bytes;
    total.file_bytes += round.file_bytes;
    total.files += round.files;
    total.seconds += round.seconds;
  }
  result->threads = 1;
  result->ops = total.entries;
  result->bytes = total.user_bytes;
  result->elapsed_seconds = total.seconds;
  result->thread_seconds = total.seconds;
  result->message = fmt::format("({} SST files, {:.1f} MB on disk; filling not timed)", total.files,
                                static_cast<double>(total.file_bytes) / 1048576.0);
  result->metrics.emplace_back("files", total.files);
  result->metrics.emplace_back("file_bytes", static_cast<double>(total.file_bytes));
  return true;
}

}  // namespace sluice_bench
