// sluice_bench/ycsb_generators.cc — see ycsb_generators.h. Each formula follows the YCSB class
// named in the comment above it, quirks included (noted where they matter).

#include "sluice_bench/ycsb_generators.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace sluice_bench {
namespace {

constexpr uint64_t kFnvOffsetBasis64 = 0xCBF29CE484222325ULL;
constexpr uint64_t kFnvPrime64 = 1099511628211ULL;

// ScrambledZipfianGenerator.ITEM_COUNT and ZETAN: the zeta of 10^10 items at theta 0.99.
constexpr uint64_t kScrambledItemCount = 10000000000ULL;
constexpr double kScrambledZetan = 26.46902820178302;

}  // namespace

// Utils.fnvhash64: the octets of a Java long, low first (`val >> 8` is arithmetic, but only 8
// octets are taken, so the sign never shifts in), then Math.abs (which leaves Long.MIN_VALUE
// negative).
int64_t FnvHash64(int64_t value) {
  uint64_t v = static_cast<uint64_t>(value);
  uint64_t hash = kFnvOffsetBasis64;
  for (int i = 0; i < 8; i++) {
    hash ^= v & 0xff;
    hash *= kFnvPrime64;
    v >>= 8;
  }
  const auto h = static_cast<int64_t>(hash);
  return h == std::numeric_limits<int64_t>::min() ? h : (h < 0 ? -h : h);
}

// CoreWorkload.buildKeyName with zeropadding=1: no padding is ever needed.
std::string YcsbKeyName(uint64_t keynum, bool hashed) {
  const int64_t n = hashed ? FnvHash64(static_cast<int64_t>(keynum)) : static_cast<int64_t>(keynum);
  return "user" + std::to_string(n);
}

// ZipfianGenerator.zeta(st, n, theta, initialsum).
double ZipfianZeta(uint64_t from, uint64_t to, double theta, double initial) {
  double sum = initial;
  for (uint64_t i = from; i < to; i++) sum += 1.0 / std::pow(static_cast<double>(i + 1), theta);
  return sum;
}

// ZipfianGenerator(min = 0, max = items - 1, zipfianconstant, zetan).
ZipfianGenerator::ZipfianGenerator(uint64_t items, double theta, double zetan)
    : items_(items),
      count_for_zeta_(items),
      theta_(theta),
      alpha_(1.0 / (1.0 - theta)),
      zeta2theta_(ZipfianZeta(0, 2, theta)),
      zetan_(zetan >= 0 ? zetan : ZipfianZeta(0, items, theta)),
      half_pow_theta_(std::pow(0.5, theta)) {
  assert(items >= 1);
  eta_ = (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) / (1 - zeta2theta_ / zetan_);
}

void ZipfianGenerator::SetItems(uint64_t items) {
  zetan_ = ZipfianZeta(count_for_zeta_, items, theta_, zetan_);
  // YCSB recomputes eta from the constructor's item count, not the new one: kept, so that
  // requestdistribution=latest draws as YCSB's does.
  eta_ = (1 - std::pow(2.0 / static_cast<double>(items_), 1 - theta_)) / (1 - zeta2theta_ / zetan_);
  count_for_zeta_ = items;
}

// ZipfianGenerator.nextLong(itemcount).
uint64_t ZipfianGenerator::Next(Random64* rnd, uint64_t item_count) {
  if (item_count > count_for_zeta_) SetItems(item_count);
  const double u = UniformDouble(rnd);
  const double uz = u * zetan_;
  if (uz < 1.0) return 0;
  if (uz < 1.0 + half_pow_theta_) return 1;
  return static_cast<uint64_t>(static_cast<double>(item_count) *
                               std::pow(eta_ * u - eta_ + 1, alpha_));
}

// ScrambledZipfianGenerator(min, max) with theta 0.99: ZipfianGenerator(0, ITEM_COUNT, ZETAN),
// whose item count is ITEM_COUNT + 1.
ScrambledZipfian::ScrambledZipfian(uint64_t min, uint64_t max)
    : min_(min),
      item_count_(max - min + 1),
      ranks_(kScrambledItemCount + 1, kYcsbZipfianConstant, kScrambledZetan) {
  assert(min <= max);
}

uint64_t ScrambledZipfian::Next(Random64* rnd) {
  const int64_t hash = FnvHash64(static_cast<int64_t>(ranks_.Next(rnd)));
  // Java's % keeps the dividend's sign; only Long.MIN_VALUE is negative here.
  const int64_t offset = hash % static_cast<int64_t>(item_count_);
  return min_ +
         static_cast<uint64_t>(offset < 0 ? offset + static_cast<int64_t>(item_count_) : offset);
}

AcknowledgedCounter::AcknowledgedCounter(uint64_t start)
    : next_(start), limit_(start - 1), window_(kWindow, false) {}

// AcknowledgedCounterGenerator.acknowledge, with a lock always taken (YCSB's tryLock leaves the
// advance to whichever thread gets it; the result is the same).
void AcknowledgedCounter::Acknowledge(uint64_t value) {
  std::lock_guard<std::mutex> lock(mu_);
  window_[value % kWindow] = true;
  uint64_t limit = limit_.load(std::memory_order_relaxed);
  while (window_[(limit + 1) % kWindow]) {
    window_[(limit + 1) % kWindow] = false;
    limit++;
  }
  // release: a reader that sees the new limit finds every insert up to it in the database.
  limit_.store(limit, std::memory_order_release);
}

// SkewedLatestGenerator: ZipfianGenerator(basis.lastValue()), then max - nextLong(max). As in
// YCSB, key number 0 is never drawn (the rank is below max).
SkewedLatest::SkewedLatest(const AcknowledgedCounter* basis, double basis_zetan)
    : basis_(basis),
      ranks_(std::max<uint64_t>(basis->last_value(), 1), kYcsbZipfianConstant, basis_zetan) {}

uint64_t SkewedLatest::Next(Random64* rnd) {
  const uint64_t max = basis_->last_value();
  return max - ranks_.Next(rnd, max);
}

}  // namespace sluice_bench
