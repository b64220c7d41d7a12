// sluice_bench/key_distribution.h — which key number an operation touches, beyond the uniform
// draws of Random64::Uniform.
//
// SkewedKeys: a hot set of hot_key_fraction of the key space receives hot_op_fraction of the
// operations (readupdate_skewed; FloDB's paper uses 98% of operations on 2% of the keys). The
// hot keys are every stride-th key (0, stride, 2 stride, ...), spread evenly over the key
// space, so that with binary keys they fall into every Membuffer partition: the experiment
// then measures in-place updates, not the imbalance of one partition.
// PermutedKeys: every key of [0, num) exactly once, in a scrambled order (persist fills its
// memory components with distinct keys in random order).

#ifndef SLUICE_BENCH_KEY_DISTRIBUTION_H_
#define SLUICE_BENCH_KEY_DISTRIBUTION_H_

#include <cstdint>

#include "sluice_bench/random.h"

namespace sluice_bench {

class SkewedKeys {
 public:
  // REQUIRES: num >= 1, 0 <= hot_key_fraction <= 1, 0 <= hot_op_fraction <= 1.
  SkewedKeys(uint64_t num, double hot_key_fraction, double hot_op_fraction);

  // The next key number in [0, num).
  uint64_t Next(Random64* rnd) const;

  // Number of hot keys (at least 1).
  uint64_t hot_keys() const { return hot_keys_; }
  // Distance between neighbouring hot keys.
  uint64_t stride() const { return stride_; }
  bool IsHot(uint64_t k) const { return k % stride_ == 0 && k / stride_ < hot_keys_; }

 private:
  uint64_t num_;
  uint64_t hot_keys_;
  uint64_t stride_;
  // hot_op_fraction scaled to 2^32, compared with 32 random bits.
  uint64_t hot_threshold_;
};

class PermutedKeys {
 public:
  // REQUIRES: num >= 1.
  explicit PermutedKeys(uint64_t num) : num_(num) {}

  // The i-th key of the permutation, i in [0, num) (larger i wrap around).
  uint64_t At(uint64_t i) const;

 private:
  uint64_t num_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_KEY_DISTRIBUTION_H_
