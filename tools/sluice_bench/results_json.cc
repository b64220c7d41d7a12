// sluice_bench/results_json.cc — building and writing the JSON results (see results_json.h).

#include "sluice_bench/results_json.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>

namespace sluice_bench {

using json = nlohmann::ordered_json;

json BenchResultToJson(const BenchResult& r) {
  json j;
  j["name"] = r.name;
  if (r.skipped) {
    j["skipped"] = true;
    j["skip_reason"] = r.skip_reason;
    return j;
  }
  j["skipped"] = false;
  j["threads"] = r.threads;
  j["ops"] = r.ops;
  j["seconds"] = r.elapsed_seconds;
  j["ops_per_sec"] = r.OpsPerSec();
  j["micros_per_op"] = r.MicrosPerOp();
  j["bytes"] = r.bytes;
  j["mb_per_sec"] = r.MBPerSec();
  if (r.has_lookups) {
    j["lookups"] = r.lookups;
    j["found"] = r.found;
  }
  if (!r.message.empty()) j["message"] = r.message;
  if (!r.intervals.empty()) {
    json points = json::array();
    for (const BenchResult::Interval& i : r.intervals) {
      json point = {{"end_seconds", i.end_seconds},
                    {"ops_per_sec", i.ops_per_sec},
                    {"user_bytes", i.user_bytes}};
      if (i.background_bytes.has_value()) point["background_bytes"] = *i.background_bytes;
      points.push_back(std::move(point));
    }
    j["intervals"] = std::move(points);
  }
  if (!r.metrics.empty()) {
    json m = json::object();
    for (const auto& [name, value] : r.metrics) m[name] = value;
    j["metrics"] = std::move(m);
  }
  if (r.has_latency) {
    const LatencyHistogram& h = r.latency;
    j["latency_us"] = {
        {"count", h.count()},
        {"average", h.Average() / 1000.0},
        {"stddev", h.StandardDeviation() / 1000.0},
        {"min", static_cast<double>(h.min()) / 1000.0},
        {"median", h.Median() / 1000.0},
        {"max", static_cast<double>(h.max()) / 1000.0},
        {"p50", h.Percentile(50) / 1000.0},
        {"p75", h.Percentile(75) / 1000.0},
        {"p99", h.Percentile(99) / 1000.0},
        {"p99_9", h.Percentile(99.9) / 1000.0},
        {"p99_99", h.Percentile(99.99) / 1000.0},
    };
  }
  return j;
}

namespace {

json SpreadToJson(const Spread& s) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"rounds", s.values}};
}

}  // namespace

json ResultsToJson(const BenchFlags& flags, const RunInfo& info, const MachineInfo& machine,
                   const std::vector<EngineRun>& runs, const std::vector<std::string>& engine_names,
                   const std::vector<BenchmarkSpread>& spreads) {
  json doc;
  doc["tool"] = "sluice_bench";
  doc["format_version"] = kResultsFormatVersion;
  doc["started_at"] = info.started_at;
  doc["command_line"] = info.command_line;
  doc["machine"] = {
      {"cpu_model", machine.cpu_model}, {"hardware_threads", machine.hardware_threads},
      {"kernel", machine.kernel},       {"file_system", machine.file_system},
      {"compiler", machine.compiler},   {"build_flags", machine.build_flags}};
  doc["repeats"] = flags.repeats;
  doc["workload"] = {
      {"benchmarks", flags.benchmarks},
      {"num", flags.num},
      {"reads", flags.EffectiveReads()},
      {"threads", flags.threads},
      {"key_size", flags.key_size},
      {"key_format", std::string(KeyFormatName(flags.key_format))},
      {"value_size", flags.value_size},
      {"batch_size", flags.batch_size},
      {"multiget_as_gets", flags.multiget_as_gets},
      {"max_num_range_tombstones", flags.max_num_range_tombstones},
      {"range_tombstone_width", flags.range_tombstone_width},
      {"multiread_stride", flags.multiread_stride},
      {"compression_ratio", flags.compression_ratio},
      {"duration", flags.duration},
      {"seed", flags.seed},
      {"hot_op_fraction", flags.hot_op_fraction},
      {"hot_key_fraction", flags.hot_key_fraction},
      {"scan_length", flags.scan_length},
      {"histogram", flags.histogram},
      {"use_existing_db", flags.use_existing_db},
      {"sync", flags.engine.sync},
      {"disable_wal", flags.engine.disable_wal},
      {"db", flags.db},
  };
  json engines = json::array();
  for (const EngineRun& run : runs) {
    json e;
    e["engine"] = run.engine;
    e["version"] = run.version;
    e["round"] = run.round;
    e["db_path"] = run.db_path;
    e["ok"] = run.ok;
    if (!run.ok) e["error"] = run.error;
    json options = json::array();
    for (const OptionRow& row : run.options) {
      json o = {{"name", row.name}, {"value", row.value}};
      if (!row.note.empty()) o["note"] = row.note;
      options.push_back(std::move(o));
    }
    e["options"] = std::move(options);
    json benchmarks = json::array();
    for (const BenchResult& r : run.results) benchmarks.push_back(BenchResultToJson(r));
    e["benchmarks"] = std::move(benchmarks);
    json disk = {{"user_bytes_written", run.disk.user_bytes_written},
                 {"bytes_after_close", run.disk.bytes_after_close},
                 {"files_after_close", run.disk.files_after_close},
                 {"table_files_after_close", run.disk.table_files_after_close}};
    if (run.disk.background_bytes_written.has_value()) {
      disk["background_bytes_written"] = *run.disk.background_bytes_written;
      if (run.disk.user_bytes_written > 0) {
        disk["write_amplification"] = static_cast<double>(*run.disk.background_bytes_written) /
                                      static_cast<double>(run.disk.user_bytes_written);
      }
    }
    e["disk"] = std::move(disk);
    engines.push_back(std::move(e));
  }
  doc["engines"] = std::move(engines);
  json summary = json::array();
  for (const BenchmarkSpread& s : spreads) {
    json b;
    b["benchmark"] = s.label;
    json ops = json::object();
    json ratios = json::object();
    for (size_t e = 0; e < s.ops_per_sec.size() && e < engine_names.size(); ++e) {
      ops[engine_names[e]] = s.ops_per_sec[e] ? SpreadToJson(*s.ops_per_sec[e]) : json(nullptr);
      if (e > 0 && e - 1 < s.ratios.size()) {
        ratios[engine_names[0] + "/" + engine_names[e]] =
            s.ratios[e - 1] ? SpreadToJson(*s.ratios[e - 1]) : json(nullptr);
      }
    }
    b["ops_per_sec"] = std::move(ops);
    b["ratios"] = std::move(ratios);
    summary.push_back(std::move(b));
  }
  doc["summary"] = std::move(summary);
  return doc;
}

bool WriteJsonFile(const std::string& path, const json& doc, std::string* error) {
  std::ofstream file(path, std::ios::out | std::ios::trunc);
  if (!file) {
    *error = fmt::format("cannot open {} for writing: {}", path, std::strerror(errno));
    return false;
  }
  file << doc.dump(2, ' ', false, json::error_handler_t::replace) << '\n';
  file.close();
  if (!file) {
    *error = fmt::format("cannot write {}", path);
    return false;
  }
  return true;
}

std::string UtcTimestamp() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace sluice_bench
