// sluice_bench/engine_tables.cc — options and summary tables (see engine_tables.h).

#include "sluice_bench/engine_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace sluice_bench {
namespace {

void AddName(std::vector<std::string>* names, const std::string& name) {
  if (std::find(names->begin(), names->end(), name) == names->end()) names->push_back(name);
}

}  // namespace

std::string FormatAlignedTable(const std::vector<std::vector<std::string>>& cells) {
  std::vector<size_t> widths;
  for (const auto& row : cells) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : cells) {
    std::string line = "  ";
    for (size_t c = 0; c < row.size(); ++c) {
      line += c == 0 ? fmt::format("{:<{}}", row[c], widths[c])
                     : fmt::format("  {:>{}}", row[c], widths[c]);
    }
    out += line + "\n";
  }
  return out;
}

std::string FormatOptionsTable(const std::vector<EngineOptionsColumn>& columns) {
  std::vector<std::string> names;
  for (const auto& column : columns) {
    for (const OptionRow& row : column.rows) AddName(&names, row.name);
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header{"option"};
  for (const auto& column : columns) header.push_back(column.engine);
  cells.push_back(std::move(header));
  for (const std::string& name : names) {
    std::vector<std::string> line{name};
    for (const auto& column : columns) {
      auto it = std::find_if(column.rows.begin(), column.rows.end(),
                             [&](const OptionRow& r) { return r.name == name; });
      line.push_back(it == column.rows.end() ? "-" : it->value + (it->note.empty() ? "" : " *"));
    }
    cells.push_back(std::move(line));
  }
  std::string out = FormatAlignedTable(cells);
  for (const auto& column : columns) {
    for (const OptionRow& row : column.rows) {
      if (!row.note.empty())
        out += fmt::format("  * [{}] {}: {}\n", column.engine, row.name, row.note);
    }
  }
  return out;
}

}  // namespace sluice_bench
