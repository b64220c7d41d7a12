// sluice_bench/random.h — the seedable pseudo-random generator that drives every workload.
//
// SplitMix64: tiny state, fast, and statistically good enough to pick keys. Each benchmark
// thread owns one generator, so draws need no synchronization and a run is reproducible from
// --seed.

#ifndef SLUICE_BENCH_RANDOM_H_
#define SLUICE_BENCH_RANDOM_H_

#include <cstdint>

namespace sluice_bench {

class Random64 {
 public:
  explicit Random64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, n). REQUIRES: n > 0. Multiply-shift reduction: the bias is below n / 2^64.
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >> 64);
  }

 private:
  uint64_t state_;
};

// Derives independent seeds from (base seed, benchmark position, thread id), so that e.g.
// readrandom does not replay the key order of the fillrandom before it, while every engine of
// one invocation sees exactly the same key sequences.
inline uint64_t DeriveSeed(uint64_t base, uint64_t benchmark_index, uint64_t thread_id) {
  uint64_t s = Random64(base).Next();
  s = Random64(s + benchmark_index).Next();
  return Random64(s + thread_id).Next();
}

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_RANDOM_H_
