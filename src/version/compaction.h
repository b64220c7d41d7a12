// version/compaction.h — one compaction: input files from `level` and `level + 1`, merged into
// new files at `level + 1`.
//
// A Compaction holds its input version (so its inputs stay readable) and marks its inputs
// being_compacted from creation (under the DB mutex) until Release(), so no two compactions
// ever share a file. It also answers the questions the merge asks while it runs: may a deletion
// marker be dropped here (no deeper level holds the key), and should the current output file be
// closed before this key (it would overlap too much of level + 2).

#ifndef SLUICE_VERSION_COMPACTION_H_
#define SLUICE_VERSION_COMPACTION_H_

#include <cstdint>
#include <memory>
#include <string>

#include "version/version.h"
#include "version/version_edit.h"

namespace sluice {

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
  // True if the output file should be closed before internal_key (overlap with level + 2).
  // Call for every key in order.
  bool ShouldStopBefore(const Slice& internal_key);

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
  size_t grandparent_index_ = 0;
  bool seen_key_ = false;
  uint64_t overlapped_bytes_ = 0;
  bool released_ = false;
};

}  // namespace sluice

#endif  // SLUICE_VERSION_COMPACTION_H_
