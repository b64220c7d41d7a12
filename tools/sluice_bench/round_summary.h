// sluice_bench/round_summary.h — several rounds of one run (--repeats): the engine order of
// each round and the medians and ranges of the results.
//
// Round r runs the engines rotated left by r, so each engine runs first, in the middle and last
// equally often (a machine warms up, fills its page cache and heats over a run). Every figure
// is reported as the median of the rounds with their min..max, and so is every ratio of the
// first engine named in --engine to each other: the ratio of each round (the engines measured
// back to back), then the median of those ratios.

#ifndef SLUICE_BENCH_ROUND_SUMMARY_H_
#define SLUICE_BENCH_ROUND_SUMMARY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sluice_bench/bench_result.h"

namespace sluice_bench {

// The engine indexes (into --engine's list) in the order round `round` (0-based) runs them.
std::vector<size_t> RoundOrder(size_t engines, size_t round);

// Median (the mean of the middle two for an even count), min and max of some values.
struct Spread {
  double median = 0;
  double min = 0;
  double max = 0;
  std::vector<double> values;  // in round order
};
// nullopt for no values.
std::optional<Spread> SpreadOf(const std::vector<double>& values);

// "readrandom", or "readrandom #2" for a benchmark's second occurrence in the list.
std::vector<std::string> ResultLabels(const std::vector<BenchResult>& results);

// One benchmark across the rounds.
struct BenchmarkSpread {
  std::string label;
  // Per engine (--engine's order): ops/sec over the rounds that ran it (nullopt: none did).
  std::vector<std::optional<Spread>> ops_per_sec;
  // Per engine after the first: first / that engine, over the rounds where both ran it.
  std::vector<std::optional<Spread>> ratios;
};

// results[round][engine]: each engine's results in each round, engines in --engine's order.
std::vector<BenchmarkSpread> SummarizeRounds(
    const std::vector<std::vector<std::vector<BenchResult>>>& results);

// The tables printed after the rounds: ops/sec as "median [min..max]" per engine, then the
// ratios of the first engine to each other the same way.
std::string FormatRoundsSummary(const std::vector<std::string>& engines, size_t rounds,
                                const std::vector<BenchmarkSpread>& spreads);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_ROUND_SUMMARY_H_
