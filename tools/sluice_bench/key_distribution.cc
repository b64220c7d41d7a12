// sluice_bench/key_distribution.cc — skewed and permuted key numbers (see key_distribution.h).

#include "sluice_bench/key_distribution.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace sluice_bench {
namespace {

// 2^61 - 1 is prime and larger than any --num, so multiplying by it modulo num is a bijection
// of [0, num).
constexpr uint64_t kPermutationPrime = (uint64_t{1} << 61) - 1;
// A fixed offset, so that key 0 is not always first.
constexpr uint64_t kPermutationOffset = 0x5bd1e995;

}  // namespace

SkewedKeys::SkewedKeys(uint64_t num, double hot_key_fraction, double hot_op_fraction) : num_(num) {
  assert(num >= 1);
  const double hot = std::round(static_cast<double>(num) * hot_key_fraction);
  hot_keys_ = std::clamp<uint64_t>(static_cast<uint64_t>(hot), 1, num);
  stride_ = num / hot_keys_;
  hot_threshold_ = static_cast<uint64_t>(
      std::llround(std::clamp(hot_op_fraction, 0.0, 1.0) * static_cast<double>(uint64_t{1} << 32)));
}

uint64_t SkewedKeys::Next(Random64* rnd) const {
  const bool hot = (rnd->Next() >> 32) < hot_threshold_;
  if (hot || hot_keys_ == num_) return rnd->Uniform(hot_keys_) * stride_;
  // A cold key: uniform over the keys that are not hot (rejection; at most a few draws, since
  // hot keys are a small share of the space).
  for (;;) {
    const uint64_t k = rnd->Uniform(num_);
    if (!IsHot(k)) return k;
  }
}

uint64_t PermutedKeys::At(uint64_t i) const {
  const unsigned __int128 x =
      static_cast<unsigned __int128>(i % num_) * kPermutationPrime + kPermutationOffset;
  return static_cast<uint64_t>(x % num_);
}

}  // namespace sluice_bench
