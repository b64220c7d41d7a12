// sluice_bench/benchmark_runner.h — runs the --benchmarks list against one engine.
//
// Engine-neutral: it drives a KVEngine, so every engine executes literally the same loops with
// the same key sequences. As in db_bench, each of the --threads threads performs the whole
// operation count of a benchmark on its own key sequence (seeded from --seed, the benchmark's
// position in the list and the thread id), and benchmarks that need an empty database destroy
// and reopen it first. The loops live in three files: benchmark_runner.cc (db_bench's
// benchmarks and the dispatch), mixed_workloads.cc (FloDB's mixed workloads), clsm_workloads.cc
// (cLSM's), ycsb_workloads.cc (YCSB's core workloads) and internal_workloads.cc (memcomponent
// and persist, which drive sluice's internals).

#ifndef SLUICE_BENCH_BENCHMARK_RUNNER_H_
#define SLUICE_BENCH_BENCHMARK_RUNNER_H_

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice_bench/bench_flags.h"
#include "sluice_bench/bench_result.h"
#include "sluice_bench/benchmark_catalog.h"
#include "sluice_bench/key_format.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/lock_striped_rmw.h"
#include "sluice_bench/random.h"
#include "sluice_bench/thread_stats.h"
#include "sluice_bench/ycsb_workload.h"

namespace sluice_bench {

class SkewedKeys;

class BenchmarkRunner {
 public:
  // The engine must be configured and closed; db_path is its directory. Reports go to `out`.
  BenchmarkRunner(const BenchFlags& flags, KVEngine* engine, std::string db_path, std::FILE* out);

  // What Run found when it closed the database: the disk side of the run.
  struct DiskReport {
    // Written by flushes and compactions since the database was last opened (nullopt: the
    // engine cannot tell).
    std::optional<uint64_t> background_bytes_written;
    // Keys and values the write benchmarks (op label "write" or "insert") wrote since then.
    uint64_t user_bytes_written = 0;
    // The directory after Close: bytes and files, and of those the table files (*.sst, *.ldb).
    uint64_t bytes_after_close = 0;
    uint64_t files_after_close = 0;
    uint64_t table_files_after_close = 0;
  };

  // Opens the database (destroying an old one unless --use_existing_db), runs each benchmark
  // in order, printing its report, and closes it. On an engine error, stops and returns false
  // with *error set; *results holds the benchmarks that completed.
  bool Run(std::vector<BenchResult>* results, std::string* error);
  // After Run.
  const DiskReport& disk() const { return disk_; }

 private:
  // What one benchmark does per thread.
  struct Workload {
    BenchKind kind;
    uint64_t ops;
    // Seconds to run for instead of `ops` (0: count).
    int duration;
    size_t value_size;
    WriteMode write_mode;
    bool random_keys;
  };
  // What the threads of the mixed workloads (writeonly, readupdate_skewed, updatescan) did.
  struct MixCounts {
    uint64_t puts = 0;
    uint64_t deletes = 0;
    uint64_t reads = 0;
    uint64_t found = 0;
    uint64_t hot = 0;  // operations on hot keys
    uint64_t scans = 0;
    uint64_t scanned = 0;  // entries the scans returned
    uint64_t rmws = 0;     // read-modify-writes (puts: those that wrote)

    void Add(const MixCounts& o);
  };
  struct ThreadContext {
    ThreadContext(uint64_t seed, bool measure_latency, int index)
        : rnd(seed), stats(measure_latency), thread(index) {}

    Random64 rnd;
    ThreadStats stats;
    MixCounts mix;
    const int thread;  // 0 .. threads - 1
    // The first engine error of this thread (NotFound of a Get is not one).
    EngineStatus error;
    // ycsb_*: per-operation latencies and counts (null for other benchmarks).
    std::unique_ptr<YcsbThreadStats> ycsb;
  };

  Workload MakeWorkload(const BenchmarkSpec& spec) const;
  KeyBuffer NewKeyBuffer() const;
  // Runs a benchmark in threads (or inline for compact/flush/stats/persist).
  bool RunBenchmark(const BenchmarkSpec& spec, uint64_t index, BenchResult* result,
                    std::string* error);
  bool RunInline(const BenchmarkSpec& spec, BenchResult* result, std::string* error);
  bool RunThreads(const BenchmarkSpec& spec, uint64_t index, BenchResult* result,
                  std::string* error);
  // For an engine's answer to something a benchmark needs: false if s is OK (go on); else true,
  // with the benchmark skipped (NotSupported, *ok = true: the engine's reason is the skip
  // reason) or failed (*error set, *ok = false).
  static bool StopsBenchmark(const EngineStatus& s, std::string_view name, BenchResult* result,
                             std::string* error, bool* ok);
  // --stats_interval_seconds: from the caller's thread, while `running` (threads not yet
  // finished) is above 0, samples the threads' progress at every interval, and the engine's
  // background bytes written (bytes_per_op: user bytes of one operation).
  void SampleIntervals(const std::vector<const ThreadStats*>& threads,
                       const std::atomic<int>& running, uint64_t bytes_per_op,
                       std::vector<BenchResult::Interval>* intervals);
  // The message and metrics of a mixed workload (writeonly, readupdate_skewed, updatescan).
  void DescribeMix(BenchKind kind, const MixCounts& mix, BenchResult* result) const;

  void DoWrites(ThreadContext* t, const Workload& w, bool deletes);
  // skew: null for uniformly random keys.
  void DoPointReads(ThreadContext* t, const Workload& w, bool missing,
                    const SkewedKeys* skew = nullptr);
  // multireadrandom: batches of --batch_size random keys through the engine's MultiGet; each
  // key is an op, each batch one latency sample.
  void DoMultiReads(ThreadContext* t, const Workload& w);
  void DoSeeks(ThreadContext* t, const Workload& w);
  void DoScan(ThreadContext* t, const Workload& w, bool reverse);
  // The extra writer of readwhilewriting: random overwrites until *stop.
  void DoBackgroundWrites(ThreadContext* t, const Workload& w, const std::atomic<bool>* stop);

  // mixed_workloads.cc. CountedGet: a Get counted in t->mix (reads, found); NotFound is OK,
  // *bytes the key and value read.
  EngineStatus CountedGet(ThreadContext* t, std::string_view key, std::string* value,
                          uint64_t* bytes);
  // DoReadsAndPuts: read_percent% Gets, the rest Puts; keys from skew, or
  // uniformly random if it is null.
  void DoReadsAndPuts(ThreadContext* t, const Workload& w, uint64_t read_percent,
                      const SkewedKeys* skew);
  void DoWriteOnly(ThreadContext* t, const Workload& w);
  void DoReadUpdateSkewed(ThreadContext* t, const Workload& w);
  void DoUpdateScan(ThreadContext* t, const Workload& w);

  // clsm_workloads.cc. striped: null for the engine's own read-modify-write.
  void DoRmw(ThreadContext* t, const Workload& w, LockStripedRmw* striped);
  void DoReadRandomWriteRandom(ThreadContext* t, const Workload& w);
  void DoReadSkewed(ThreadContext* t, const Workload& w);
  void DoScansWhileWriting(ThreadContext* t, const Workload& w);
  // buffer_mix_*: this thread's share of --num distinct keys, with queries interleaved.
  void DoBufferMix(ThreadContext* t, const Workload& w);

  // ycsb_workloads.cc. The load takes key numbers from *next until recordcount; the others do
  // their share of operationcount.
  YcsbSettings YcsbSettingsFromFlags() const;
  void DoYcsbLoad(ThreadContext* t, YcsbRun* run, std::atomic<uint64_t>* next);
  void DoYcsb(ThreadContext* t, const Workload& w, YcsbRun* run);
  // The per-operation report (counts, P50/P99/P99.9) of a ycsb benchmark.
  void DescribeYcsb(const YcsbRun& run, bool load, const YcsbThreadStats& stats,
                    BenchResult* result) const;

  // internal_workloads.cc: sluice's internals, bypassing the database.
  void DoMemComponentWrites(ThreadContext* t, const Workload& w, KVMemoryComponentDriver* driver);
  bool RunPersist(const BenchmarkSpec& spec, BenchResult* result, std::string* error);
  // deleterange (range_delete_workload.cc).
  bool RunDeleteRanges(const BenchmarkSpec& spec, BenchResult* result, std::string* error);
  // The buffer_* benchmarks (buffer_workloads.cc).
  bool RunBuffer(const BenchmarkSpec& spec, BenchResult* result, std::string* error);

  EngineStatus Reopen(bool destroy);

  const BenchFlags& flags_;
  KVEngine* engine_;
  std::string db_path_;
  std::FILE* out_;
  // The open database holds nothing written since it was created.
  bool fresh_ = false;
  DiskReport disk_;
};

// Adds up the files under dir (recursively) into *disk's *_after_close fields.
void MeasureDirectory(const std::string& dir, BenchmarkRunner::DiskReport* disk);
// "Disk: flushes and compactions wrote ... after close the directory holds ...".
std::string FormatDiskReport(const BenchmarkRunner::DiskReport& disk);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_BENCHMARK_RUNNER_H_
