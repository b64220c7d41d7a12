// sluice_bench/value_generator.h — values that compress to a chosen fraction of their size.
//
// Like db_bench's generator, values are windows into a pool of pseudo-random data built from
// 100-byte pieces; each piece is ratio * 100 random bytes repeated to fill it. Any block
// compressor (snappy, lz4, zstd) therefore shrinks a long run of values to about `ratio` of its
// size, so --compression_ratio means the same thing for every engine and codec.

#ifndef SLUICE_BENCH_VALUE_GENERATOR_H_
#define SLUICE_BENCH_VALUE_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice_bench {

class ValueGenerator {
 public:
  // Bytes in each piece of the pool.
  static constexpr size_t kPieceSize = 100;
  // Smallest pool; larger when a value is longer.
  static constexpr size_t kMinPoolSize = 1 << 20;

  // REQUIRES: 0 <= compression_ratio <= 1.
  ValueGenerator(double compression_ratio, size_t max_value_size, uint64_t seed);

  // The next value of `len` bytes (len <= max_value_size); valid until the generator dies.
  std::string_view Next(size_t len);

  size_t pool_size() const { return pool_.size(); }

 private:
  std::string pool_;
  size_t pos_ = 0;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_VALUE_GENERATOR_H_
