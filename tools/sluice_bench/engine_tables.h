// sluice_bench/engine_tables.h — side-by-side tables across the engines of one run.
//
// The options table shows, option by option, the value each engine was actually given (read
// back from its adapter), with footnotes where an engine cannot match; the summary table puts
// every engine's ops/sec for each benchmark next to each other.

#ifndef SLUICE_BENCH_ENGINE_TABLES_H_
#define SLUICE_BENCH_ENGINE_TABLES_H_

#include <string>
#include <vector>

#include "sluice_bench/bench_result.h"
#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

struct EngineOptionsColumn {
  std::string engine;
  std::vector<OptionRow> rows;
};

struct EngineResultsColumn {
  std::string engine;
  std::vector<BenchResult> results;
};

// Rows in the order of first appearance across the columns; "-" where an engine has no row.
// Notes follow as "[engine] option: note" lines.
std::string FormatOptionsTable(const std::vector<EngineOptionsColumn>& columns);

// One row per benchmark name (in order of first appearance), ops/sec per engine ("skipped" or
// "-" where there is none).
std::string FormatSummaryTable(const std::vector<EngineResultsColumn>& columns);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_ENGINE_TABLES_H_
