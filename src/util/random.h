// util/random.h — a small, fast pseudo-random generator (xorshift64*) for skiplist heights,
// tests and benchmarks. Not thread-safe: give each thread its own.

#ifndef SLUICE_UTIL_RANDOM_H_
#define SLUICE_UTIL_RANDOM_H_

#include <cstdint>

namespace sluice {

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed ? seed : 0x9e3779b97f4a7c15ull) {}

  uint64_t Next64() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545f4914f6cdd1dull;
  }
  uint32_t Next() { return static_cast<uint32_t>(Next64() >> 32); }
  // Uniform in [0, n). REQUIRES: n > 0.
  uint64_t Uniform(uint64_t n) { return Next64() % n; }
  // True with probability 1/n.
  bool OneIn(uint64_t n) { return Uniform(n) == 0; }
  // Picks "base" uniformly from [0, max_log] and returns a number in [0, 2^base): skewed
  // towards small numbers.
  uint64_t Skewed(int max_log) { return Uniform(uint64_t{1} << Uniform(max_log + 1)); }

 private:
  uint64_t state_;
};

}  // namespace sluice

#endif  // SLUICE_UTIL_RANDOM_H_
