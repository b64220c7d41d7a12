// sluice_bench/sluice_persist_job.cc — see sluice_persist_job.h.

#include "sluice_bench/sluice_persist_job.h"

#include <utility>
#include <vector>

#include "base/filename.h"
#include "base/internal_key.h"
#include "db/merge_job.h"
#include "db/version_pruner.h"
#include "sluice_bench/thread_stats.h"
#include "table/table_options.h"
#include "util/epoch.h"

namespace sluice_bench {
namespace {

sluice::Slice ToSlice(std::string_view s) { return sluice::Slice(s.data(), s.size()); }

}  // namespace

EngineStatus SluicePersistJob::Create(const sluice::Options& options, const std::string& dir,
                                      std::unique_ptr<SluicePersistJob>* job) {
  std::unique_ptr<sluice::MemoryComponentFactory> factory;
  sluice::Status s = sluice::NewMemoryComponentFactory(options, &factory);
  if (!s.ok()) return EngineStatus::Error(s.ToString());
  return Create(options, std::move(factory), dir, job);
}

EngineStatus SluicePersistJob::Create(const sluice::Options& options,
                                      std::unique_ptr<sluice::MemoryComponentFactory> factory,
                                      const std::string& dir,
                                      std::unique_ptr<SluicePersistJob>* job) {
  std::unique_ptr<SluicePersistJob> j(new SluicePersistJob(options, std::move(factory), dir));
  sluice::Status s = j->env_->CreateDirIfMissing(dir);
  if (s.ok()) s = j->NewComponent();
  if (!s.ok()) return EngineStatus::Error(s.ToString());
  *job = std::move(j);
  return EngineStatus::OK();
}

SluicePersistJob::SluicePersistJob(const sluice::Options& options,
                                   std::unique_ptr<sluice::MemoryComponentFactory> factory,
                                   std::string dir)
    : options_(options),
      factory_(std::move(factory)),
      dir_(std::move(dir)),
      env_(options.env != nullptr ? options.env : sluice::Env::Default()) {
  // The table options of a database opened with these options (as DBImpl's constructor).
  if (options_.block_cache_size > 0)
    block_cache_ = sluice::NewLRUCache(options_.block_cache_size,
                                       sluice::BlockCacheShardBits(options_.block_cache_size));
  table_cache_ = std::make_unique<sluice::TableCache>(
      dir_, env_, sluice::TableOptionsFor(options_, block_cache_.get()), options_.max_open_files);
}

SluicePersistJob::~SluicePersistJob() {
  component_.reset();
  table_cache_.reset();
  std::vector<std::string> children;
  if (env_->GetChildren(dir_, &children).ok()) {
    for (const std::string& c : children) {
      if (c != "." && c != "..") env_->RemoveFile(dir_ + "/" + c);
    }
  }
  env_->RemoveDir(dir_);
  sluice::epoch::DrainAll();
}

sluice::Status SluicePersistJob::NewComponent() {
  user_bytes_ = 0;
  return factory_->NewUnobservedComponent(sluice::MemoryComponentContext(), &component_);
}

void SluicePersistJob::Add(std::string_view key, std::string_view value) {
  component_->Add(++sequence_, sluice::kTypeValue, ToSlice(key), ToSlice(value));
  user_bytes_ += key.size() + value.size();
}

bool SluicePersistJob::Full() const {
  return component_->ApproximateMemoryUsage() >= options_.write_buffer_size;
}

EngineStatus SluicePersistJob::Persist(Round* round) {
  // Not timed: gathers everything where the iterator reads (FloDB: drains the Membuffer).
  component_->MarkImmutable();

  sluice::MergeJobOptions job;
  job.dbname = dir_;
  job.env = env_;
  job.table_options = table_cache_->table_options();
  job.table_cache = table_cache_.get();
  job.paranoid_checks = options_.paranoid_checks;
  job.new_file_number = [this] { return next_file_number_++; };
  sluice::MergeJobResult result;

  const uint64_t start = NowNanos();
  std::unique_ptr<sluice::InternalIterator> iter = component_->NewIterator();
  sluice::VersionPruner pruner({}, nullptr);
  sluice::Status s = sluice::RunMergeJob(job, iter.get(), &pruner, &result);
  iter.reset();
  const uint64_t finish = NowNanos();
  if (!s.ok()) return EngineStatus::Error(s.ToString());

  round->entries = result.entries_written;
  round->user_bytes = user_bytes_;
  round->file_bytes = result.bytes_written;
  round->files = static_cast<int>(result.outputs.size());
  round->seconds = static_cast<double>(finish - start) * 1e-9;
  for (const sluice::FileMetaData& f : result.outputs) {
    table_cache_->Evict(f.number);
    env_->RemoveFile(sluice::TableFileName(dir_, f.number));
  }
  s = NewComponent();
  return s.ok() ? EngineStatus::OK() : EngineStatus::Error(s.ToString());
}

}  // namespace sluice_bench
