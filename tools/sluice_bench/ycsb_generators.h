// sluice_bench/ycsb_generators.h — the number generators of YCSB's core workload, as YCSB
// defines them (site.ycsb.generator.*, site.ycsb.Utils), so that sluice_bench's ycsb_*
// benchmarks pick the same kind of keys as published YCSB results:
//   FnvHash64            Utils.fnvhash64: FNV-1a over the 8 bytes of a long, low byte first,
//                        then Math.abs; scrambles key numbers (insertorder=hashed) and zipfian
//                        ranks.
//   YcsbKeyName          CoreWorkload.buildKeyName: "user" + the (hashed) key number in
//                        decimal, zero-padded to zeropadding (1) digits.
//   ZipfianGenerator     ZipfianGenerator (Gray et al., SIGMOD'94): rank 0 most popular,
//                        P(rank i) proportional to 1/(i+1)^theta; zeta grows incrementally
//                        when the item count grows (SkewedLatest's basis).
//   ScrambledZipfian     ScrambledZipfianGenerator: a zipfian rank over 10^10 items (zeta
//                        precomputed for theta 0.99) hashed into [min, max], so the popular
//                        keys are spread over the key space.
//   SkewedLatest         SkewedLatestGenerator: the newest inserted key is the most popular
//                        (requestdistribution=latest).
//   AcknowledgedCounter  AcknowledgedCounterGenerator: hands out insert key numbers; its last
//                        value is the highest number below which every insert has finished, so
//                        reads never pick a key whose insert is still under way.
// Each thread owns its generators (given its Random64); AcknowledgedCounter is shared and
// thread-safe.

#ifndef SLUICE_BENCH_YCSB_GENERATORS_H_
#define SLUICE_BENCH_YCSB_GENERATORS_H_

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "sluice_bench/random.h"

namespace sluice_bench {

// YCSB's zipfian constant (ZipfianGenerator.ZIPFIAN_CONSTANT).
inline constexpr double kYcsbZipfianConstant = 0.99;

int64_t FnvHash64(int64_t value);

// The key of key number `keynum`; hashed: insertorder=hashed (YCSB's default).
std::string YcsbKeyName(uint64_t keynum, bool hashed = true);

// A double uniform in [0, 1) from 53 random bits.
inline double UniformDouble(Random64* rnd) {
  return static_cast<double>(rnd->Next() >> 11) * (1.0 / 9007199254740992.0);
}

// sum_{i=from}^{to-1} 1 / (i+1)^theta, added to `initial` (ZipfianGenerator.zeta).
double ZipfianZeta(uint64_t from, uint64_t to, double theta, double initial = 0);

class ZipfianGenerator {
 public:
  // Ranks in [0, items). zetan: ZipfianZeta(0, items, theta) if already known (< 0: compute).
  ZipfianGenerator(uint64_t items, double theta = kYcsbZipfianConstant, double zetan = -1);

  // A rank in [0, items).
  uint64_t Next(Random64* rnd) { return Next(rnd, items_); }
  // A rank in [0, item_count); a larger count than before extends zeta (never shrinks it, as
  // YCSB's allowitemcountdecrease=false).
  uint64_t Next(Random64* rnd, uint64_t item_count);

  uint64_t items() const { return items_; }
  double zetan() const { return zetan_; }

 private:
  void SetItems(uint64_t items);

  uint64_t items_;
  uint64_t count_for_zeta_;  // the item count zetan_ sums over
  double theta_;
  double alpha_;
  double zeta2theta_;
  double zetan_;
  double eta_;
  double half_pow_theta_;  // 0.5^theta: the bound of rank 1
};

class ScrambledZipfian {
 public:
  // Key numbers in [min, max]. REQUIRES: min <= max.
  ScrambledZipfian(uint64_t min, uint64_t max);
  uint64_t Next(Random64* rnd);

 private:
  uint64_t min_;
  uint64_t item_count_;
  ZipfianGenerator ranks_;
};

class AcknowledgedCounter {
 public:
  // The first number handed out is `start`; last_value() starts at start - 1.
  explicit AcknowledgedCounter(uint64_t start);

  uint64_t Next() { return next_.fetch_add(1, std::memory_order_relaxed); }
  // The insert of `value` (from Next) has finished.
  void Acknowledge(uint64_t value);
  // Every number up to this one has been acknowledged.
  uint64_t last_value() const { return limit_.load(std::memory_order_acquire); }

 private:
  // A window of acknowledgements not yet contiguous with limit_ (YCSB: 2^20 slots).
  static constexpr uint64_t kWindow = uint64_t{1} << 20;

  std::atomic<uint64_t> next_;
  std::atomic<uint64_t> limit_;
  std::mutex mu_;
  std::vector<bool> window_;  // guarded by mu_: slot value % kWindow acknowledged
};

class SkewedLatest {
 public:
  // basis_zetan: ZipfianZeta(0, basis->last_value()) computed once for every thread (< 0:
  // compute here).
  explicit SkewedLatest(const AcknowledgedCounter* basis, double basis_zetan = -1);
  uint64_t Next(Random64* rnd);

 private:
  const AcknowledgedCounter* basis_;
  ZipfianGenerator ranks_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_YCSB_GENERATORS_H_
