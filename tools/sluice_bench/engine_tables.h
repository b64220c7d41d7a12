// sluice_bench/engine_tables.h — the options table of a run: option by option, the value each
// engine was actually given (read back from its adapter), with footnotes where an engine cannot
// match. (The results' summary across engines and rounds is round_summary.h's.)

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

// Rows of cells as aligned text, each line indented by two spaces: the first column
// left-aligned, the others right-aligned, every column as wide as its widest cell.
std::string FormatAlignedTable(const std::vector<std::vector<std::string>>& cells);

// Rows in the order of first appearance across the columns; "-" where an engine has no row.
// Notes follow as "[engine] option: note" lines.
std::string FormatOptionsTable(const std::vector<EngineOptionsColumn>& columns);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_ENGINE_TABLES_H_
