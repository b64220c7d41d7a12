// sluice_bench/histogram.cc — log-linear latency histogram (see histogram.h).

#include "sluice_bench/histogram.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace sluice_bench {
namespace {

constexpr uint64_t kSubBuckets = uint64_t{1} << LatencyHistogram::kSubBucketBits;
// log2 of kExactLimit: the first power of two split into sub-buckets.
constexpr int kFirstSplitExponent = 7;
static_assert(LatencyHistogram::kExactLimit == (uint64_t{1} << kFirstSplitExponent));
static_assert(LatencyHistogram::kExactLimit == 2 * kSubBuckets);

// Upper bounds (in nanoseconds) of the rows of the printed table: 1, 1.2, 1.4, ... 9 times each
// power of ten from 100 ns up. The first row is [0, 100 ns).
const std::vector<uint64_t>& DisplayLimits() {
  static const std::vector<uint64_t> limits = [] {
    static constexpr uint64_t kMantissas[] = {10, 12, 14, 16, 18, 20, 25, 30,
                                              35, 40, 45, 50, 60, 70, 80, 90};
    std::vector<uint64_t> v;
    for (uint64_t scale = 10; scale <= uint64_t{100'000'000'000'000'000}; scale *= 10) {
      for (uint64_t m : kMantissas) v.push_back(m * scale);
    }
    v.push_back(std::numeric_limits<uint64_t>::max());
    return v;
  }();
  return limits;
}

// Microseconds for the table: two decimals below 10 us, none above.
std::string FormatMicros(uint64_t nanos) {
  if (nanos == std::numeric_limits<uint64_t>::max()) return "inf";
  const double us = static_cast<double>(nanos) / 1000.0;
  return us < 10.0 ? fmt::format("{:.2f}", us) : fmt::format("{:.0f}", us);
}

}  // namespace

LatencyHistogram::LatencyHistogram() : buckets_(kNumBuckets, 0) {}

void LatencyHistogram::Clear() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = 0;
  min_ = 0;
  max_ = 0;
  sum_ = 0;
  sum_squares_ = 0;
}

size_t LatencyHistogram::BucketIndex(uint64_t nanos) {
  if (nanos < kExactLimit) return static_cast<size_t>(nanos);
  const int exponent = std::bit_width(nanos) - 1;  // >= kFirstSplitExponent
  const int shift = exponent - kSubBucketBits;
  const uint64_t sub = (nanos >> shift) - kSubBuckets;  // in [0, kSubBuckets)
  return static_cast<size_t>(
      kExactLimit + static_cast<uint64_t>(exponent - kFirstSplitExponent) * kSubBuckets + sub);
}

uint64_t LatencyHistogram::BucketLower(size_t index) {
  if (index < kExactLimit) return index;
  const uint64_t rel = index - kExactLimit;
  const int shift = static_cast<int>(rel / kSubBuckets) + kFirstSplitExponent - kSubBucketBits;
  return (kSubBuckets + rel % kSubBuckets) << shift;
}

uint64_t LatencyHistogram::BucketUpper(size_t index) {
  if (index < kExactLimit) return index + 1;
  if (index + 1 >= kNumBuckets) return std::numeric_limits<uint64_t>::max();
  return BucketLower(index + 1);
}

void LatencyHistogram::Record(uint64_t nanos) {
  ++buckets_[BucketIndex(nanos)];
  if (count_ == 0 || nanos < min_) min_ = nanos;
  if (nanos > max_) max_ = nanos;
  ++count_;
  const double v = static_cast<double>(nanos);
  sum_ += v;
  sum_squares_ += v * v;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return;
  for (size_t i = 0; i < kNumBuckets; ++i) buckets_[i] += other.buckets_[i];
  if (count_ == 0 || other.min_ < min_) min_ = other.min_;
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  sum_squares_ += other.sum_squares_;
}

double LatencyHistogram::Average() const {
  return count_ == 0 ? 0.0 : sum_ / static_cast<double>(count_);
}

double LatencyHistogram::StandardDeviation() const {
  if (count_ == 0) return 0.0;
  const double n = static_cast<double>(count_);
  const double mean = sum_ / n;
  const double variance = sum_squares_ / n - mean * mean;
  return variance > 0.0 ? std::sqrt(variance) : 0.0;
}

double LatencyHistogram::Percentile(double p) const {
  if (count_ == 0) return 0.0;
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * static_cast<double>(count_);
  uint64_t cumulative = 0;
  for (size_t i = 0; i < kNumBuckets; ++i) {
    const uint64_t in_bucket = buckets_[i];
    if (in_bucket == 0) continue;
    const uint64_t before = cumulative;
    cumulative += in_bucket;
    if (static_cast<double>(cumulative) < rank) continue;
    const double lower = static_cast<double>(BucketLower(i));
    const double upper = static_cast<double>(BucketUpper(i));
    const double fraction = (rank - static_cast<double>(before)) / static_cast<double>(in_bucket);
    const double estimate = lower + (upper - lower) * fraction;
    return std::clamp(estimate, static_cast<double>(min_), static_cast<double>(max_));
  }
  return static_cast<double>(max_);
}

std::string LatencyHistogram::ToString() const {
  std::string out;
  out += fmt::format("Count: {} Average: {:.4f}  StdDev: {:.2f}\n", count_, Average() / 1000.0,
                     StandardDeviation() / 1000.0);
  out +=
      fmt::format("Min: {:.3f}  Median: {:.4f}  Max: {:.3f}\n", static_cast<double>(min()) / 1000.0,
                  Median() / 1000.0, static_cast<double>(max_) / 1000.0);
  out += fmt::format(
      "Percentiles: P50: {:.2f} P75: {:.2f} P99: {:.2f} P99.9: {:.2f} "
      "P99.99: {:.2f}\n",
      Percentile(50) / 1000.0, Percentile(75) / 1000.0, Percentile(99) / 1000.0,
      Percentile(99.9) / 1000.0, Percentile(99.99) / 1000.0);
  out += std::string(54, '-') + "\n";
  if (count_ == 0) return out;

  // Fold the fine buckets into the display rows (each by its midpoint).
  const std::vector<uint64_t>& limits = DisplayLimits();
  std::vector<uint64_t> rows(limits.size(), 0);
  for (size_t i = 0; i < kNumBuckets; ++i) {
    if (buckets_[i] == 0) continue;
    const uint64_t lower = BucketLower(i);
    const uint64_t mid = lower + (BucketUpper(i) - lower) / 2;
    const size_t row =
        static_cast<size_t>(std::upper_bound(limits.begin(), limits.end(), mid) - limits.begin());
    rows[std::min(row, rows.size() - 1)] += buckets_[i];
  }
  const double total = static_cast<double>(count_);
  uint64_t cumulative = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r] == 0) continue;
    cumulative += rows[r];
    const double share = static_cast<double>(rows[r]) / total;
    const uint64_t lower = r == 0 ? 0 : limits[r - 1];
    out += fmt::format("[ {:>9}, {:>9} ) {:8} {:7.3f}% {:7.3f}% {}\n", FormatMicros(lower),
                       FormatMicros(limits[r]), rows[r], 100.0 * share,
                       100.0 * static_cast<double>(cumulative) / total,
                       std::string(static_cast<size_t>(std::lround(20.0 * share)), '#'));
  }
  return out;
}

}  // namespace sluice_bench
