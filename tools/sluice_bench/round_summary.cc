// sluice_bench/round_summary.cc — rounds, medians and ranges (see round_summary.h).

#include "sluice_bench/round_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>

#include "sluice_bench/engine_tables.h"

namespace sluice_bench {
namespace {

std::string FormatOps(const std::optional<Spread>& s, size_t rounds) {
  if (!s.has_value()) return "skipped";
  const auto n = [](double v) { return fmt::format("{}", static_cast<int64_t>(v + 0.5)); };
  if (rounds == 1) return n(s->median);
  return fmt::format("{} [{}..{}]", n(s->median), n(s->min), n(s->max));
}

std::string FormatRatio(const std::optional<Spread>& s, size_t rounds) {
  if (!s.has_value()) return "-";
  if (rounds == 1) return fmt::format("{:.2f}", s->median);
  return fmt::format("{:.2f} [{:.2f}..{:.2f}]", s->median, s->min, s->max);
}

}  // namespace

std::vector<size_t> RoundOrder(size_t engines, size_t round) {
  std::vector<size_t> order;
  for (size_t i = 0; i < engines; ++i) order.push_back((i + round) % engines);
  return order;
}

std::optional<Spread> SpreadOf(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  Spread s;
  s.values = values;
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  s.median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  s.min = sorted.front();
  s.max = sorted.back();
  return s;
}

std::vector<std::string> ResultLabels(const std::vector<BenchResult>& results) {
  std::vector<std::string> labels;
  for (size_t i = 0; i < results.size(); ++i) {
    const auto occurrence =
        std::count_if(results.begin(), results.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                      [&](const BenchResult& r) { return r.name == results[i].name; });
    labels.push_back(occurrence == 1 ? results[i].name
                                     : fmt::format("{} #{}", results[i].name, occurrence));
  }
  return labels;
}

std::vector<BenchmarkSpread> SummarizeRounds(
    const std::vector<std::vector<std::vector<BenchResult>>>& results) {
  // One pass: every (round, engine)'s ops/sec by row label (skipped benchmarks left out), and
  // the labels in order of first appearance.
  std::vector<std::string> names;
  std::vector<std::vector<std::map<std::string, double>>> ops(results.size());
  for (size_t r = 0; r < results.size(); ++r) {
    for (const std::vector<BenchResult>& list : results[r]) {
      std::map<std::string, double>& by_label = ops[r].emplace_back();
      const std::vector<std::string> labels = ResultLabels(list);
      for (size_t i = 0; i < list.size(); ++i) {
        if (std::find(names.begin(), names.end(), labels[i]) == names.end()) {
          names.push_back(labels[i]);
        }
        if (!list[i].skipped) by_label[labels[i]] = list[i].OpsPerSec();
      }
    }
  }
  const size_t engines = results.empty() ? 0 : results[0].size();
  // The ops/sec of (round, engine, label), nullopt where it did not run or was skipped.
  auto at = [&](size_t r, size_t e, const std::string& label) -> std::optional<double> {
    if (e >= ops[r].size()) return std::nullopt;
    const auto it = ops[r][e].find(label);
    return it == ops[r][e].end() ? std::nullopt : std::optional<double>(it->second);
  };
  std::vector<BenchmarkSpread> spreads;
  for (const std::string& label : names) {
    BenchmarkSpread s;
    s.label = label;
    for (size_t e = 0; e < engines; ++e) {
      std::vector<double> values;
      std::vector<double> ratios;
      for (size_t r = 0; r < results.size(); ++r) {
        const std::optional<double> v = at(r, e, label);
        if (v.has_value()) values.push_back(*v);
        const std::optional<double> base = at(r, 0, label);
        if (e > 0 && v.has_value() && base.has_value() && *v > 0) ratios.push_back(*base / *v);
      }
      s.ops_per_sec.push_back(SpreadOf(values));
      if (e > 0) s.ratios.push_back(SpreadOf(ratios));
    }
    spreads.push_back(std::move(s));
  }
  return spreads;
}

std::string FormatRoundsSummary(const std::vector<std::string>& engines, size_t rounds,
                                const std::vector<BenchmarkSpread>& spreads) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header{rounds == 1 ? "ops/sec" : "ops/sec: median [min..max]"};
  for (const std::string& e : engines) header.push_back(e);
  cells.push_back(std::move(header));
  for (const BenchmarkSpread& s : spreads) {
    std::vector<std::string> line{s.label};
    for (const auto& o : s.ops_per_sec) line.push_back(FormatOps(o, rounds));
    cells.push_back(std::move(line));
  }
  std::string out = FormatAlignedTable(cells);
  if (engines.size() < 2) return out;
  cells.clear();
  header = {rounds == 1 ? "ratio" : "ratio: median [min..max]"};
  for (size_t e = 1; e < engines.size(); ++e) {
    header.push_back(fmt::format("{}/{}", engines[0], engines[e]));
  }
  cells.push_back(std::move(header));
  for (const BenchmarkSpread& s : spreads) {
    std::vector<std::string> line{s.label};
    for (const auto& r : s.ratios) line.push_back(FormatRatio(r, rounds));
    cells.push_back(std::move(line));
  }
  return out + "\n" + FormatAlignedTable(cells);
}

}  // namespace sluice_bench
