// base/internal_key.h — internal keys: how the engine tags every version of a user key.
//
// An internal key is   user_key | fixed64( sequence << 8 | type )   (8-byte little-endian
// trailer). Sequence numbers (cLSM's timestamps) are 56 bits, taken from one global counter at the
// start of each write; all updates of one write batch share its sequence number. For one user
// key, a larger sequence number is a newer version. Internal keys sort by user key ascending,
// then by trailer descending, so a search for (k, s) lands on the newest version of k with
// sequence <= s.

#ifndef SLUICE_BASE_INTERNAL_KEY_H_
#define SLUICE_BASE_INTERNAL_KEY_H_

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "sluice/slice.h"
#include "util/coding.h"
#include "util/comparator.h"

namespace sluice {

using SequenceNumber = uint64_t;

constexpr SequenceNumber kMaxSequenceNumber = (uint64_t{1} << 56) - 1;
// Writes are refused once the last sequence number is within this of kMaxSequenceNumber.
constexpr SequenceNumber kSequenceMargin = SequenceNumber{1} << 32;

// Stored in SST files and the WAL: never renumber.
enum ValueType : uint8_t {
  kTypeDeletion = 0x0,
  kTypeValue = 0x1,
  // A range tombstone's record in a write batch (WAL); never the type of an internal key
  // (tombstones live apart: base/range_tombstone.h), so IsValidValueType rejects it.
  kTypeRangeDeletion = 0xF,
};
// The type that sorts first among equal (user key, sequence): used when seeking.
constexpr ValueType kValueTypeForSeek = kTypeValue;

inline bool IsValidValueType(uint8_t t) { return t <= kTypeValue; }

inline uint64_t PackSequenceAndType(SequenceNumber seq, ValueType t) { return (seq << 8) | t; }

struct ParsedInternalKey {
  Slice user_key;
  SequenceNumber sequence = 0;
  ValueType type = kTypeValue;

  ParsedInternalKey() = default;
  ParsedInternalKey(const Slice& u, SequenceNumber s, ValueType t)
      : user_key(u), sequence(s), type(t) {}
  std::string DebugString() const;
};

inline size_t InternalKeyEncodingLength(const ParsedInternalKey& k) {
  return k.user_key.size() + 8;
}

void AppendInternalKey(std::string* result, const ParsedInternalKey& key);

// False if the key is shorter than 8 bytes or has an unknown type.
inline bool ParseInternalKey(const Slice& internal_key, ParsedInternalKey* result) {
  const size_t n = internal_key.size();
  if (n < 8) return false;
  const uint64_t num = DecodeFixed64(internal_key.data() + n - 8);
  const uint8_t c = static_cast<uint8_t>(num & 0xff);
  result->sequence = num >> 8;
  result->type = static_cast<ValueType>(c);
  result->user_key = Slice(internal_key.data(), n - 8);
  return IsValidValueType(c);
}

// An internal key is at least its 8-byte trailer (SST blocks reject shorter keys).
constexpr size_t kMinInternalKeySize = 8;

// REQUIRES: internal_key.size() >= 8.
inline Slice ExtractUserKey(const Slice& internal_key) {
  return Slice(internal_key.data(), internal_key.size() - 8);
}
inline uint64_t ExtractTrailer(const Slice& internal_key) {
  return DecodeFixed64(internal_key.data() + internal_key.size() - 8);
}
inline SequenceNumber ExtractSequence(const Slice& internal_key) {
  return ExtractTrailer(internal_key) >> 8;
}

// Orders internal keys (see the file comment). Works for any user comparator, though sluice
// uses only the bytewise one.
class InternalKeyComparator final : public Comparator {
 public:
  explicit InternalKeyComparator(const Comparator* user)
      : user_(user), user_bytewise_(user == BytewiseComparator()) {}
  const char* Name() const override { return "sluice.InternalKeyComparator"; }
  int Compare(const Slice& a, const Slice& b) const override {
    // Bytewise user keys (the default) are compared here, without a virtual call.
    int r = user_bytewise_ ? BytewiseCompare(ExtractUserKey(a), ExtractUserKey(b))
                           : user_->Compare(ExtractUserKey(a), ExtractUserKey(b));
    if (r == 0) {
      const uint64_t anum = ExtractTrailer(a);
      const uint64_t bnum = ExtractTrailer(b);
      if (anum > bnum) {
        r = -1;
      } else if (anum < bnum) {
        r = +1;
      }
    }
    return r;
  }
  void FindShortestSeparator(std::string* start, const Slice& limit) const override;
  void FindShortSuccessor(std::string* key) const override;
  const Comparator* user_comparator() const { return user_; }

 private:
  const Comparator* user_;
  const bool user_bytewise_;
};

// The internal-key comparator over bytewise user keys. A process-wide singleton.
const InternalKeyComparator* DefaultInternalKeyComparator();

// An owned internal key.
class InternalKey {
 public:
  InternalKey() = default;
  InternalKey(const Slice& user_key, SequenceNumber s, ValueType t) {
    AppendInternalKey(&rep_, ParsedInternalKey(user_key, s, t));
  }
  bool DecodeFrom(const Slice& s) {
    rep_.assign(s.data(), s.size());
    return !rep_.empty();
  }
  Slice Encode() const { return rep_; }
  Slice user_key() const { return ExtractUserKey(rep_); }
  bool empty() const { return rep_.empty(); }
  void Clear() { rep_.clear(); }
  void SetFrom(const ParsedInternalKey& p) {
    rep_.clear();
    AppendInternalKey(&rep_, p);
  }
  std::string DebugString() const;

 private:
  std::string rep_;
};

// The internal key to seek for "newest version of user_key visible at sequence s". Short keys
// live in an inline buffer, so a point lookup does not allocate.
class LookupKey {
 public:
  LookupKey(const Slice& user_key, SequenceNumber s) {
    const size_t n = user_key.size() + 8;
    char* dst = space_;
    if (n > sizeof(space_)) {
      heap_ = std::make_unique<char[]>(n);
      dst = heap_.get();
    }
    std::memcpy(dst, user_key.data(), user_key.size());
    EncodeFixed64(dst + user_key.size(), PackSequenceAndType(s, kValueTypeForSeek));
    key_ = Slice(dst, n);
  }
  LookupKey(const LookupKey&) = delete;
  LookupKey& operator=(const LookupKey&) = delete;

  Slice internal_key() const { return key_; }
  Slice user_key() const { return ExtractUserKey(key_); }
  SequenceNumber sequence() const { return ExtractSequence(key_); }

 private:
  char space_[128];
  std::unique_ptr<char[]> heap_;
  Slice key_;
};

}  // namespace sluice

#endif  // SLUICE_BASE_INTERNAL_KEY_H_
