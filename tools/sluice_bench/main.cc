// sluice_bench/main.cc — entry point: parse flags, configure every engine, print the machine
// and the shared configuration, run the benchmarks engine after engine for each round (the
// order rotated every round), then the summary (medians and ranges) and the JSON file.

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "sluice_bench/bench_flags.h"
#include "sluice_bench/benchmark_runner.h"
#include "sluice_bench/engine_registry.h"
#include "sluice_bench/engine_tables.h"
#include "sluice_bench/kv_engine.h"
#include "sluice_bench/machine_info.h"
#include "sluice_bench/results_json.h"
#include "sluice_bench/round_summary.h"

namespace sluice_bench {
namespace {

// Exit code for a configuration the engines cannot run (bad flags exit with CLI11's codes).
constexpr int kExitConfiguration = 2;
constexpr int kExitEngineError = 1;

void PrintWorkload(const BenchFlags& f, const std::vector<std::unique_ptr<KVEngine>>& engines,
                   const MachineInfo& machine) {
  const double entries = static_cast<double>(f.num);
  const double compressed_value = f.value_size * f.compression_ratio;
  for (size_t i = 0; i < engines.size(); ++i) {
    fmt::print("{}{}\n", i == 0 ? "Engines:    " : "            ", engines[i]->version());
  }
  for (const auto& e : engines) {
    const std::string note = e->build_note();
    if (!note.empty()) fmt::print("  NOTE [{}] {}\n", e->name(), note);
  }
  fmt::print("Date:       {}\n", UtcTimestamp());
  fmt::print("CPU:        {} ({} hardware threads)\n", machine.cpu_model, machine.hardware_threads);
  fmt::print("Kernel:     {}\n", machine.kernel);
  fmt::print("Files:      {} under {}\n", machine.file_system, f.db);
  fmt::print("Built with: {}; {}\n", machine.compiler, machine.build_flags);
  if (f.repeats > 1) {
    fmt::print("Rounds:     {} (the engines' order rotated each round; medians [min..max])\n",
               f.repeats);
  }
  fmt::print("Keys:       {} bytes each ({})\n", f.key_size, KeyFormatName(f.key_format));
  if (f.engine.compression == CompressionKind::kNone) {
    fmt::print("Values:     {} bytes each (stored uncompressed)\n", f.value_size);
  } else {
    fmt::print("Values:     {} bytes each ({} bytes after {} compression)\n", f.value_size,
               static_cast<int64_t>(compressed_value), CompressionName(f.engine.compression));
  }
  fmt::print("Entries:    {}\n", f.num);
  fmt::print("Reads:      {} per thread\n", f.EffectiveReads());
  fmt::print("Threads:    {}\n", f.threads);
  fmt::print("Batch size: {}\n", f.batch_size);
  if (f.duration > 0) fmt::print("Duration:   {} s per benchmark\n", f.duration);
  fmt::print("Raw size:   {:.1f} MB (estimate)\n",
             (f.key_size + f.value_size) * entries / 1048576.0);
  const double stored_value =
      f.engine.compression == CompressionKind::kNone ? f.value_size : compressed_value;
  fmt::print("File size:  {:.1f} MB (estimate)\n",
             (f.key_size + stored_value) * entries / 1048576.0);
  fmt::print("Latencies:  {}\n", f.histogram ? "histogram on" : "histogram off");
  const bool ycsb = std::any_of(f.benchmarks.begin(), f.benchmarks.end(), [](const std::string& b) {
    const BenchmarkSpec* spec = FindBenchmark(b);
    return spec != nullptr && IsYcsb(spec->kind);
  });
  if (ycsb) {
    fmt::print(
        "YCSB:       recordcount {} (--num), operationcount {}, {} fields x {} bytes, keys "
        "user<fnvhash64>, writeallfields {}, updates {} (ycsb_*_native_rmw: through the "
        "engine's atomic read-modify-write); per-operation latencies always\n",
        f.num,
        f.ycsb_operationcount > 0 ? static_cast<uint64_t>(f.ycsb_operationcount)
                                  : f.EffectiveReads(),
        f.ycsb_fieldcount, f.ycsb_fieldlength, f.ycsb_writeallfields,
        f.ycsb_native_rmw ? "through ReadModifyWrite where the engine has one"
                          : "Get then Put on every engine");
  }
}

int Main(int argc, char** argv) {
  BenchFlags flags = DefaultBenchFlags();
  const ParseOutcome parsed = ParseBenchFlags(argc, argv, &flags, std::cout, std::cerr);
  if (!parsed.proceed) return parsed.exit_code;
  flags.engine.create_if_missing = !flags.use_existing_db;

  std::vector<std::unique_ptr<KVEngine>> engines;
  for (const std::string& name : flags.engines) {
    std::unique_ptr<KVEngine> engine = CreateEngine(name);
    if (engine == nullptr) {
      fmt::print(stderr,
                 "--engine: {}: this sluice_bench was built without that engine "
                 "(SLUICE_BENCH_WITHOUT_SLUICE=ON)\n",
                 name);
      return kExitConfiguration;
    }
    EngineStatus s = engine->Configure(flags.engine);
    if (!s.ok()) {
      fmt::print(stderr, "{} (engine {})\n", s.message(), name);
      return kExitConfiguration;
    }
    engines.push_back(std::move(engine));
  }
  if (!flags.json_path.empty()) {
    // Fail now rather than after the run.
    std::ofstream probe(flags.json_path, std::ios::out | std::ios::trunc);
    if (!probe) {
      fmt::print(stderr, "--json: cannot write {}\n", flags.json_path);
      return kExitConfiguration;
    }
  }

  RunInfo info;
  info.started_at = UtcTimestamp();
  for (int i = 0; i < argc; ++i) info.command_line.emplace_back(argv[i]);

  const MachineInfo machine = ReadMachineInfo(flags.db);
  PrintWorkload(flags, engines, machine);
  std::vector<EngineOptionsColumn> option_columns;
  for (const auto& engine : engines) {
    option_columns.push_back({std::string(engine->name()), engine->DescribeOptions()});
  }
  fmt::print("Options (the same flags mapped onto each engine; * marks a note below):\n{}",
             FormatOptionsTable(option_columns));
  fmt::print("{}\n", std::string(60, '-'));
  std::fflush(stdout);

  std::vector<EngineRun> runs;
  // results[round][engine], engines in --engine's order, for the summary.
  std::vector<std::vector<std::vector<BenchResult>>> results;
  bool all_ok = true;
  const size_t rounds = static_cast<size_t>(flags.repeats);
  for (size_t round = 0; round < rounds && all_ok; ++round) {
    results.emplace_back(engines.size());
    for (size_t i : RoundOrder(engines.size(), round)) {
      KVEngine* engine = engines[i].get();
      EngineRun run;
      run.engine = std::string(engine->name());
      run.version = engine->version();
      run.round = round + 1;
      run.db_path = flags.db + "/" + run.engine;
      run.options = option_columns[i].rows;
      if (rounds > 1) {
        fmt::print("\n== round {}/{}, engine: {} ({}) ==\n", round + 1, rounds, run.engine,
                   run.version);
      } else {
        fmt::print("\n== engine: {} ({}) ==\n", run.engine, run.version);
      }
      std::fflush(stdout);
      BenchmarkRunner runner(flags, engine, run.db_path, stdout);
      std::string error;
      const bool ran = runner.Run(&run.results, &error);
      run.disk = runner.disk();
      if (!ran) {
        run.ok = false;
        run.error = error;
        all_ok = false;
        fmt::print(stderr, "sluice_bench: {}: {}\n", run.engine, error);
      }
      results[round][i] = run.results;
      runs.push_back(std::move(run));
    }
  }

  std::vector<std::string> engine_names;
  for (const auto& e : engines) engine_names.emplace_back(e->name());
  const std::vector<BenchmarkSpread> spreads = SummarizeRounds(results);
  if (engines.size() > 1 || rounds > 1) {
    fmt::print("\n== summary{} ==\n{}",
               rounds > 1 ? fmt::format(" of {} rounds", results.size()) : std::string(),
               FormatRoundsSummary(engine_names, results.size(), spreads));
    fmt::print("Measured on: {} ({} hardware threads), {}\n", machine.cpu_model,
               machine.hardware_threads, UtcTimestamp());
  }
  if (!flags.json_path.empty()) {
    std::string error;
    if (!WriteJsonFile(flags.json_path,
                       ResultsToJson(flags, info, machine, runs, engine_names, spreads), &error)) {
      fmt::print(stderr, "--json: {}\n", error);
      return kExitEngineError;
    }
    fmt::print("\nJSON results: {}\n", flags.json_path);
  }
  return all_ok ? 0 : kExitEngineError;
}

}  // namespace
}  // namespace sluice_bench

int main(int argc, char** argv) {
  try {
    return sluice_bench::Main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sluice_bench: fatal: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "sluice_bench: fatal: unknown exception\n");
  }
  return 1;
}
