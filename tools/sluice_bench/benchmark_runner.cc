// sluice_bench/benchmark_runner.cc — the benchmark loops (see benchmark_runner.h).

#include "sluice_bench/benchmark_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <latch>
#include <memory>
#include <thread>
#include <utility>

#include "sluice_bench/key_distribution.h"
#include "sluice_bench/op_budget.h"
#include "sluice_bench/value_generator.h"

namespace sluice_bench {
namespace {

// fillsync and fill100K do --num / 1000 operations, as in db_bench.
constexpr uint64_t kSmallFillDivisor = 1000;
constexpr size_t kFill100KValueSize = 100000;
// burst runs for this many seconds unless --duration says otherwise (FloDB's paper: a 10-second
// write burst).
constexpr int kBurstDefaultSeconds = 10;

}  // namespace

void BenchmarkRunner::MixCounts::Add(const MixCounts& o) {
  puts += o.puts;
  deletes += o.deletes;
  reads += o.reads;
  found += o.found;
  hot += o.hot;
  scans += o.scans;
  scanned += o.scanned;
  rmws += o.rmws;
}

BenchmarkRunner::BenchmarkRunner(const BenchFlags& flags, KVEngine* engine, std::string db_path,
                                 std::FILE* out)
    : flags_(flags), engine_(engine), db_path_(std::move(db_path)), out_(out) {}

EngineStatus BenchmarkRunner::Reopen(bool destroy) {
  EngineStatus s = engine_->Close();
  if (!s.ok()) return s;
  if (destroy) {
    s = engine_->Destroy(db_path_);
    if (!s.ok()) return s;
  }
  return engine_->Open(db_path_);
}

bool BenchmarkRunner::Run(std::vector<BenchResult>* results, std::string* error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::path(db_path_).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec) {
    *error = fmt::format("cannot create {}: {}", parent.string(), ec.message());
    return false;
  }
  if (!flags_.use_existing_db && fs::exists(db_path_, ec)) {
    EngineStatus s = engine_->Destroy(db_path_);
    if (!s.ok()) {
      *error = fmt::format("cannot destroy the old database {}: {}", db_path_, s.message());
      return false;
    }
  }
  EngineStatus s = engine_->Open(db_path_);
  if (!s.ok()) {
    *error = fmt::format("cannot open {}: {}", db_path_, s.message());
    return false;
  }
  fresh_ = !flags_.use_existing_db;
  fmt::print(out_, "DB path: [{}]\n", db_path_);
  std::fflush(out_);

  bool ok = true;
  for (uint64_t i = 0; ok && i < flags_.benchmarks.size(); ++i) {
    const BenchmarkSpec* spec = FindBenchmark(flags_.benchmarks[i]);
    if (spec == nullptr) continue;  // rejected while parsing the flags
    BenchResult result;
    ok = RunBenchmark(*spec, i, &result, error);
    if (!ok) break;
    if (spec->kind == BenchKind::kStats) continue;
    if (!result.skipped && (result.op_label == "write" || result.op_label == "insert")) {
      disk_.user_bytes_written += result.bytes;
    }
    fmt::print(out_, "{}\n", FormatReportLine(result));
    if (!result.details.empty()) fmt::print(out_, "{}", result.details);
    const std::string latency = FormatLatencyReport(result);
    if (!latency.empty()) fmt::print(out_, "{}\n", latency);
    std::fflush(out_);
    results->push_back(std::move(result));
  }
  EngineStatus closed = engine_->Close();
  disk_.background_bytes_written = engine_->BackgroundBytesWritten();
  MeasureDirectory(db_path_, &disk_);
  fmt::print(out_, "{}\n", FormatDiskReport(disk_));
  if (ok && !closed.ok()) {
    *error = fmt::format("close failed: {}", closed.message());
    ok = false;
  }
  return ok;
}

void MeasureDirectory(const std::string& dir, BenchmarkRunner::DiskReport* disk) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    disk->files_after_close++;
    disk->bytes_after_close += it->file_size(ec);
    const std::string ext = it->path().extension().string();
    if (ext == ".sst" || ext == ".ldb") disk->table_files_after_close++;
  }
}

std::string FormatDiskReport(const BenchmarkRunner::DiskReport& d) {
  std::string line = "Disk: ";
  if (d.background_bytes_written.has_value()) {
    line += fmt::format("flushes and compactions wrote {:.1f} MiB since open",
                        static_cast<double>(*d.background_bytes_written) / 1048576.0);
    if (d.user_bytes_written > 0) {
      line += fmt::format(" (write amplification {:.2f} over {:.1f} MiB of keys and values)",
                          static_cast<double>(*d.background_bytes_written) /
                              static_cast<double>(d.user_bytes_written),
                          static_cast<double>(d.user_bytes_written) / 1048576.0);
    }
    line += "; ";
  }
  line += fmt::format("after close the directory holds {:.1f} MiB in {} files ({} table files)",
                      static_cast<double>(d.bytes_after_close) / 1048576.0, d.files_after_close,
                      d.table_files_after_close);
  return line;
}

BenchmarkRunner::Workload BenchmarkRunner::MakeWorkload(const BenchmarkSpec& spec) const {
  Workload w;
  w.kind = spec.kind;
  w.ops = static_cast<uint64_t>(flags_.num);
  w.duration = flags_.duration;
  w.value_size = static_cast<size_t>(flags_.value_size);
  w.write_mode = WriteMode{flags_.engine.sync, flags_.engine.disable_wal};
  w.random_keys = true;
  switch (spec.kind) {
    case BenchKind::kFillSeq: w.random_keys = false; break;
    case BenchKind::kFillSync:
      w.ops = std::max<uint64_t>(1, w.ops / kSmallFillDivisor);
      w.write_mode.sync = true;
      break;
    case BenchKind::kFill100K:
      w.ops = std::max<uint64_t>(1, w.ops / kSmallFillDivisor);
      w.value_size = kFill100KValueSize;
      break;
    case BenchKind::kReadRandom:
    case BenchKind::kMultiReadRandom:
    case BenchKind::kReadMissing:
    case BenchKind::kReadSeq:
    case BenchKind::kReadReverse:
    case BenchKind::kSeekRandom:
    case BenchKind::kReadWhileWriting:
    case BenchKind::kReadSkewed:
    case BenchKind::kScanWhileWriting: w.ops = flags_.EffectiveReads(); break;
    case BenchKind::kBurst:
      if (w.duration == 0) w.duration = kBurstDefaultSeconds;
      break;
    case BenchKind::kYcsbLoad: w.duration = 0; break;  // always the whole recordcount
    case BenchKind::kYcsbA:
    case BenchKind::kYcsbB:
    case BenchKind::kYcsbC:
    case BenchKind::kYcsbD:
    case BenchKind::kYcsbE:
    case BenchKind::kYcsbF:
    case BenchKind::kYcsbANativeRmw:
    case BenchKind::kYcsbFNativeRmw: w.ops = YcsbSettingsFromFlags().operationcount; break;
    default: break;
  }
  return w;
}

KeyBuffer BenchmarkRunner::NewKeyBuffer() const {
  return KeyBuffer(flags_.key_size, flags_.key_format, static_cast<uint64_t>(flags_.num));
}

bool BenchmarkRunner::RunBenchmark(const BenchmarkSpec& spec, uint64_t index, BenchResult* result,
                                   std::string* error) {
  if (spec.fresh_db) {
    if (flags_.use_existing_db) {
      result->name = std::string(spec.name);
      result->skipped = true;
      result->skip_reason = "it needs a new database and --use_existing_db is set";
      return true;
    }
    disk_.user_bytes_written = 0;  // the engine's counters restart with the new database
    if (!fresh_) {
      EngineStatus s = Reopen(/*destroy=*/true);
      if (!s.ok()) {
        *error = fmt::format("{}: cannot recreate the database: {}", spec.name, s.message());
        return false;
      }
    }
  }
  bool ok;
  switch (spec.kind) {
    case BenchKind::kCompact:
    case BenchKind::kFlush:
    case BenchKind::kWaitForCompaction:
    case BenchKind::kStats: ok = RunInline(spec, result, error); break;
    case BenchKind::kPersist: ok = RunPersist(spec, result, error); break;
    case BenchKind::kDeleteRange: ok = RunDeleteRanges(spec, result, error); break;
    case BenchKind::kBufferFootprint:
    case BenchKind::kBufferInsert:
    case BenchKind::kBufferPointQuery:
    case BenchKind::kBufferRangeQuery: ok = RunBuffer(spec, result, error); break;
    case BenchKind::kMemComponent: ok = RunThreads(spec, index, result, error); break;
    default: {
      // A benchmark of the database: report what the engine's own counters saw meanwhile.
      const Metrics before = engine_->ReadCounters();
      ok = RunThreads(spec, index, result, error);
      if (ok && !result->skipped && IsBufferMix(spec.kind)) {
        // The paper counts the flushes of every insert: flush what is still in memory (not
        // timed) before the counters are read. Engines without Flush count what they did.
        const EngineStatus flushed = engine_->Flush();
        if (!flushed.ok() && !flushed.IsNotSupported()) {
          *error = fmt::format("{}: flush after the run: {}", spec.name, flushed.message());
          return false;
        }
      }
      if (ok && !result->skipped) {
        const std::string note =
            engine_->DescribeCounters(before, engine_->ReadCounters(), &result->metrics);
        if (!note.empty()) result->message += (result->message.empty() ? "" : " ") + note;
      }
      fresh_ = false;
    }
  }
  if (spec.kind == BenchKind::kCompact || spec.kind == BenchKind::kFlush) fresh_ = false;
  return ok;
}

bool BenchmarkRunner::RunInline(const BenchmarkSpec& spec, BenchResult* result,
                                std::string* error) {
  if (spec.kind == BenchKind::kStats) {
    std::string text;
    EngineStatus s = engine_->GetStats(&text);
    if (!s.ok()) {
      *error = fmt::format("stats: {}: {}", engine_->stats_property(), s.message());
      return false;
    }
    fmt::print(out_, "\n{}:\n{}\n", engine_->stats_property(), text);
    std::fflush(out_);
    return true;
  }
  ThreadStats stats(/*measure_latency=*/false);
  stats.Start();
  std::string how;
  EngineStatus s = spec.kind == BenchKind::kCompact             ? engine_->CompactAll()
                   : spec.kind == BenchKind::kWaitForCompaction ? engine_->WaitForCompaction(&how)
                                                                : engine_->Flush();
  stats.FinishedOps(0, 1, 0);
  stats.Stop();
  *result = MergeThreadStats(spec.name, spec.op_label, {&stats});
  if (!how.empty()) result->message = "(" + how + ")";
  bool ok = true;
  StopsBenchmark(s, spec.name, result, error, &ok);
  return ok;
}

bool BenchmarkRunner::StopsBenchmark(const EngineStatus& s, std::string_view name,
                                     BenchResult* result, std::string* error, bool* ok) {
  if (s.ok()) return false;
  if (s.IsNotSupported()) {
    result->name = std::string(name);
    result->skipped = true;
    result->skip_reason = s.message();
    *ok = true;
  } else {
    *error = fmt::format("{}: {}", name, s.message());
    *ok = false;
  }
  return true;
}

bool BenchmarkRunner::RunThreads(const BenchmarkSpec& spec, uint64_t index, BenchResult* result,
                                 std::string* error) {
  const Workload w = MakeWorkload(spec);
  const int readers = flags_.threads;
  const bool with_writer =
      spec.kind == BenchKind::kReadWhileWriting || spec.kind == BenchKind::kScanWhileWriting;
  const bool rmw = spec.kind == BenchKind::kRmwPutIfAbsent || spec.kind == BenchKind::kRmwIncrement;
  std::unique_ptr<LockStripedRmw> striped;
  if (rmw && flags_.rmw == "striped") {
    striped = std::make_unique<LockStripedRmw>(engine_);
  } else if (rmw) {
    // Engines without their own read-modify-write are skipped, naming the alternative.
    bool ok = true;
    if (StopsBenchmark(engine_->NativeRmwSupport(), spec.name, result, error, &ok)) return ok;
  }
  if (IsYcsbNativeRmw(spec.kind)) {
    bool ok = true;
    if (StopsBenchmark(engine_->NativeRmwSupport(), spec.name, result, error, &ok)) return ok;
  }
  const int total = readers + (with_writer ? 1 : 0);

  std::unique_ptr<KVMemoryComponentDriver> driver;
  if (spec.kind == BenchKind::kMemComponent) {
    bool ok = true;
    if (StopsBenchmark(engine_->NewMemoryComponentDriver(&driver), spec.name, result, error, &ok)) {
      return ok;
    }
  }

  // ycsb_*: what the threads share. The load phase uses workload A's object for its settings
  // only (a load is the same for every workload).
  std::unique_ptr<YcsbRun> ycsb;
  std::atomic<uint64_t> ycsb_load_next(0);
  if (IsYcsb(spec.kind)) {
    const char letter = spec.kind == BenchKind::kYcsbLoad ? 'A' : YcsbLetter(spec.kind);
    ycsb = std::make_unique<YcsbRun>(*FindYcsbWorkload(letter), YcsbSettingsFromFlags());
  }

  std::vector<std::unique_ptr<ThreadContext>> contexts;
  for (int t = 0; t < total; ++t) {
    contexts.push_back(
        std::make_unique<ThreadContext>(DeriveSeed(flags_.seed, index, static_cast<uint64_t>(t)),
                                        /*measure_latency=*/flags_.histogram && t < readers, t));
    if (ycsb != nullptr) contexts.back()->ycsb = std::make_unique<YcsbThreadStats>();
  }

  std::latch start(total + 1);
  std::atomic<int> readers_left(readers);
  std::atomic<bool> stop_writer(false);
  std::vector<std::thread> threads;
  for (int t = 0; t < total; ++t) {
    ThreadContext* ctx = contexts[static_cast<size_t>(t)].get();
    const bool is_writer = t >= readers;
    threads.emplace_back([&, ctx, is_writer] {
      start.arrive_and_wait();
      ctx->stats.Start();
      if (is_writer) {
        DoBackgroundWrites(ctx, w, &stop_writer);
      } else {
        switch (w.kind) {
          case BenchKind::kFillSeq:
          case BenchKind::kFillRandom:
          case BenchKind::kOverwrite:
          case BenchKind::kFillSync:
          case BenchKind::kFill100K:
          case BenchKind::kBurst: DoWrites(ctx, w, /*deletes=*/false); break;
          case BenchKind::kDeleteRandom: DoWrites(ctx, w, /*deletes=*/true); break;
          case BenchKind::kReadRandom:
          case BenchKind::kReadWhileWriting: DoPointReads(ctx, w, /*missing=*/false); break;
          case BenchKind::kReadMissing: DoPointReads(ctx, w, /*missing=*/true); break;
          case BenchKind::kMultiReadRandom: DoMultiReads(ctx, w); break;
          case BenchKind::kSeekRandom: DoSeeks(ctx, w); break;
          case BenchKind::kReadSeq: DoScan(ctx, w, /*reverse=*/false); break;
          case BenchKind::kReadReverse: DoScan(ctx, w, /*reverse=*/true); break;
          case BenchKind::kWriteOnly: DoWriteOnly(ctx, w); break;
          case BenchKind::kReadUpdateSkewed: DoReadUpdateSkewed(ctx, w); break;
          case BenchKind::kUpdateScan: DoUpdateScan(ctx, w); break;
          case BenchKind::kMemComponent: DoMemComponentWrites(ctx, w, driver.get()); break;
          case BenchKind::kRmwPutIfAbsent:
          case BenchKind::kRmwIncrement: DoRmw(ctx, w, striped.get()); break;
          case BenchKind::kReadRandomWriteRandom: DoReadRandomWriteRandom(ctx, w); break;
          case BenchKind::kReadSkewed: DoReadSkewed(ctx, w); break;
          case BenchKind::kScanWhileWriting: DoScansWhileWriting(ctx, w); break;
          case BenchKind::kBufferMixInsert:
          case BenchKind::kBufferMixPoint:
          case BenchKind::kBufferMixShortScan:
          case BenchKind::kBufferMixLongScan: DoBufferMix(ctx, w); break;
          case BenchKind::kYcsbLoad: DoYcsbLoad(ctx, ycsb.get(), &ycsb_load_next); break;
          case BenchKind::kYcsbA:
          case BenchKind::kYcsbB:
          case BenchKind::kYcsbC:
          case BenchKind::kYcsbD:
          case BenchKind::kYcsbE:
          case BenchKind::kYcsbF:
          case BenchKind::kYcsbANativeRmw:
          case BenchKind::kYcsbFNativeRmw: DoYcsb(ctx, w, ycsb.get()); break;
          case BenchKind::kPersist:
          case BenchKind::kBufferFootprint:
          case BenchKind::kBufferInsert:
          case BenchKind::kBufferPointQuery:
          case BenchKind::kBufferRangeQuery:
          case BenchKind::kCompact:
          case BenchKind::kFlush:
          case BenchKind::kWaitForCompaction:
          case BenchKind::kDeleteRange:
          case BenchKind::kStats: break;
        }
        if (readers_left.fetch_sub(1) == 1) stop_writer.store(true);
      }
      ctx->stats.Stop();
    });
  }
  start.arrive_and_wait();
  std::vector<BenchResult::Interval> intervals;
  if (flags_.stats_interval_seconds > 0) {
    std::vector<const ThreadStats*> measured;
    for (int t = 0; t < readers; ++t) measured.push_back(&contexts[static_cast<size_t>(t)]->stats);
    SampleIntervals(measured, readers_left, static_cast<uint64_t>(flags_.key_size) + w.value_size,
                    &intervals);
  }
  for (std::thread& t : threads) t.join();

  for (const auto& ctx : contexts) {
    if (!ctx->error.ok()) {
      *error = fmt::format("{}: {}", spec.name, ctx->error.message());
      return false;
    }
  }
  std::vector<const ThreadStats*> measured;
  for (int t = 0; t < readers; ++t) measured.push_back(&contexts[static_cast<size_t>(t)]->stats);
  *result = MergeThreadStats(spec.name, spec.op_label, measured);
  result->intervals = std::move(intervals);
  if (w.kind == BenchKind::kReadRandom || w.kind == BenchKind::kMultiReadRandom ||
      w.kind == BenchKind::kReadMissing || w.kind == BenchKind::kSeekRandom ||
      w.kind == BenchKind::kReadWhileWriting || w.kind == BenchKind::kReadSkewed) {
    result->has_lookups = true;
    result->message = fmt::format("({} of {} found)", result->found, result->lookups);
  }
  if (with_writer) {
    const ThreadStats& writer = contexts.back()->stats;
    result->message += fmt::format(" (writer: {} puts)", writer.ops());
  }
  MixCounts mix;
  for (int t = 0; t < readers; ++t) mix.Add(contexts[static_cast<size_t>(t)]->mix);
  DescribeMix(w.kind, mix, result);
  if (ycsb != nullptr) {
    YcsbThreadStats merged;
    for (int t = 0; t < readers; ++t) merged.Merge(*contexts[static_cast<size_t>(t)]->ycsb);
    DescribeYcsb(*ycsb, spec.kind == BenchKind::kYcsbLoad, merged, result);
  }
  if (driver != nullptr) {
    const std::string note = driver->Describe(&result->metrics);
    if (!note.empty()) result->message += (result->message.empty() ? "" : " ") + note;
  }
  return true;
}

void BenchmarkRunner::SampleIntervals(const std::vector<const ThreadStats*>& threads,
                                      const std::atomic<int>& running, uint64_t bytes_per_op,
                                      std::vector<BenchResult::Interval>* intervals) {
  const uint64_t interval_ns = static_cast<uint64_t>(flags_.stats_interval_seconds) * 1000000000ULL;
  const uint64_t start = NowNanos();
  uint64_t next = start + interval_ns;
  uint64_t last_ops = 0;
  while (running.load(std::memory_order_relaxed) > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const uint64_t now = NowNanos();
    if (now < next) continue;
    uint64_t ops = 0;
    for (const ThreadStats* t : threads) ops += t->progress();
    const double seconds = static_cast<double>(now - (next - interval_ns)) * 1e-9;
    BenchResult::Interval point{static_cast<double>(now - start) * 1e-9,
                                static_cast<double>(ops - last_ops) / seconds};
    // Earlier benchmarks on this database count too: the engine's counters are since open.
    point.user_bytes = disk_.user_bytes_written + ops * bytes_per_op;
    point.background_bytes = engine_->BackgroundBytesWritten();
    intervals->push_back(point);
    std::string amplification;
    if (point.background_bytes.has_value() && point.user_bytes > 0) {
      amplification = fmt::format(
          ", write amplification so far {:.2f}",
          static_cast<double>(*point.background_bytes) / static_cast<double>(point.user_bytes));
    }
    fmt::print(out_, "  [interval] {:8.1f} s: {:.0f} ops/sec{}\n", point.end_seconds,
               point.ops_per_sec, amplification);
    std::fflush(out_);
    last_ops = ops;
    next = now + interval_ns;
  }
}

void BenchmarkRunner::DescribeMix(BenchKind kind, const MixCounts& mix, BenchResult* r) const {
  switch (kind) {
    case BenchKind::kWriteOnly:
      r->message = fmt::format("({} puts, {} deletes)", mix.puts, mix.deletes);
      r->metrics.emplace_back("puts", static_cast<double>(mix.puts));
      r->metrics.emplace_back("deletes", static_cast<double>(mix.deletes));
      break;
    case BenchKind::kReadUpdateSkewed: {
      r->has_lookups = true;
      r->lookups = mix.reads;
      r->found = mix.found;
      const double hot_pct =
          100.0 * static_cast<double>(mix.hot) / static_cast<double>(std::max<uint64_t>(r->ops, 1));
      r->message = fmt::format("({} of {} found, {} updates, {:.1f}% on hot keys)", mix.found,
                               mix.reads, mix.puts, hot_pct);
      r->metrics.emplace_back("reads", static_cast<double>(mix.reads));
      r->metrics.emplace_back("updates", static_cast<double>(mix.puts));
      r->metrics.emplace_back("hot_pct", hot_pct);
      break;
    }
    case BenchKind::kUpdateScan: {
      // ops counts keys accessed; the operations are the updates and the scans.
      const double operations = static_cast<double>(mix.puts + mix.scans);
      const double ops_per_sec = r->elapsed_seconds > 0 ? operations / r->elapsed_seconds : 0;
      r->message =
          fmt::format("(keys accessed: {} updates + {} keys in {} scans; {:.0f} operations/sec)",
                      mix.puts, mix.scanned, mix.scans, ops_per_sec);
      r->metrics.emplace_back("updates", static_cast<double>(mix.puts));
      r->metrics.emplace_back("scans", static_cast<double>(mix.scans));
      r->metrics.emplace_back("scanned_keys", static_cast<double>(mix.scanned));
      r->metrics.emplace_back("operations_per_sec", ops_per_sec);
      break;
    }
    case BenchKind::kRmwPutIfAbsent:
    case BenchKind::kRmwIncrement: {
      const bool pia = kind == BenchKind::kRmwPutIfAbsent;
      r->message = pia ? fmt::format("({} of {} inserted; {})", mix.puts, mix.rmws,
                                     flags_.rmw == "striped" ? "lock-striped" : "native")
                       : fmt::format("({} increments; {})", mix.rmws,
                                     flags_.rmw == "striped" ? "lock-striped" : "native");
      r->metrics.emplace_back("rmws", static_cast<double>(mix.rmws));
      r->metrics.emplace_back("rmw_writes", static_cast<double>(mix.puts));
      r->metrics.emplace_back("rmw_striped", flags_.rmw == "striped" ? 1.0 : 0.0);
      break;
    }
    case BenchKind::kReadRandomWriteRandom:
      r->has_lookups = true;
      r->lookups = mix.reads;
      r->found = mix.found;
      r->message = fmt::format("({} of {} found, {} puts)", mix.found, mix.reads, mix.puts);
      r->metrics.emplace_back("reads", static_cast<double>(mix.reads));
      r->metrics.emplace_back("puts", static_cast<double>(mix.puts));
      break;
    case BenchKind::kReadSkewed: {
      const double hot_pct =
          100.0 * static_cast<double>(mix.hot) / static_cast<double>(std::max<uint64_t>(r->ops, 1));
      r->message += fmt::format(" ({:.1f}% on hot keys)", hot_pct);
      r->metrics.emplace_back("hot_pct", hot_pct);
      break;
    }
    case BenchKind::kBufferMixInsert:
    case BenchKind::kBufferMixPoint:
    case BenchKind::kBufferMixShortScan:
    case BenchKind::kBufferMixLongScan:
      r->message = fmt::format("({} inserts, {} point reads ({} found), {} scans ({} keys))",
                               mix.puts, mix.reads, mix.found, mix.scans, mix.scanned);
      r->metrics.emplace_back("inserts", static_cast<double>(mix.puts));
      r->metrics.emplace_back("point_reads", static_cast<double>(mix.reads));
      r->metrics.emplace_back("scans", static_cast<double>(mix.scans));
      r->metrics.emplace_back("scanned_keys", static_cast<double>(mix.scanned));
      break;
    case BenchKind::kScanWhileWriting:
      r->message = fmt::format("({} keys in {} scans){}", mix.scanned, mix.scans, r->message);
      r->metrics.emplace_back("scans", static_cast<double>(mix.scans));
      r->metrics.emplace_back("scanned_keys", static_cast<double>(mix.scanned));
      break;
    default: break;
  }
}

void BenchmarkRunner::DoWrites(ThreadContext* t, const Workload& w, bool deletes) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const uint64_t batch_size = static_cast<uint64_t>(flags_.batch_size);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  std::unique_ptr<KVWriteBatch> batch = batch_size > 1 ? engine_->NewWriteBatch() : nullptr;
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  while (budget.More(done)) {
    const uint64_t n = budget.timed() ? batch_size : std::min(batch_size, w.ops - done);
    const uint64_t op_start = t->stats.OpStart();
    uint64_t bytes = 0;
    EngineStatus s;
    if (batch == nullptr) {
      const uint64_t k = w.random_keys ? t->rnd.Uniform(num) : done % num;
      const std::string_view key = keys.Set(k);
      if (deletes) {
        s = engine_->Delete(key, w.write_mode);
        bytes = key.size();
      } else {
        const std::string_view value = values.Next(w.value_size);
        s = engine_->Put(key, value, w.write_mode);
        bytes = key.size() + value.size();
      }
    } else {
      batch->Clear();
      for (uint64_t j = 0; j < n; ++j) {
        const uint64_t k = w.random_keys ? t->rnd.Uniform(num) : (done + j) % num;
        const std::string_view key = keys.Set(k);
        if (deletes) {
          batch->Delete(key);
          bytes += key.size();
        } else {
          const std::string_view value = values.Next(w.value_size);
          batch->Put(key, value);
          bytes += key.size() + value.size();
        }
      }
      s = engine_->Write(batch.get(), w.write_mode);
    }
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    t->stats.FinishedOps(op_start, n, bytes);
    done += n;
  }
}

void BenchmarkRunner::DoPointReads(ThreadContext* t, const Workload& w, bool missing,
                                   const SkewedKeys* skew) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  std::string value;
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  uint64_t found = 0;
  while (budget.More(done)) {
    const uint64_t k = skew != nullptr ? skew->Next(&t->rnd) : t->rnd.Uniform(num);
    if (skew != nullptr && skew->IsHot(k)) ++t->mix.hot;
    const std::string_view key = missing ? keys.SetMissing(k) : keys.Set(k);
    const uint64_t op_start = t->stats.OpStart();
    EngineStatus s = engine_->Get(key, &value);
    uint64_t bytes = 0;
    if (s.ok()) {
      ++found;
      bytes = key.size() + value.size();
    } else if (!s.IsNotFound()) {
      t->error = std::move(s);
      break;
    }
    t->stats.FinishedOps(op_start, 1, bytes);
    ++done;
  }
  t->stats.AddLookups(done, found);
}

void BenchmarkRunner::DoMultiReads(ThreadContext* t, const Workload& w) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  const auto batch = static_cast<uint64_t>(std::max(1, flags_.batch_size));
  const auto stride = static_cast<uint64_t>(flags_.multiread_stride);
  std::vector<KeyBuffer> buffers;
  for (uint64_t i = 0; i < batch; i++) buffers.push_back(NewKeyBuffer());
  std::vector<std::string_view> keys(batch);
  std::vector<std::string> values;
  std::vector<EngineStatus> statuses;
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  uint64_t found = 0;
  while (budget.More(done)) {
    // The last batch of a --reads budget is cut to what is left of it.
    const uint64_t n = w.ops > 0 ? std::min(batch, w.ops - done) : batch;
    keys.resize(n);
    if (stride == 0) {
      for (uint64_t i = 0; i < n; i++) keys[i] = buffers[i].Set(t->rnd.Uniform(num));
    } else {
      // A random first key and the keys stride, 2 stride, ... after it, all below num.
      const uint64_t span = (n - 1) * stride;
      const uint64_t first = span < num ? t->rnd.Uniform(num - span) : 0;
      for (uint64_t i = 0; i < n; i++) keys[i] = buffers[i].Set((first + i * stride) % num);
    }
    const uint64_t op_start = t->stats.OpStart();
    if (flags_.multiget_as_gets) {
      engine_->KVEngine::MultiGet(keys, &values, &statuses);  // the base class's loop of Gets
    } else {
      engine_->MultiGet(keys, &values, &statuses);
    }
    uint64_t bytes = 0;
    for (uint64_t i = 0; i < n; i++) {
      if (statuses[i].ok()) {
        ++found;
        bytes += keys[i].size() + values[i].size();
      } else if (!statuses[i].IsNotFound()) {
        t->error = std::move(statuses[i]);
        break;
      }
    }
    if (!t->error.ok()) break;
    t->stats.FinishedOps(op_start, n, bytes);
    done += n;
  }
  t->stats.AddLookups(done, found);
}

void BenchmarkRunner::DoSeeks(ThreadContext* t, const Workload& w) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  std::unique_ptr<KVIterator> it = engine_->NewIterator();
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  uint64_t found = 0;
  while (budget.More(done)) {
    const std::string_view key = keys.Set(t->rnd.Uniform(num));
    const uint64_t op_start = t->stats.OpStart();
    it->Seek(key);
    uint64_t bytes = 0;
    if (it->Valid() && it->key() == key) {
      ++found;
      bytes = it->key().size() + it->value().size();
    }
    t->stats.FinishedOps(op_start, 1, bytes);
    ++done;
  }
  EngineStatus s = it->status();
  if (!s.ok()) t->error = std::move(s);
  t->stats.AddLookups(done, found);
}

void BenchmarkRunner::DoScan(ThreadContext* t, const Workload& w, bool reverse) {
  auto start_pass = [&](KVIterator* it) {
    if (reverse) {
      it->SeekToLast();
    } else {
      it->SeekToFirst();
    }
  };
  std::unique_ptr<KVIterator> it = engine_->NewIterator();
  start_pass(it.get());
  OpBudget budget(w.ops, w.duration);
  uint64_t done = 0;
  uint64_t done_at_pass_start = 0;
  while (budget.More(done)) {
    if (!it->Valid()) {
      EngineStatus s = it->status();
      if (!s.ok()) {
        t->error = std::move(s);
        return;
      }
      // Out of entries: with --duration start another pass (on a fresh iterator that sees new
      // writes), unless the last pass found nothing.
      if (!budget.timed() || done == done_at_pass_start) break;
      done_at_pass_start = done;
      it = engine_->NewIterator();
      start_pass(it.get());
      continue;
    }
    const uint64_t op_start = t->stats.OpStart();
    const uint64_t bytes = it->key().size() + it->value().size();
    if (reverse) {
      it->Prev();
    } else {
      it->Next();
    }
    t->stats.FinishedOps(op_start, 1, bytes);
    ++done;
  }
  EngineStatus s = it->status();
  if (!s.ok()) t->error = std::move(s);
}

void BenchmarkRunner::DoBackgroundWrites(ThreadContext* t, const Workload& w,
                                         const std::atomic<bool>* stop) {
  const uint64_t num = static_cast<uint64_t>(flags_.num);
  KeyBuffer keys = NewKeyBuffer();
  ValueGenerator values(flags_.compression_ratio, w.value_size, t->rnd.Next());
  while (!stop->load(std::memory_order_relaxed)) {
    const std::string_view key = keys.Set(t->rnd.Uniform(num));
    const std::string_view value = values.Next(w.value_size);
    EngineStatus s = engine_->Put(key, value, w.write_mode);
    if (!s.ok()) {
      t->error = std::move(s);
      return;
    }
    t->stats.FinishedOps(0, 1, key.size() + value.size());
  }
}

}  // namespace sluice_bench
