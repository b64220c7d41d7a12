// version/compaction_picker.h — the leveled compaction policy: which files to compact next.
//
// Policy (kept apart from the data structures, Pebble-style):
//   * score(L0) = number of L0 files / level0_file_num_compaction_trigger;
//     score(Ln) = bytes in Ln / max_bytes_for_level(n), where max_bytes_for_level(1) =
//     max_bytes_for_level_base and each deeper level is max_bytes_for_level_multiplier times
//     larger. Levels with score >= 1 are tried from the highest score down.
//   * L0 -> L1 takes every L0 file (they overlap each other anyway) plus the overlapping L1
//     files; it is not started while another L0 compaction runs.
//   * Ln -> Ln+1 takes one Ln file plus the overlapping Ln+1 files. Which one is
//     compaction_pri's choice: round-robin over the key space (compact pointers), or the file
//     with the smallest ratio of overlapping Ln+1 bytes to its own bytes (ties: key order);
//     when that file cannot be taken (an overlapping file is being compacted) the next one in
//     the same order is tried.
//   * A candidate that shares a file with a running compaction is skipped.
// Output files are cut at target_file_size_base and before overlapping more than ten target
// files of the level below the output.

#ifndef SLUICE_VERSION_COMPACTION_PICKER_H_
#define SLUICE_VERSION_COMPACTION_PICKER_H_

#include <memory>
#include <string>
#include <vector>

#include "sluice/options.h"
#include "version/compaction.h"
#include "version/version.h"

namespace sluice {

class CompactionPicker {
 public:
  explicit CompactionPicker(const Options& options) : options_(options) {}

  uint64_t MaxBytesForLevel(int level) const;
  // Highest compaction score of the version (>= 1 means work to do).
  double MaxScore(const Version& v) const;
  double LevelScore(const Version& v, int level) const;
  // Bytes compactions must still read and write to bring every level within its target (the
  // compaction debt; RocksDB's "estimate-pending-compaction-bytes", defined the same way): L0,
  // once it holds level0_file_num_compaction_trigger files, counts all its bytes, which move
  // into L1; a level n >= 1 whose bytes (plus what moves in from above) exceed
  // MaxBytesForLevel(n) counts the excess times (1 + bytes of level n+1 / bytes of level n),
  // the excess plus the share of level n+1 it is merged with, and moves the excess down.
  uint64_t EstimatePendingBytes(const Version& v) const;

  // The next compaction, or nullptr. compact_pointers[level] is the largest key of the last
  // compaction at that level ("" if none). REQUIRES: the DB mutex is held (marks inputs).
  std::unique_ptr<Compaction> Pick(const std::shared_ptr<const Version>& v,
                                   const std::vector<std::string>& compact_pointers) const;

  // A compaction of the files of `level` overlapping [begin, end] (user keys, nullptr:
  // unbounded) into level + 1; nullptr if there are none or one is already being compacted
  // (*busy is then set). A caller compacting on a user's request sets its `manual`.
  // REQUIRES: the DB mutex is held.
  std::unique_ptr<Compaction> PickRange(const std::shared_ptr<const Version>& v, int level,
                                        const Slice* begin, const Slice* end, bool* busy) const;

 private:
  std::unique_ptr<Compaction> Make(const std::shared_ptr<const Version>& v, int level,
                                   FileList inputs) const;
  // The files of level (>= 1) in the order compaction_pri tries them.
  std::vector<size_t> CandidateOrder(const Version& v, int level,
                                     const std::vector<std::string>& compact_pointers) const;

  const Options options_;
};

// Smallest and largest user keys of a set of files (REQUIRES: non-empty).
void KeyRange(const FileList& files, std::string* smallest, std::string* largest);

}  // namespace sluice

#endif  // SLUICE_VERSION_COMPACTION_PICKER_H_
