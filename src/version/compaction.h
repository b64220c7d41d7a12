// version/compaction.h — one compaction: input files from `level` and `level + 1`, merged into
// new files at `level + 1`.
//
// A Compaction holds its input version (so its inputs stay readable) and marks its inputs
// being_compacted from creation (under the DB mutex) until Release(), so no two compactions
// ever share a file. It also answers the questions the merge asks while it runs: may a deletion
// marker be dropped here (no deeper level holds the key), and should the current output file be
// closed before this key (it would overlap too much of level + 2: one GrandparentOverlap per
// stream of output keys). And it splits itself into key ranges that subcompactions merge in
// parallel (SplitPoints): ranges end on user-key boundaries of a sorted input level, so every
// version of a key falls in one range, and each range's outputs lie between its bounds.

#ifndef SLUICE_VERSION_COMPACTION_H_
#define SLUICE_VERSION_COMPACTION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "version/version.h"
#include "version/version_edit.h"

namespace sluice {

// For one stream of output keys in ascending order: how many bytes of level + 2 the current
// output file overlaps, and so when to close it (a file overlapping too much of the level
// below makes its own compaction later too large).
class GrandparentOverlap {
 public:
  GrandparentOverlap(const FileList* grandparents, uint64_t max_overlap_bytes)
      : grandparents_(grandparents), max_overlap_bytes_(max_overlap_bytes) {}

  // True if the output file should be closed before internal_key. Call for every new user key,
  // in order.
  bool ShouldStopBefore(const Slice& internal_key);

 private:
  const FileList* grandparents_;
  const uint64_t max_overlap_bytes_;
  size_t index_ = 0;
  bool seen_key_ = false;
  uint64_t overlapped_bytes_ = 0;
};

class Compaction {
 public:
  Compaction(std::shared_ptr<const Version> input_version, int level, FileList inputs,
             FileList next_level_inputs, FileList grandparents, uint64_t max_output_file_size,
             uint64_t max_grandparent_overlap_bytes);
  ~Compaction();
  Compaction(const Compaction&) = delete;
  Compaction& operator=(const Compaction&) = delete;

  int level() const { return level_; }
  int output_level() const { return level_ + 1; }
  const FileList& inputs(int which) const { return inputs_[which]; }
  const Version& input_version() const { return *input_version_; }
  uint64_t max_output_file_size() const { return max_output_file_size_; }

  // One input file and nothing to merge with: the file can simply move down a level.
  bool IsTrivialMove() const;
  // Adds the removal of every input file to edit.
  void AddInputDeletions(VersionEdit* edit) const;
  // True if no level below the output level holds user_key: a deletion marker for it that no
  // snapshot needs can be dropped.
  bool IsBaseLevelForKey(const Slice& user_key) const;
  // True if no level below the output level holds user keys in [begin, end): a range
  // tombstone over it that no snapshot needs can be dropped.
  bool IsBaseLevelForRange(const Slice& begin, const Slice& end) const;
  // A fresh overlap tracker for one stream of output keys (it refers to this compaction).
  GrandparentOverlap NewGrandparentOverlap() const {
    return GrandparentOverlap(&grandparents_, max_grandparent_overlap_bytes_);
  }
  // Up to max_parts - 1 user keys, ascending, that cut the compaction into key ranges of about
  // equal input size, none smaller than min_part_bytes: range i holds the user keys above
  // point i - 1 (if any) and up to point i (the last range has no upper end). The points are
  // the largest keys of files of the sorted input level (level + 1, or level >= 1's own files
  // when it has nothing below), balanced by those files' sizes. Empty: merge it as one range.
  std::vector<std::string> SplitPoints(int max_parts, uint64_t min_part_bytes) const;

  uint64_t InputBytes() const;
  std::string Summary() const;

  // Unmarks the inputs. REQUIRES: the DB mutex is held. Called once, when the compaction ends.
  void ReleaseInputs();
  bool manual = false;

 private:
  std::shared_ptr<const Version> input_version_;
  const int level_;
  FileList inputs_[2];
  const FileList grandparents_;
  const uint64_t max_output_file_size_;
  const uint64_t max_grandparent_overlap_bytes_;
  bool released_ = false;
};

}  // namespace sluice

#endif  // SLUICE_VERSION_COMPACTION_H_
