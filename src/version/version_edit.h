// version/version_edit.h — a change to the set of SST files (files added and removed per level)
// plus the counters that must survive a restart. The MANIFEST is a log of encoded edits;
// replaying them in order rebuilds the current version.
//
// Encoding: a sequence of (varint32 tag, fields) pairs, tags below. Unknown tags are an error
// (Corruption), so a newer format is never misread.

#ifndef SLUICE_VERSION_VERSION_EDIT_H_
#define SLUICE_VERSION_VERSION_EDIT_H_

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/internal_key.h"
#include "sluice/status.h"
#include "version/file_metadata.h"

namespace sluice {

class VersionEdit {
 public:
  void Clear() { *this = VersionEdit(); }

  void SetComparatorName(const Slice& name) {
    has_comparator_ = true;
    comparator_ = name.ToString();
  }
  // WAL files with a number below this hold nothing that is not in SST files.
  void SetLogNumber(uint64_t num) {
    has_log_number_ = true;
    log_number_ = num;
  }
  void SetNextFile(uint64_t num) {
    has_next_file_number_ = true;
    next_file_number_ = num;
  }
  void SetLastSequence(SequenceNumber seq) {
    has_last_sequence_ = true;
    last_sequence_ = seq;
  }
  void SetCompactPointer(int level, const InternalKey& key) {
    compact_pointers_.emplace_back(level, key);
  }
  void AddFile(int level, const FileMetaData& f) { new_files_.emplace_back(level, f); }
  void RemoveFile(int level, uint64_t number) { deleted_files_.emplace(level, number); }

  void EncodeTo(std::string* dst) const;
  Status DecodeFrom(const Slice& src);
  std::string DebugString() const;

  // What the edit changes (for tools that replay a MANIFEST).
  const std::vector<std::pair<int, FileMetaData>>& new_files() const { return new_files_; }
  const std::set<std::pair<int, uint64_t>>& deleted_files() const { return deleted_files_; }

 private:
  friend class VersionSet;
  friend class VersionBuilder;

  std::string comparator_;
  uint64_t log_number_ = 0;
  uint64_t next_file_number_ = 0;
  SequenceNumber last_sequence_ = 0;
  bool has_comparator_ = false;
  bool has_log_number_ = false;
  bool has_next_file_number_ = false;
  bool has_last_sequence_ = false;
  std::vector<std::pair<int, InternalKey>> compact_pointers_;
  std::set<std::pair<int, uint64_t>> deleted_files_;
  std::vector<std::pair<int, FileMetaData>> new_files_;
};

}  // namespace sluice

#endif  // SLUICE_VERSION_VERSION_EDIT_H_
