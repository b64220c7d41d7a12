// version/version.h — one immutable snapshot of the set of SST files, level by level.
//
// Invariants:
//   * Level 0 files may overlap each other; they are ordered by largest sequence number,
//     descending. Files created by flushes have disjoint sequence ranges (components are flushed
//     in order); files placed in L0 by RepairDB may not, and lookups allow for that.
//   * Files of a level >= 1 are ordered by key and their user-key ranges are disjoint: a user
//     key's versions are never split across two files of one level (compaction only cuts output
//     files between user keys).
//   * Data flows down: for any user key, versions in level L are newer than versions in level
//     L+1, so a lookup that searches top-down and stops at the first hit is correct.
// A Version is shared (std::shared_ptr) by the current super version, iterators and
// compactions; its files stay on disk as long as it lives (see file_metadata.h).

#ifndef SLUICE_VERSION_VERSION_H_
#define SLUICE_VERSION_VERSION_H_

#include <memory>
#include <string>
#include <vector>

#include "base/internal_iterator.h"
#include "base/internal_key.h"
#include "sluice/options.h"
#include "version/file_metadata.h"

namespace sluice {

class TableCache;

using FileList = std::vector<std::shared_ptr<FileMetaData>>;

// What a lookup in SST files found.
struct TableLookup {
  SequenceNumber sequence = 0;
  ValueType type = kTypeValue;
  std::string value;
};

// One key of a Version::MultiGet: its lookup key in, its outcome out.
struct TableMultiLookup {
  Slice internal_key;  // the user key and the read point, as LookupKey::internal_key()
  TableLookup result;  // valid if found
  bool found = false;
  Status status;  // an error reading a file that may hold the key (then found says nothing)
};

class Version {
 public:
  explicit Version(int num_levels) : files_(static_cast<size_t>(num_levels)) {}

  int num_levels() const { return static_cast<int>(files_.size()); }
  const FileList& files(int level) const { return files_[static_cast<size_t>(level)]; }
  int NumFiles(int level) const { return static_cast<int>(files(level).size()); }
  uint64_t NumLevelBytes(int level) const;
  uint64_t TotalBytes() const;

  // Finds the newest version of key with sequence <= key.sequence() in the SST files.
  // *found is false if there is none; errors (I/O, corruption) are returned.
  Status Get(const ReadOptions& options, const LookupKey& key, TableCache* table_cache,
             TableLookup* result, bool* found) const;
  // Get for each of items[0..n), whose user keys must ascend strictly, setting each item's
  // found, result and status as Get would. Each file is opened once for all the keys it may
  // hold, and keys in one of its data blocks read it once.
  void MultiGet(const ReadOptions& options, TableCache* table_cache, TableMultiLookup* items,
                size_t n) const;

  // True if some file holds range tombstones.
  bool has_range_deletions() const { return has_range_deletions_; }
  // Raises *covering to the largest sequence number <= read_seq of a range tombstone covering
  // user_key in any file (every level: tombstones are judged by sequence number, wherever they
  // are). Only files whose range holds user_key and that have tombstones are opened.
  Status MaxCoveringTombstone(const Slice& user_key, SequenceNumber read_seq,
                              TableCache* table_cache, SequenceNumber* covering) const;
  // Every file's range tombstones that a reader at read_seq may need (the files that have some),
  // added to *check.
  Status AddRangeTombstones(TableCache* table_cache, class RangeDelCheck* check) const;

  // Appends iterators that together yield every entry of the SST files.
  void AddIterators(const ReadOptions& options, TableCache* table_cache,
                    std::vector<std::unique_ptr<InternalIterator>>* iters) const;

  // Files of `level` whose user-key range intersects [begin, end] (nullptr: unbounded).
  FileList GetOverlappingInputs(int level, const Slice* begin_user_key,
                                const Slice* end_user_key) const;
  // True if some file of `level` holds user keys in [smallest, largest] (nullptr: unbounded).
  bool OverlapInLevel(int level, const Slice* smallest, const Slice* largest) const;

  // One line per file: "L1 #12 2.0 MiB ['a' @ 3 : put .. 'k' @ 9 : put]".
  std::string DebugString() const;

 private:
  friend class VersionBuilder;
  std::vector<FileList> files_;
  bool has_range_deletions_ = false;  // set by VersionBuilder
};

// Index of the first file in a sorted, disjoint file list whose largest key >= internal_key
// (files.size() if none).
size_t FindFile(const FileList& files, const Slice& internal_key);

// Whether a file of a sorted level may hold a version of internal_key's user key at or below
// its sequence: internal_key <= the file's largest key, unless that largest key is a range
// tombstone's end bound at this very user key. Such a bound (user key, kMaxSequenceNumber) is
// exclusive — the file holds no version of that key, the next file does — yet it compares
// equal to a lookup at the latest sequence (user key, kMaxSequenceNumber, kValueTypeForSeek).
bool FileMayHoldKey(const FileMetaData& f, const Slice& internal_key);

// Index of the one file of a sorted, disjoint file list that may hold a version of
// internal_key's user key (FileMayHoldKey), or files.size(): FindFile, past files ending with
// a tombstone's end bound at that user key. Point lookups (Get, MultiGet, the covering
// tombstone) must use this rather than FindFile.
size_t FindFileForKey(const FileList& files, const Slice& internal_key);

}  // namespace sluice

#endif  // SLUICE_VERSION_VERSION_H_
