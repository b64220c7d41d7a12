// sluice_bench/histogram.h — a latency histogram with bounded relative error and percentiles.
//
// Records durations in nanoseconds into log-linear buckets: exact below 128 ns, then 64 equal
// buckets per power of two, so a bucket is at most 1/64 (1.6%) of its values wide. Percentiles
// interpolate linearly inside the bucket holding the requested rank and are clamped to the
// exact minimum and maximum. Count, sum, sum of squares, min and max are exact. Reports are in
// microseconds. Not thread-safe: each thread records into its own histogram; merge them after.

#ifndef SLUICE_BENCH_HISTOGRAM_H_
#define SLUICE_BENCH_HISTOGRAM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice_bench {

class LatencyHistogram {
 public:
  // Values below kExactLimit get a bucket each.
  static constexpr uint64_t kExactLimit = 128;
  static constexpr int kSubBucketBits = 6;
  static constexpr size_t kNumBuckets = kExactLimit + (64 - 7) * (size_t{1} << kSubBucketBits);

  LatencyHistogram();

  void Clear();
  void Record(uint64_t nanos);
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  // 0 when empty.
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  // In nanoseconds; 0 when empty.
  double Average() const;
  double StandardDeviation() const;
  // The p-th percentile (0 <= p <= 100) in nanoseconds; 0 when empty.
  double Percentile(double p) const;
  double Median() const { return Percentile(50.0); }

  // db_bench-like report in microseconds: count/average/stddev, min/median/max, the
  // P50/P75/P99/P99.9/P99.99 line and a table of non-empty rows with cumulative percentages.
  std::string ToString() const;

  // Bucket geometry, exposed for tests: the bucket of a value and its [lower, upper) bounds.
  static size_t BucketIndex(uint64_t nanos);
  static uint64_t BucketLower(size_t index);
  // Saturates at UINT64_MAX for the last bucket.
  static uint64_t BucketUpper(size_t index);

 private:
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t min_ = 0;
  uint64_t max_ = 0;
  double sum_ = 0;
  double sum_squares_ = 0;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_HISTOGRAM_H_
