// util/crc32c.h — CRC-32C (Castagnoli), the checksum of every WAL record, SST block and
// MANIFEST record. Computed by Intel ISA-L (hardware-accelerated where the CPU allows).
//
// Stored checksums are masked (rotated and offset) so that a checksum of data that itself
// contains checksums stays well distributed; always compare Unmask(stored) with Value(data).

#ifndef SLUICE_UTIL_CRC32C_H_
#define SLUICE_UTIL_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace sluice::crc32c {

// CRC-32C of data[0, n) appended to the data whose CRC-32C is init_crc.
uint32_t Extend(uint32_t init_crc, const char* data, size_t n);

// CRC-32C of data[0, n).
inline uint32_t Value(const char* data, size_t n) { return Extend(0, data, n); }

constexpr uint32_t kMaskDelta = 0xa282ead8ul;

inline uint32_t Mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + kMaskDelta; }

inline uint32_t Unmask(uint32_t masked) {
  const uint32_t rot = masked - kMaskDelta;
  return ((rot >> 17) | (rot << 15));
}

}  // namespace sluice::crc32c

#endif  // SLUICE_UTIL_CRC32C_H_
