// sluice_bench/results_json.h — the machine-readable record of a run (--json=FILE).
//
// One document per invocation, fields in a fixed order: when and how it ran, the workload, and
// per engine its version, directory, effective options and, per benchmark, ops, seconds,
// ops/sec, micros/op, MB/s and (with --histogram) latency percentiles in microseconds.
// docs/bench.md lists every field.

#ifndef SLUICE_BENCH_RESULTS_JSON_H_
#define SLUICE_BENCH_RESULTS_JSON_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sluice_bench/bench_flags.h"
#include "sluice_bench/bench_result.h"
#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/machine_info.h"
#include "sluice_bench/round_summary.h"

namespace sluice_bench {

// Everything one engine produced in the run.
struct EngineRun {
  std::string engine;
  std::string version;
  // 1-based (--repeats).
  size_t round = 1;
  std::string db_path;
  std::vector<OptionRow> options;
  std::vector<BenchResult> results;
  // The directory and background writes when the run closed the database.
  BenchmarkRunner::DiskReport disk;
  // False if an engine error stopped the engine's run; see error.
  bool ok = true;
  std::string error;
};

struct RunInfo {
  // ISO 8601, UTC.
  std::string started_at;
  std::vector<std::string> command_line;
};

// Format version of the document; bump when a field changes meaning or disappears. 2: "engines"
// holds one entry per engine and round (in the order they ran, each with its "round"), and
// "summary" the medians and ranges over the rounds; "machine" describes the machine and build.
inline constexpr int kResultsFormatVersion = 2;

nlohmann::ordered_json BenchResultToJson(const BenchResult& result);
// engine_names: --engine's order, which spreads' per-engine vectors follow.
nlohmann::ordered_json ResultsToJson(const BenchFlags& flags, const RunInfo& info,
                                     const MachineInfo& machine, const std::vector<EngineRun>& runs,
                                     const std::vector<std::string>& engine_names,
                                     const std::vector<BenchmarkSpread>& spreads);

// Writes the document (pretty-printed, invalid UTF-8 replaced) to path; false with *error set
// if the file cannot be written.
bool WriteJsonFile(const std::string& path, const nlohmann::ordered_json& doc, std::string* error);

// The current time as "2024-05-01T12:34:56Z".
std::string UtcTimestamp();

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_RESULTS_JSON_H_
