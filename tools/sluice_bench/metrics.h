// sluice_bench/metrics.h — named numbers a benchmark records besides its rates, such as the
// share of writes sluice's FloDB component completed in its Membuffer or the keys a scan
// benchmark accessed. In order; written to the JSON results as an object ("metrics").

#ifndef SLUICE_BENCH_METRICS_H_
#define SLUICE_BENCH_METRICS_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice_bench {

using Metrics = std::vector<std::pair<std::string, double>>;

// The value named `name`, if present.
inline std::optional<double> FindMetric(const Metrics& metrics, std::string_view name) {
  for (const auto& [n, v] : metrics) {
    if (n == name) return v;
  }
  return std::nullopt;
}

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_METRICS_H_
