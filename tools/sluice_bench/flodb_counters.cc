// sluice_bench/flodb_counters.cc — FloDB counters from "sluice.flodb-stats" and their note
// (see flodb_counters.h).

#include "sluice_bench/flodb_counters.h"

#include <fmt/format.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

namespace sluice_bench {
namespace {

// One line of FloDBStats::ToString: a pattern, and the counter each capture group holds. A
// group named "" is matched but not kept; a name ending in "*" is a per-key ratio, multiplied
// by the previous group's count to give a total.
struct LinePattern {
  const char* regex;
  std::vector<std::string_view> groups;
};

const std::vector<LinePattern>& Patterns() {
  static const std::vector<LinePattern>* patterns = new std::vector<LinePattern>{
      {R"(writes: (\d+) total, (\d+) completed in the Membuffer \([0-9.]+%\), (\d+) in place)",
       {kFloDBWrites, kFloDBInMembuffer, kFloDBMembufferInPlace}},
      {R"(drained: (\d+) entries)", {kFloDBDrained}},
      {R"(entries held in (\d+) of (\d+) policy windows)", {kFloDBHoldWindows, kFloDBDrainWindows}},
      {R"(memtable: \d+ versions added, (\d+) in-place updates)", {kSortedLevelInPlace}},
      {R"(multi-insert: \d+ batches, (\d+) keys \([0-9.]+ per batch\), ([0-9.]+) hops per key)",
       {kFloDBMultiInsertKeys, kFloDBMultiInsertHops}},
      {R"(simple inserts: (\d+) keys, ([0-9.]+) hops per key)",
       {kFloDBSingleInsertKeys, kFloDBSingleInsertHops}},
      {R"(scans: (\d+) \(\d+ masters, \d+ piggybacked\), (\d+) restarts, (\d+) fallbacks)",
       {kFloDBScans, kFloDBScanRestarts, kFloDBScanFallbacks}},
  };
  return *patterns;
}

bool IsPerKeyRatio(std::string_view name) {
  return name == kFloDBMultiInsertHops || name == kFloDBSingleInsertHops;
}

double Delta(const Metrics& before, const Metrics& after, std::string_view name) {
  return FindMetric(after, name).value_or(0) - FindMetric(before, name).value_or(0);
}

}  // namespace

Metrics ParseFloDBStatsText(std::string_view text) {
  Metrics out;
  const std::string s(text);
  for (const LinePattern& p : Patterns()) {
    std::smatch m;
    if (!std::regex_search(s, m, std::regex(p.regex))) continue;
    double previous = 0;
    for (size_t i = 0; i < p.groups.size(); ++i) {
      double v = std::stod(m[static_cast<int>(i) + 1].str());
      // Ratios are printed per key; keep totals, which can be subtracted.
      if (IsPerKeyRatio(p.groups[i])) v = std::round(v * previous);
      out.emplace_back(std::string(p.groups[i]), v);
      previous = v;
    }
  }
  return out;
}

std::string DescribeFloDBCounters(const Metrics& before, const Metrics& after, Metrics* metrics) {
  if (!FindMetric(after, kFloDBWrites).has_value()) return "";
  const double writes = Delta(before, after, kFloDBWrites);
  const double scans = Delta(before, after, kFloDBScans);
  if (writes <= 0 && scans <= 0) return "";
  std::vector<std::string> parts;
  if (writes > 0) {
    const double pct = 100.0 * Delta(before, after, kFloDBInMembuffer) / writes;
    // A write that completes in place in the Membuffer is never drained; one that adds an entry
    // is drained later, and its version then either replaces the key's version in the Memtable
    // in place or adds one. The two kinds of in-place update are printed apart.
    const double membuffer_in_place = Delta(before, after, kFloDBMembufferInPlace);
    const double memtable_in_place = Delta(before, after, kSortedLevelInPlace);
    const double drained = Delta(before, after, kFloDBDrained);
    const double keys =
        Delta(before, after, kFloDBMultiInsertKeys) + Delta(before, after, kFloDBSingleInsertKeys);
    const double hops =
        Delta(before, after, kFloDBMultiInsertHops) + Delta(before, after, kFloDBSingleInsertHops);
    parts.push_back(
        fmt::format("{:.1f}% of {:.0f} writes in the Membuffer ({:.1f}% in place there)", pct,
                    writes, 100.0 * membuffer_in_place / writes));
    if (drained > 0) parts.push_back(fmt::format("{:.0f} drained", drained));
    if (memtable_in_place > 0) {
      parts.push_back(fmt::format("{:.0f} replaced in place in the Memtable", memtable_in_place));
    }
    if (keys > 0) parts.push_back(fmt::format("{:.1f} skiplist hops per insert", hops / keys));
    const double windows = Delta(before, after, kFloDBDrainWindows);
    const double held = Delta(before, after, kFloDBHoldWindows);
    if (held > 0) {
      parts.push_back(fmt::format("entries held in {:.0f}% of the drain policy's windows",
                                  100.0 * held / windows));
    }
    metrics->emplace_back("hold_windows", held);
    metrics->emplace_back("membuffer_pct", pct);
    metrics->emplace_back("flodb_writes", writes);
    metrics->emplace_back("in_place_updates", membuffer_in_place + memtable_in_place);
    metrics->emplace_back("membuffer_in_place", membuffer_in_place);
    metrics->emplace_back("memtable_in_place", memtable_in_place);
    metrics->emplace_back("drained", drained);
    metrics->emplace_back("hops_per_key", keys > 0 ? hops / keys : 0.0);
  }
  if (scans > 0) {
    const double restarts = Delta(before, after, kFloDBScanRestarts);
    const double fallbacks = Delta(before, after, kFloDBScanFallbacks);
    parts.push_back(
        fmt::format("{:.0f} scans, {:.0f} restarts, {:.0f} fallbacks", scans, restarts, fallbacks));
    metrics->emplace_back("flodb_scans", scans);
    metrics->emplace_back("flodb_scan_restarts", restarts);
    metrics->emplace_back("flodb_scan_fallbacks", fallbacks);
  }
  std::string note = "[flodb: ";
  for (size_t i = 0; i < parts.size(); ++i) note += (i == 0 ? "" : ", ") + parts[i];
  return note + "]";
}

}  // namespace sluice_bench
