// sluice_bench/sluice_db_counters.cc — flush, compaction and adaptive-choice counters of a sluice
// database (see sluice_db_counters.h).

#include "sluice_bench/sluice_db_counters.h"

#include <fmt/format.h>

#include <charconv>
#include <string>
#include <vector>

namespace sluice_bench {
namespace {

constexpr std::string_view kIoPrefix = "io.";
constexpr std::string_view kAdaptivePrefix = "adaptive.";

double Delta(const Metrics& before, const Metrics& after, std::string_view name) {
  return FindMetric(after, name).value_or(0) - FindMetric(before, name).value_or(0);
}

std::string MB(double bytes) { return fmt::format("{:.1f} MB", bytes / 1048576.0); }

}  // namespace

Metrics ParseIoCountersText(std::string_view text) {
  Metrics out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view pair = text.substr(pos, end - pos);
    const size_t eq = pair.find('=');
    if (eq != std::string_view::npos) {
      uint64_t v = 0;
      const std::string_view digits = pair.substr(eq + 1);
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (ec == std::errc() && ptr == digits.data() + digits.size()) {
        out.emplace_back(std::string(kIoPrefix) + std::string(pair.substr(0, eq)),
                         static_cast<double>(v));
      }
    }
    pos = end + 1;
  }
  return out;
}

Metrics ParseMemtableChoicesText(std::string_view text) {
  Metrics out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    // "#12 vector: ..."
    const size_t space = line.find(' ');
    const size_t colon = line.find(':');
    if (line.empty() || line[0] != '#' || space == std::string_view::npos ||
        colon == std::string_view::npos || colon < space) {
      continue;
    }
    const std::string name =
        std::string(kAdaptivePrefix) + std::string(line.substr(space + 1, colon - space - 1));
    bool found = false;
    for (auto& [n, v] : out) {
      if (n == name) {
        v += 1;
        found = true;
      }
    }
    if (!found) out.emplace_back(name, 1.0);
  }
  return out;
}

std::string DescribeSluiceDBCounters(const Metrics& before, const Metrics& after,
                                     Metrics* metrics) {
  std::string note;
  const double flushes = Delta(before, after, "io.flushes");
  const double compactions = Delta(before, after, "io.compactions");
  if (FindMetric(after, "io.flushes").has_value()) {
    const double flush_bytes = Delta(before, after, "io.flush_bytes");
    const double read = Delta(before, after, "io.compaction_bytes_read");
    const double written = Delta(before, after, "io.compaction_bytes_written");
    metrics->emplace_back("flushes", flushes);
    metrics->emplace_back("flush_bytes", flush_bytes);
    metrics->emplace_back("compactions", compactions);
    metrics->emplace_back("compaction_bytes_read", read);
    metrics->emplace_back("compaction_bytes_written", written);
    if (flushes > 0 || compactions > 0) {
      note = fmt::format("[io: {:.0f} flushes ({}), {:.0f} compactions (read {}, wrote {})]",
                         flushes, MB(flush_bytes), compactions, MB(read), MB(written));
    }
  }
  std::vector<std::string> choices;
  for (const auto& [name, value] : after) {
    if (name.rfind(kAdaptivePrefix, 0) != 0) continue;
    const double n = value - FindMetric(before, name).value_or(0);
    if (n <= 0) continue;
    const std::string rep = name.substr(kAdaptivePrefix.size());
    choices.push_back(fmt::format("{:.0f} {}", n, rep));
    metrics->emplace_back("adaptive_" + rep, n);
  }
  if (!choices.empty()) {
    if (!note.empty()) note += " ";
    note += "[adaptive:";
    for (size_t i = 0; i < choices.size(); i++) note += (i == 0 ? " " : ", ") + choices[i];
    note += "]";
  }
  return note;
}

}  // namespace sluice_bench
