// db/compaction_job.h — the merge of one Compaction: its inputs read, pruned and written to
// new files of the output level, either as one merge job or split into key ranges
// (subcompactions) merged in parallel on the low pool's threads (or the caller's, when none is
// free), whose outputs are then joined.
//
// Invariants: the ranges come from Compaction::SplitPoints, so they are disjoint, ascending and
// cut between user keys: every version of a key is pruned by one job, which sees all of them
// (snapshot and deletion rules are per key, so the split changes no decision), and each job's
// files lie inside its range, so the joined list is sorted and non-overlapping. The result is
// all or nothing: if any job fails, the files every job wrote are deleted and the first error
// (in range order) is returned. Each job has its own input iterators, pruner and overlap
// tracker; they share only the Compaction (read-only while it runs: inputs, grandparents, the
// input Version) and the file-number counter (atomic).

#ifndef SLUICE_DB_COMPACTION_JOB_H_
#define SLUICE_DB_COMPACTION_JOB_H_

#include <vector>

#include "db/merge_job.h"
#include "util/task_scheduler.h"
#include "version/compaction.h"

namespace sluice {

class TableCache;

struct CompactionJobOptions {
  // File naming, environment, table options and cancellation for every job; its range and
  // split settings are set per job.
  MergeJobOptions merge;
  TableCache* table_cache = nullptr;
  std::vector<SequenceNumber> snapshots;  // ascending
  // At most this many jobs run at once (1: no split). A range is never planned with less than
  // min_subcompaction_bytes of input.
  int max_subcompactions = 1;
  uint64_t min_subcompaction_bytes = 0;
  // Where the ranges after the first run (TaskScheduler::Client::RunParallel on the low pool);
  // null: one after the other on the caller's thread.
  TaskScheduler::Client* tasks = nullptr;
};

struct CompactionJobResult {
  MergeJobResult merged;  // the jobs' outputs in key order, and their counters summed
  int subcompactions = 1;
};

Status RunCompactionJob(const CompactionJobOptions& options, const Compaction& compaction,
                        CompactionJobResult* result);

}  // namespace sluice

#endif  // SLUICE_DB_COMPACTION_JOB_H_
