// wal/log_format.cc — see log_format.h.

#include "wal/log_format.h"

#include <algorithm>

#include "util/coding.h"
#include "util/crc32c.h"

namespace sluice::log {

uint64_t PhysicalEnd(uint64_t start, size_t n) {
  uint64_t pos = start;
  size_t left = n;
  do {
    const size_t leftover = kBlockSize - pos % kBlockSize;
    if (leftover < kHeaderSize) pos += leftover;  // trailer padding
    const size_t avail = kBlockSize - pos % kBlockSize - kHeaderSize;
    const size_t fragment = std::min(left, avail);
    pos += kHeaderSize + fragment;
    left -= fragment;
  } while (left > 0);
  return pos;
}

void EncodePhysical(uint64_t start, const Slice& payload, std::string* out) {
  uint64_t pos = start;
  const char* p = payload.data();
  size_t left = payload.size();
  bool begin = true;
  do {
    const size_t leftover = kBlockSize - pos % kBlockSize;
    if (leftover < kHeaderSize) {
      out->append(leftover, '\0');
      pos += leftover;
    }
    const size_t avail = kBlockSize - pos % kBlockSize - kHeaderSize;
    const size_t fragment = std::min(left, avail);
    const bool end = (left == fragment);
    RecordType type;
    if (begin && end) {
      type = kFullType;
    } else if (begin) {
      type = kFirstType;
    } else if (end) {
      type = kLastType;
    } else {
      type = kMiddleType;
    }
    char header[kHeaderSize];
    const char type_byte = static_cast<char>(type);
    uint32_t crc = crc32c::Value(&type_byte, 1);
    crc = crc32c::Extend(crc, p, fragment);
    EncodeFixed32(header, crc32c::Mask(crc));
    EncodeFixed16(header + 4, static_cast<uint16_t>(fragment));
    header[6] = type_byte;
    out->append(header, kHeaderSize);
    out->append(p, fragment);
    pos += kHeaderSize + fragment;
    p += fragment;
    left -= fragment;
    begin = false;
  } while (left > 0);
}

}  // namespace sluice::log
