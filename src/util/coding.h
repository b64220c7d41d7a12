// util/coding.h — little-endian fixed-width integers and LEB128 varints, as used by every
// on-disk format of sluice (WAL records, blocks, MANIFEST edits; see docs/formats.md).
//
// Decoders never read past the end of their input: Get* functions return false on truncated or
// malformed input and leave the input Slice unspecified.

#ifndef SLUICE_UTIL_CODING_H_
#define SLUICE_UTIL_CODING_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "sluice/slice.h"

namespace sluice {

// x86-64 and aarch64 are little-endian; the project builds only there (checked in CMake).
inline void EncodeFixed16(char* dst, uint16_t v) { std::memcpy(dst, &v, sizeof(v)); }
inline void EncodeFixed32(char* dst, uint32_t v) { std::memcpy(dst, &v, sizeof(v)); }
inline void EncodeFixed64(char* dst, uint64_t v) { std::memcpy(dst, &v, sizeof(v)); }
inline uint16_t DecodeFixed16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

void PutFixed32(std::string* dst, uint32_t v);
void PutFixed64(std::string* dst, uint64_t v);
void PutVarint32(std::string* dst, uint32_t v);
void PutVarint64(std::string* dst, uint64_t v);
// varint32 length followed by the bytes.
void PutLengthPrefixedSlice(std::string* dst, const Slice& value);

bool GetFixed32(Slice* input, uint32_t* value);
bool GetFixed64(Slice* input, uint64_t* value);
bool GetVarint32(Slice* input, uint32_t* value);
bool GetVarint64(Slice* input, uint64_t* value);
bool GetLengthPrefixedSlice(Slice* input, Slice* result);

// Bytes of the varint encoding of v.
int VarintLength(uint64_t v);

// Writes the varint to dst (which has room for 5 / 10 bytes); returns the byte after it.
char* EncodeVarint32(char* dst, uint32_t v);
char* EncodeVarint64(char* dst, uint64_t v);

// Parses a varint from [p, limit); returns the byte after it, or nullptr if malformed.
const char* GetVarint32PtrFallback(const char* p, const char* limit, uint32_t* value);
inline const char* GetVarint32Ptr(const char* p, const char* limit, uint32_t* value) {
  // Fast path, inline: lengths below 128 are one byte (most keys of a memory component).
  if (p < limit) {
    const uint32_t byte = static_cast<unsigned char>(*p);
    if ((byte & 0x80) == 0) {
      *value = byte;
      return p + 1;
    }
  }
  return GetVarint32PtrFallback(p, limit, value);
}
const char* GetVarint64Ptr(const char* p, const char* limit, uint64_t* value);

// The first 8 bytes of `key` as a big-endian integer, zero-padded: two keys whose prefixes
// differ compare (bytewise) as their prefixes do, so a comparison can often stop at one integer
// compare. Equal prefixes say nothing beyond the first 8 bytes.
inline uint64_t KeyPrefix64(const Slice& key) {
  if (key.size() >= 8) {
    uint64_t v;
    std::memcpy(&v, key.data(), 8);
    return __builtin_bswap64(v);  // little-endian hosts (x86-64, AArch64 as built here)
  }
  uint64_t v = 0;
  for (size_t i = 0; i < 8; i++) {
    v = (v << 8) | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0);
  }
  return v;
}

// Slice::compare (bytewise, shorter first on a tie) without a call to memcmp for the short keys
// that dominate: whole 8-byte words as big-endian integers, then the tail byte by byte; keys
// longer than kLongKey go to memcmp, which is faster there.
inline int BytewiseCompare(const Slice& a, const Slice& b) {
  constexpr size_t kLongKey = 64;
  const size_t n = std::min(a.size(), b.size());
  if (n > kLongKey) return a.compare(b);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t x = KeyPrefix64(Slice(a.data() + i, 8));
    const uint64_t y = KeyPrefix64(Slice(b.data() + i, 8));
    if (x != y) return x < y ? -1 : 1;
  }
  for (; i < n; i++) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace sluice

#endif  // SLUICE_UTIL_CODING_H_
