// db/compaction_job.cc — see compaction_job.h.

#include "db/compaction_job.h"

#include <functional>
#include <string>

#include "base/filename.h"
#include "base/merging_iterator.h"
#include "table/table_cache.h"
#include "version/level_iterator.h"

namespace sluice {

namespace {

// Every input of the compaction, merged: one iterator per L0 file (they overlap), one
// concatenating iterator per sorted level.
std::unique_ptr<InternalIterator> NewInputIterator(const Compaction& c, TableCache* table_cache) {
  ReadOptions ro;
  ro.fill_cache = false;
  ro.verify_checksums = true;  // never rewrite a corrupt block into a valid-looking file
  std::vector<std::unique_ptr<InternalIterator>> inputs;
  for (int which = 0; which < 2; which++) {
    const FileList& files = c.inputs(which);
    if (files.empty()) continue;
    if (c.level() + which == 0) {
      for (const auto& f : files)
        inputs.push_back(table_cache->NewIterator(ro, f->number, f->file_size));
    } else {
      inputs.push_back(NewLevelIterator(ro, table_cache, files));
    }
  }
  return NewMergingIterator(DefaultInternalKeyComparator(), std::move(inputs));
}

// One key range of the compaction and what its merge produced.
struct RangeJob {
  const std::string* keys_after = nullptr;
  const std::string* keys_upto = nullptr;
  MergeJobResult result;
  Status status;
};

// The range tombstones of every input file, fragmented together (null if there are none).
Status CollectRangeTombstones(const Compaction& c, TableCache* table_cache,
                              std::shared_ptr<const FragmentedRangeTombstones>* result) {
  std::vector<std::shared_ptr<const FragmentedRangeTombstones>> sources;
  for (int which = 0; which < 2; which++) {
    for (const auto& f : c.inputs(which)) {
      if (f->num_range_deletions == 0) continue;
      std::shared_ptr<const FragmentedRangeTombstones> t;
      Status s = table_cache->GetRangeTombstones(f->number, f->file_size, &t);
      if (!s.ok()) return s;
      sources.push_back(std::move(t));
    }
  }
  *result = MergeRangeTombstones(sources);
  return Status::OK();
}

void RunRange(const CompactionJobOptions& options, const Compaction& c,
              const std::shared_ptr<const FragmentedRangeTombstones>& tombstones, RangeJob* job) {
  std::unique_ptr<InternalIterator> input = NewInputIterator(c, options.table_cache);
  VersionPruner pruner(options.snapshots,
                       [&c](const Slice& user_key) { return c.IsBaseLevelForKey(user_key); });
  GrandparentOverlap overlap = c.NewGrandparentOverlap();
  MergeJobOptions merge = options.merge;
  merge.max_file_size = c.max_output_file_size();
  merge.should_stop_before = [&overlap](const Slice& key) { return overlap.ShouldStopBefore(key); };
  merge.keys_after = job->keys_after;
  merge.keys_upto = job->keys_upto;
  merge.range_tombstones = tombstones;
  merge.range_at_base_level = [&c](const Slice& begin, const Slice& end) {
    return c.IsBaseLevelForRange(begin, end);
  };
  job->status = RunMergeJob(merge, input.get(), &pruner, &job->result);
}

}  // namespace

Status RunCompactionJob(const CompactionJobOptions& options, const Compaction& compaction,
                        CompactionJobResult* result) {
  std::shared_ptr<const FragmentedRangeTombstones> tombstones;
  Status collected = CollectRangeTombstones(compaction, options.table_cache, &tombstones);
  if (!collected.ok()) return collected;
  const std::vector<std::string> points =
      compaction.SplitPoints(options.max_subcompactions, options.min_subcompaction_bytes);
  std::vector<RangeJob> jobs(points.size() + 1);
  for (size_t i = 0; i < points.size(); i++) {
    jobs[i].keys_upto = &points[i];
    jobs[i + 1].keys_after = &points[i];
  }
  // Job 0 runs on this thread, the others on free threads of the low pool (or here too, after
  // job 0, if none takes them).
  std::vector<std::function<void()>> tasks;
  for (RangeJob& job : jobs) {
    tasks.emplace_back([&options, &compaction, &tombstones, job = &job] {
      RunRange(options, compaction, tombstones, job);
    });
  }
  if (options.tasks != nullptr) {
    options.tasks->RunParallel(TaskScheduler::Pool::kLow, std::move(tasks));
  } else {
    for (auto& task : tasks) task();
  }

  Status s;
  for (const RangeJob& job : jobs) {
    if (s.ok() && !job.status.ok()) s = job.status;
  }
  MergeJobResult& merged = result->merged;
  result->subcompactions = static_cast<int>(jobs.size());
  for (RangeJob& job : jobs) {
    merged.bytes_written += job.result.bytes_written;
    merged.entries_read += job.result.entries_read;
    merged.entries_written += job.result.entries_written;
    merged.entries_dropped += job.result.entries_dropped;
    for (FileMetaData& f : job.result.outputs) merged.outputs.push_back(std::move(f));
  }
  if (!s.ok()) {
    // A failed job removed its own files; the others' go too: the compaction did not happen.
    for (const FileMetaData& f : merged.outputs) {
      if (options.table_cache != nullptr) options.table_cache->Evict(f.number);
      options.merge.env->RemoveFile(TableFileName(options.merge.dbname, f.number));
    }
    merged.outputs.clear();
    merged.bytes_written = 0;
  }
  return s;
}

}  // namespace sluice
