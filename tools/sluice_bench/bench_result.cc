// sluice_bench/bench_result.cc — merging thread measurements and formatting reports.

#include "sluice_bench/bench_result.h"

#include <fmt/format.h>

#include <algorithm>

namespace sluice_bench {

double BenchResult::OpsPerSec() const {
  return elapsed_seconds > 0 ? static_cast<double>(ops) / elapsed_seconds : 0.0;
}

double BenchResult::MicrosPerOp() const {
  return thread_seconds * 1e6 / static_cast<double>(std::max<uint64_t>(ops, 1));
}

double BenchResult::MBPerSec() const {
  if (bytes == 0 || elapsed_seconds <= 0) return 0.0;
  return static_cast<double>(bytes) / 1048576.0 / elapsed_seconds;
}

BenchResult MergeThreadStats(std::string_view name, std::string_view op_label,
                             const std::vector<const ThreadStats*>& threads) {
  BenchResult r;
  r.name = std::string(name);
  r.op_label = std::string(op_label);
  r.threads = static_cast<int>(threads.size());
  uint64_t first_start = 0;
  uint64_t last_finish = 0;
  for (size_t i = 0; i < threads.size(); ++i) {
    const ThreadStats& t = *threads[i];
    first_start = i == 0 ? t.start_ns() : std::min(first_start, t.start_ns());
    last_finish = std::max(last_finish, t.finish_ns());
    r.ops += t.ops();
    r.bytes += t.bytes();
    r.lookups += t.lookups();
    r.found += t.found();
    r.thread_seconds += static_cast<double>(t.finish_ns() - t.start_ns()) * 1e-9;
    if (t.measure_latency() && !op_label.empty()) {
      r.has_latency = true;
      r.latency.Merge(t.latency());
    }
  }
  r.elapsed_seconds = static_cast<double>(last_finish - first_start) * 1e-9;
  return r;
}

std::string FormatReportLine(const BenchResult& r) {
  if (r.skipped) return fmt::format("{:<12} : skipped ({})", r.name, r.skip_reason);
  std::string extra;
  if (r.bytes > 0) extra = fmt::format("{:6.1f} MB/s", r.MBPerSec());
  if (!r.message.empty()) {
    if (!extra.empty()) extra += ' ';
    extra += r.message;
  }
  return fmt::format("{:<12} : {:11.3f} micros/op {} ops/sec {:.3f} seconds {} operations;{}{}",
                     r.name, r.MicrosPerOp(), static_cast<int64_t>(r.OpsPerSec()),
                     r.elapsed_seconds, r.ops, extra.empty() ? "" : " ", extra);
}

std::string FormatLatencyReport(const BenchResult& r) {
  if (r.skipped || !r.has_latency) return "";
  return fmt::format("Microseconds per {}:\n{}", r.op_label, r.latency.ToString());
}

}  // namespace sluice_bench
