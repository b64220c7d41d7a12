// memory/encoded_entry.h — the byte layout of one version inside a memory component, shared by
// every representation that stores versions as contiguous entries:
//
//     varint32 internal_key_length | internal_key (user key + 8-byte trailer)
//     varint32 value_length        | value
//
// and the comparator that orders such entries by internal key. A lookup target is encoded the
// same way (with an empty value), so one comparator serves inserts and searches.

#ifndef SLUICE_MEMORY_ENCODED_ENTRY_H_
#define SLUICE_MEMORY_ENCODED_ENTRY_H_

#include <cstdint>
#include <cstring>
#include <string>

#include "base/internal_key.h"
#include "util/coding.h"

namespace sluice {

inline size_t EncodedEntrySize(const Slice& user_key, const Slice& value) {
  const size_t ikey = user_key.size() + 8;
  return VarintLength(ikey) + ikey + VarintLength(value.size()) + value.size();
}

// Writes the entry into dst, which has EncodedEntrySize() bytes.
inline void EncodeEntry(char* dst, SequenceNumber seq, ValueType type, const Slice& user_key,
                        const Slice& value) {
  char* p = EncodeVarint32(dst, static_cast<uint32_t>(user_key.size() + 8));
  std::memcpy(p, user_key.data(), user_key.size());
  p += user_key.size();
  EncodeFixed64(p, PackSequenceAndType(seq, type));
  p += 8;
  p = EncodeVarint32(p, static_cast<uint32_t>(value.size()));
  std::memcpy(p, value.data(), value.size());
}

// The internal key of an entry (entries are written by EncodeEntry, so they are well formed).
inline Slice EntryInternalKey(const char* entry) {
  uint32_t len;
  const char* p = GetVarint32Ptr(entry, entry + 5, &len);
  return Slice(p, len);
}

inline Slice EntryValue(const char* entry) {
  const Slice ikey = EntryInternalKey(entry);
  const char* p = ikey.data() + ikey.size();
  uint32_t len;
  p = GetVarint32Ptr(p, p + 5, &len);
  return Slice(p, len);
}

// A lookup target: the entry of (user_key, seq, kValueTypeForSeek) with an empty value.
inline void EncodeLookupEntry(std::string* dst, const Slice& user_key, SequenceNumber seq) {
  dst->clear();
  dst->resize(EncodedEntrySize(user_key, Slice()));
  EncodeEntry(dst->data(), seq, kValueTypeForSeek, user_key, Slice());
}

// Same, from an internal key.
inline void EncodeLookupEntryFromInternalKey(std::string* dst, const Slice& internal_key) {
  dst->clear();
  PutVarint32(dst, static_cast<uint32_t>(internal_key.size()));
  dst->append(internal_key.data(), internal_key.size());
  dst->push_back('\0');  // empty value
}

// Orders entries by internal key: user key bytewise ascending, then trailer descending.
struct EntryComparator {
  int operator()(const char* a, const char* b) const {
    const Slice ka = EntryInternalKey(a);
    const Slice kb = EntryInternalKey(b);
    const Slice ua(ka.data(), ka.size() - 8);
    const Slice ub(kb.data(), kb.size() - 8);
    const int r = ua.compare(ub);
    if (r != 0) return r;
    const uint64_t ta = DecodeFixed64(ka.data() + ka.size() - 8);
    const uint64_t tb = DecodeFixed64(kb.data() + kb.size() - 8);
    return ta > tb ? -1 : (ta < tb ? 1 : 0);
  }
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_ENCODED_ENTRY_H_
