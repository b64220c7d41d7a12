// version/version_edit.cc — see version_edit.h.

#include "version/version_edit.h"

#include <fmt/format.h>

#include "util/coding.h"

namespace sluice {

namespace {

// Stored in MANIFEST files: never renumber.
enum Tag : uint32_t {
  kComparator = 1,
  kLogNumber = 2,
  kNextFileNumber = 3,
  kLastSequence = 4,
  kCompactPointer = 5,
  kDeletedFile = 6,
  kNewFile = 7,
  // kNewFile followed by varint64 num_range_deletions: written for files that hold range
  // tombstones (others keep kNewFile, so MANIFESTs without range deletions read as before).
  kNewFileWithRangeDeletions = 8,
  // Column families: the edit applies to family varint32 id (absent: the default family, 0);
  // creates it with the length-prefixed name; drops it; the largest id ever given out.
  kColumnFamily = 9,
  kColumnFamilyAdd = 10,
  kColumnFamilyDrop = 11,
  kMaxColumnFamily = 12,
};

constexpr int kMaxLevels = 64;

// File numbers grow by one per file, so a real database never gets near this; numbers much
// above it would soon name files ParseFileName cannot read back (19 digits at most), and the
// database would lose track of them. A MANIFEST holding one is corrupt.
constexpr uint64_t kMaxFileNumber = uint64_t{1} << 62;

bool GetFileNumber(Slice* input, uint64_t* number) {
  return GetVarint64(input, number) && *number <= kMaxFileNumber;
}

bool GetInternalKey(Slice* input, InternalKey* dst) {
  Slice str;
  if (!GetLengthPrefixedSlice(input, &str) || str.size() < 8) return false;
  return dst->DecodeFrom(str);
}

bool GetLevel(Slice* input, int* level) {
  uint32_t v;
  if (GetVarint32(input, &v) && v < kMaxLevels) {
    *level = static_cast<int>(v);
    return true;
  }
  return false;
}

}  // namespace

void VersionEdit::EncodeTo(std::string* dst) const {
  if (has_comparator_) {
    PutVarint32(dst, kComparator);
    PutLengthPrefixedSlice(dst, comparator_);
  }
  if (column_family_ != 0) {
    PutVarint32(dst, kColumnFamily);
    PutVarint32(dst, column_family_);
  }
  if (is_column_family_add_) {
    PutVarint32(dst, kColumnFamilyAdd);
    PutLengthPrefixedSlice(dst, column_family_name_);
  }
  if (is_column_family_drop_) PutVarint32(dst, kColumnFamilyDrop);
  if (has_max_column_family_) {
    PutVarint32(dst, kMaxColumnFamily);
    PutVarint32(dst, max_column_family_);
  }
  if (has_log_number_) {
    PutVarint32(dst, kLogNumber);
    PutVarint64(dst, log_number_);
  }
  if (has_next_file_number_) {
    PutVarint32(dst, kNextFileNumber);
    PutVarint64(dst, next_file_number_);
  }
  if (has_last_sequence_) {
    PutVarint32(dst, kLastSequence);
    PutVarint64(dst, last_sequence_);
  }
  for (const auto& [level, key] : compact_pointers_) {
    PutVarint32(dst, kCompactPointer);
    PutVarint32(dst, static_cast<uint32_t>(level));
    PutLengthPrefixedSlice(dst, key.Encode());
  }
  for (const auto& [level, number] : deleted_files_) {
    PutVarint32(dst, kDeletedFile);
    PutVarint32(dst, static_cast<uint32_t>(level));
    PutVarint64(dst, number);
  }
  for (const auto& [level, f] : new_files_) {
    PutVarint32(dst, f.num_range_deletions > 0 ? kNewFileWithRangeDeletions : kNewFile);
    PutVarint32(dst, static_cast<uint32_t>(level));
    PutVarint64(dst, f.number);
    PutVarint64(dst, f.file_size);
    PutLengthPrefixedSlice(dst, f.smallest.Encode());
    PutLengthPrefixedSlice(dst, f.largest.Encode());
    PutVarint64(dst, f.smallest_seqno);
    PutVarint64(dst, f.largest_seqno);
    PutVarint64(dst, f.num_entries);
    PutVarint64(dst, f.num_deletions);
    if (f.num_range_deletions > 0) PutVarint64(dst, f.num_range_deletions);
  }
}

Status VersionEdit::DecodeFrom(const Slice& src) {
  Clear();
  Slice input = src;
  const char* msg = nullptr;
  uint32_t tag;
  while (msg == nullptr && GetVarint32(&input, &tag)) {
    switch (tag) {
      case kComparator: {
        Slice str;
        if (GetLengthPrefixedSlice(&input, &str)) {
          comparator_ = str.ToString();
          has_comparator_ = true;
        } else {
          msg = "comparator name";
        }
        break;
      }
      case kColumnFamily:
        if (!GetVarint32(&input, &column_family_)) msg = "column family id";
        break;
      case kColumnFamilyAdd: {
        Slice str;
        if (GetLengthPrefixedSlice(&input, &str) && !str.empty()) {
          column_family_name_ = str.ToString();
          is_column_family_add_ = true;
        } else {
          msg = "column family name";
        }
        break;
      }
      case kColumnFamilyDrop: is_column_family_drop_ = true; break;
      case kMaxColumnFamily:
        if (GetVarint32(&input, &max_column_family_)) {
          has_max_column_family_ = true;
        } else {
          msg = "max column family";
        }
        break;
      case kLogNumber:
        if (GetFileNumber(&input, &log_number_)) {
          has_log_number_ = true;
        } else {
          msg = "log number";
        }
        break;
      case kNextFileNumber:
        if (GetFileNumber(&input, &next_file_number_)) {
          has_next_file_number_ = true;
        } else {
          msg = "next file number";
        }
        break;
      case kLastSequence:
        // An internal key holds 56 bits of sequence: a larger counter cannot be resumed.
        if (GetVarint64(&input, &last_sequence_) && last_sequence_ <= kMaxSequenceNumber) {
          has_last_sequence_ = true;
        } else {
          msg = "last sequence number";
        }
        break;
      case kCompactPointer: {
        int level;
        InternalKey key;
        if (GetLevel(&input, &level) && GetInternalKey(&input, &key)) {
          compact_pointers_.emplace_back(level, key);
        } else {
          msg = "compaction pointer";
        }
        break;
      }
      case kDeletedFile: {
        int level;
        uint64_t number;
        if (GetLevel(&input, &level) && GetFileNumber(&input, &number)) {
          deleted_files_.emplace(level, number);
        } else {
          msg = "deleted file";
        }
        break;
      }
      case kNewFile:
      case kNewFileWithRangeDeletions: {
        int level;
        FileMetaData f;
        if (GetLevel(&input, &level) && GetFileNumber(&input, &f.number) &&
            GetVarint64(&input, &f.file_size) && GetInternalKey(&input, &f.smallest) &&
            GetInternalKey(&input, &f.largest) && GetVarint64(&input, &f.smallest_seqno) &&
            GetVarint64(&input, &f.largest_seqno) && GetVarint64(&input, &f.num_entries) &&
            GetVarint64(&input, &f.num_deletions) &&
            (tag == kNewFile || GetVarint64(&input, &f.num_range_deletions))) {
          new_files_.emplace_back(level, f);
        } else {
          msg = "new-file entry";
        }
        break;
      }
      default: msg = "unknown tag"; break;
    }
  }
  if (msg == nullptr && !input.empty()) msg = "invalid tag";
  if (msg == nullptr && is_column_family_add_ && is_column_family_drop_) {
    msg = "column family both added and dropped";
  }
  if (msg != nullptr) return Status::Corruption("VersionEdit", msg);
  return Status::OK();
}

std::string VersionEdit::DebugString() const {
  std::string r = "VersionEdit {";
  if (has_comparator_) r += fmt::format("\n  Comparator: {}", comparator_);
  if (column_family_ != 0) r += fmt::format("\n  ColumnFamily: {}", column_family_);
  if (is_column_family_add_) r += fmt::format("\n  ColumnFamilyAdd: {}", column_family_name_);
  if (is_column_family_drop_) r += "\n  ColumnFamilyDrop";
  if (has_max_column_family_) r += fmt::format("\n  MaxColumnFamily: {}", max_column_family_);
  if (has_log_number_) r += fmt::format("\n  LogNumber: {}", log_number_);
  if (has_next_file_number_) r += fmt::format("\n  NextFile: {}", next_file_number_);
  if (has_last_sequence_) r += fmt::format("\n  LastSeq: {}", last_sequence_);
  for (const auto& [level, key] : compact_pointers_) {
    r += fmt::format("\n  CompactPointer: L{} {}", level, key.DebugString());
  }
  for (const auto& [level, number] : deleted_files_) {
    r += fmt::format("\n  RemoveFile: L{} {}", level, number);
  }
  for (const auto& [level, f] : new_files_) {
    r += fmt::format("\n  AddFile: L{} {} {} bytes [{} .. {}] seq {}..{}", level, f.number,
                     f.file_size, f.smallest.DebugString(), f.largest.DebugString(),
                     f.smallest_seqno, f.largest_seqno);
    if (f.num_range_deletions > 0) r += fmt::format(" range-deletions {}", f.num_range_deletions);
  }
  r += "\n}\n";
  return r;
}

}  // namespace sluice
