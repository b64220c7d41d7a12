// version/version_edit.h — a change to the set of SST files of one column family (files added
// and removed per level, its log number), or the creation or drop of a column family, plus the
// counters that must survive a restart. The MANIFEST is a log of encoded edits; replaying them
// in order rebuilds every family's current version. An edit without a column-family tag is the
// default family's (id 0), so MANIFESTs written before column families read unchanged.
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
  bool has_comparator() const { return has_comparator_; }
  const std::string& comparator_name() const { return comparator_; }
  // The column family the edit applies to (0, the default, unless set).
  void SetColumnFamily(uint32_t id) { column_family_ = id; }
  uint32_t column_family() const { return column_family_; }
  // Creates column family `name` (its id: SetColumnFamily). Its files and log number may come
  // in the same edit.
  void AddColumnFamily(const std::string& name) {
    is_column_family_add_ = true;
    column_family_name_ = name;
  }
  // Drops the column family (SetColumnFamily): its files are no longer part of the database.
  void DropColumnFamily() { is_column_family_drop_ = true; }
  bool is_column_family_add() const { return is_column_family_add_; }
  bool is_column_family_drop() const { return is_column_family_drop_; }
  const std::string& column_family_name() const { return column_family_name_; }
  // The largest column family id ever given out (ids are never reused).
  void SetMaxColumnFamily(uint32_t id) {
    has_max_column_family_ = true;
    max_column_family_ = id;
  }
  // WAL files with a number below this hold nothing of the edit's column family that is not in
  // its SST files.
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
  uint32_t column_family_ = 0;
  bool is_column_family_add_ = false;
  bool is_column_family_drop_ = false;
  std::string column_family_name_;
  bool has_max_column_family_ = false;
  uint32_t max_column_family_ = 0;
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
