// db/merge_job.h — writes a sorted stream of versions to new SST files: the one piece of code
// behind flushes (a memory component to one L0 file) and compactions (merged inputs to files
// of the output level).
//
// Every entry passes through the VersionPruner. Output files are cut only between user keys
// (so a level >= 1 never splits a key across files), when the current file reached
// max_file_size or the compaction asks for it (overlap with the grandparent level). A job may
// be limited to a range of user keys (a subcompaction): it then reads only those. Each file
// is synced and closed before the job returns; if paranoid checks are on it is also reopened. On
// any error, the files written so far are deleted.
//
// Range tombstones of the inputs (range_tombstones) hide the versions they cover (the pruner's
// rule 3) and are written out, pruned, clipped to the job's key range, each file getting the
// part before the key the next file starts with: a file's key range covers its tombstones
// (file_metadata.h). A job with tombstones and no versions writes a file of tombstones only.

#ifndef SLUICE_DB_MERGE_JOB_H_
#define SLUICE_DB_MERGE_JOB_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/internal_iterator.h"
#include "base/range_tombstone.h"
#include "db/version_pruner.h"
#include "sluice/env.h"
#include "table/table_builder.h"
#include "version/file_metadata.h"

namespace sluice {

class TableCache;

struct MergeJobOptions {
  std::string dbname;
  Env* env = nullptr;
  TableOptions table_options;
  TableCache* table_cache = nullptr;  // used to verify outputs (when paranoid)
  bool paranoid_checks = true;
  uint64_t max_file_size = 0;  // 0: one file, however large
  std::function<uint64_t()> new_file_number;
  // Asked before each new user key: close the current file first? (may be empty)
  std::function<bool(const Slice& internal_key)> should_stop_before;
  // Checked every few thousand entries: stop with an error (e.g. the DB is closing).
  const std::atomic<bool>* cancel = nullptr;
  // Only the user keys above *keys_after and up to *keys_upto (inclusive); null: no bound on
  // that side. The input iterator must support Seek when keys_after is set.
  const std::string* keys_after = nullptr;
  const std::string* keys_upto = nullptr;
  // The inputs' range tombstones (null: none), and whether no level below the output holds
  // user keys in [begin, end) (null: never, as for a flush).
  std::shared_ptr<const FragmentedRangeTombstones> range_tombstones;
  std::function<bool(const Slice& begin, const Slice& end)> range_at_base_level;
};

struct MergeJobResult {
  std::vector<FileMetaData> outputs;
  uint64_t bytes_written = 0;
  uint64_t entries_read = 0;
  uint64_t entries_written = 0;
  uint64_t entries_dropped = 0;
};

// Reads `input` from its first entry (in range) to its end (or the range's).
Status RunMergeJob(const MergeJobOptions& options, InternalIterator* input, VersionPruner* pruner,
                   MergeJobResult* result);

}  // namespace sluice

#endif  // SLUICE_DB_MERGE_JOB_H_
