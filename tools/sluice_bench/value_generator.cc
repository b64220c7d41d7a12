// sluice_bench/value_generator.cc — compressible value pool (see value_generator.h).

#include "sluice_bench/value_generator.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "sluice_bench/random.h"

namespace sluice_bench {

ValueGenerator::ValueGenerator(double compression_ratio, size_t max_value_size, uint64_t seed) {
  assert(compression_ratio >= 0.0 && compression_ratio <= 1.0);
  const size_t size = std::max(kMinPoolSize, max_value_size);
  const size_t unique = std::clamp<size_t>(
      static_cast<size_t>(std::lround(compression_ratio * kPieceSize)), 1, kPieceSize);
  Random64 rnd(seed);
  pool_.reserve(size + kPieceSize);
  std::string piece(kPieceSize, '\0');
  while (pool_.size() < size) {
    for (size_t i = 0; i < unique; ++i) piece[i] = static_cast<char>(rnd.Next() & 0xff);
    for (size_t i = unique; i < kPieceSize; ++i) piece[i] = piece[i - unique];
    pool_.append(piece);
  }
  pool_.resize(size);
}

std::string_view ValueGenerator::Next(size_t len) {
  assert(len <= pool_.size());
  if (pos_ + len > pool_.size()) pos_ = 0;
  std::string_view v(pool_.data() + pos_, len);
  pos_ += len;
  return v;
}

}  // namespace sluice_bench
