// base/internal_key.cc — see internal_key.h.

#include "base/internal_key.h"

#include <fmt/format.h>

namespace sluice {

void AppendInternalKey(std::string* result, const ParsedInternalKey& key) {
  result->append(key.user_key.data(), key.user_key.size());
  PutFixed64(result, PackSequenceAndType(key.sequence, key.type));
}

std::string ParsedInternalKey::DebugString() const {
  return fmt::format("'{}' @ {} : {}", user_key.ToEscapedString(), sequence,
                     type == kTypeValue ? "put" : "del");
}

std::string InternalKey::DebugString() const {
  ParsedInternalKey parsed;
  if (ParseInternalKey(rep_, &parsed)) return parsed.DebugString();
  return "(bad)" + Slice(rep_).ToEscapedString();
}

void InternalKeyComparator::FindShortestSeparator(std::string* start, const Slice& limit) const {
  // Shorten the user-key part; if it got shorter but stays larger, tag it with the largest
  // trailer so it still sorts before every version of the shortened user key.
  Slice user_start = ExtractUserKey(*start);
  Slice user_limit = ExtractUserKey(limit);
  std::string tmp(user_start.data(), user_start.size());
  user_->FindShortestSeparator(&tmp, user_limit);
  if (tmp.size() < user_start.size() && user_->Compare(user_start, tmp) < 0) {
    PutFixed64(&tmp, PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek));
    *start = std::move(tmp);
  }
}

void InternalKeyComparator::FindShortSuccessor(std::string* key) const {
  Slice user_key = ExtractUserKey(*key);
  std::string tmp(user_key.data(), user_key.size());
  user_->FindShortSuccessor(&tmp);
  if (tmp.size() < user_key.size() && user_->Compare(user_key, tmp) < 0) {
    PutFixed64(&tmp, PackSequenceAndType(kMaxSequenceNumber, kValueTypeForSeek));
    *key = std::move(tmp);
  }
}

const InternalKeyComparator* DefaultInternalKeyComparator() {
  static const InternalKeyComparator* c = new InternalKeyComparator(BytewiseComparator());
  return c;
}

}  // namespace sluice
