// sluice_bench/flodb_counters.h — the counters of sluice's FloDB memory component that the
// benchmarks report, and the note they add to a result line.
//
// Two sources give the same names: the text of DB::GetProperty("sluice.flodb-stats") (the
// database benchmarks; parsed here, line by line, with regular expressions for the lines
// FloDBStats::ToString prints) and the FloDBStats counters themselves (memcomponent, which owns
// them; sluice_memcomponent_driver.cc). Counters are cumulative; a benchmark reports the
// difference of two readings. A line the text no longer has is simply not reported.

#ifndef SLUICE_BENCH_FLODB_COUNTERS_H_
#define SLUICE_BENCH_FLODB_COUNTERS_H_

#include <string>
#include <string_view>

#include "sluice_bench/metrics.h"

namespace sluice_bench {

// Names of the cumulative counters (Metrics keys).
inline constexpr std::string_view kFloDBWrites = "flodb.writes";
inline constexpr std::string_view kFloDBInMembuffer = "flodb.membuffer_writes";
inline constexpr std::string_view kFloDBMembufferInPlace = "flodb.membuffer_in_place";
inline constexpr std::string_view kFloDBDrained = "flodb.drained";
inline constexpr std::string_view kFloDBHoldWindows = "flodb.hold_windows";
inline constexpr std::string_view kFloDBDrainWindows = "flodb.drain_windows";
inline constexpr std::string_view kSortedLevelInPlace = "flodb.memtable_in_place";
inline constexpr std::string_view kFloDBMultiInsertKeys = "flodb.multi_insert_keys";
inline constexpr std::string_view kFloDBMultiInsertHops = "flodb.multi_insert_hops";
inline constexpr std::string_view kFloDBSingleInsertKeys = "flodb.single_insert_keys";
inline constexpr std::string_view kFloDBSingleInsertHops = "flodb.single_insert_hops";
inline constexpr std::string_view kFloDBScans = "flodb.scans";
inline constexpr std::string_view kFloDBScanRestarts = "flodb.scan_restarts";
inline constexpr std::string_view kFloDBScanFallbacks = "flodb.scan_fallbacks";

// The counters in the text of "sluice.flodb-stats" (empty if it has none of its lines).
Metrics ParseFloDBStatsText(std::string_view text);

// The change from `before` to `after` (a counter missing from `before` counts from 0): a note
// such as "[flodb: 100.0% of 1000000 writes in the Membuffer (11.5% in place there), 880000
// drained, 760000 replaced in place in the Memtable, 4.5 skiplist hops per insert]" ("" when
// nothing was written or scanned), and the derived metrics appended to *metrics:
// membuffer_pct, flodb_writes, in_place_updates (the sum of the next two), membuffer_in_place,
// memtable_in_place, drained, hops_per_key, flodb_scans, flodb_scan_restarts,
// flodb_scan_fallbacks.
std::string DescribeFloDBCounters(const Metrics& before, const Metrics& after, Metrics* metrics);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_FLODB_COUNTERS_H_
