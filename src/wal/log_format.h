// wal/log_format.h — the physical layout of log files (the WAL and the MANIFEST).
//
// A log is a sequence of 32 KiB blocks. A logical record (a WAL write batch, a MANIFEST edit)
// is stored as one or more fragments, each with a 7-byte header:
//
//     masked crc32c (4) | payload length (2, little-endian) | fragment type (1) | payload
//
// The checksum covers the type byte and the payload. A record that fits in the rest of the
// block is one kFull fragment; otherwise kFirst, kMiddle..., kLast, one per block. When fewer
// than 7 bytes remain in a block they are zero padding and the next fragment starts in the next
// block. A fragment never crosses a block boundary, so a reader can resynchronise at the next
// block after damage, and a torn write at the end of the file shows as a truncated fragment.

#ifndef SLUICE_WAL_LOG_FORMAT_H_
#define SLUICE_WAL_LOG_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "sluice/slice.h"

namespace sluice::log {

enum RecordType : uint8_t {
  kZeroType = 0,  // never written: a zero header means the bytes were never written
  kFullType = 1,
  kFirstType = 2,
  kMiddleType = 3,
  kLastType = 4,
};
constexpr uint8_t kMaxRecordType = kLastType;

constexpr size_t kBlockSize = 32768;
constexpr size_t kHeaderSize = 4 + 2 + 1;

// The file offset just past a record of n payload bytes written at file offset start.
uint64_t PhysicalEnd(uint64_t start, size_t n);

// Appends to *out the physical bytes (padding, headers, payload fragments) of a record with
// this payload written at file offset start; exactly PhysicalEnd(start, n) - start bytes.
void EncodePhysical(uint64_t start, const Slice& payload, std::string* out);

}  // namespace sluice::log

#endif  // SLUICE_WAL_LOG_FORMAT_H_
