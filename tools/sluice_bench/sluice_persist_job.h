// sluice_bench/sluice_persist_job.h — persist's engine side: sorted runs written to disk by
// sluice's own flush code, to measure the persist ceiling.
//
// A memory component (Options::memtable, or from a given factory; created without the adaptive
// policy, as NewUnobservedComponent does; budget Options::write_buffer_size) is filled by Add
// (not timed). Persist then does what the database's flush (DBImpl::WriteLevel0Table) does
// with an immutable component, and times it: iterate the component, pass every entry through
// the VersionPruner and RunMergeJob (src/db/merge_job.h), which builds the SST file with the
// TableBuilder (block size, restart interval, bloom bits and compression of the Options),
// syncs and closes it and, with Options::paranoid_checks (the default), reads it back through
// a TableCache. Not timed: MarkImmutable (FloDB's final drain of its Membuffer, which the
// drain threads do during writes in a running database), the MANIFEST update, and deleting
// the file afterwards (so the disk does not fill up).

#ifndef SLUICE_BENCH_SLUICE_PERSIST_JOB_H_
#define SLUICE_BENCH_SLUICE_PERSIST_JOB_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "memory/memory_component.h"
#include "memory/memory_component_factory.h"
#include "sluice/env.h"
#include "sluice/options.h"
#include "sluice_bench/kv_engine.h"
#include "table/table_cache.h"
#include "util/cache.h"

namespace sluice_bench {

class SluicePersistJob final : public KVPersistJob {
 public:
  // Creates dir (files are written there and deleted after each round; dir is removed by the
  // destructor).
  static EngineStatus Create(const sluice::Options& options, const std::string& dir,
                             std::unique_ptr<SluicePersistJob>* job);
  // The same with the components created by `factory` (engine_sluice.cc: FloDB's factory with
  // the benchmark's switches).
  static EngineStatus Create(const sluice::Options& options,
                             std::unique_ptr<sluice::MemoryComponentFactory> factory,
                             const std::string& dir, std::unique_ptr<SluicePersistJob>* job);
  ~SluicePersistJob() override;

  void Add(std::string_view key, std::string_view value) override;
  bool Full() const override;
  EngineStatus Persist(Round* round) override;

 private:
  SluicePersistJob(const sluice::Options& options,
                   std::unique_ptr<sluice::MemoryComponentFactory> factory, std::string dir);
  sluice::Status NewComponent();

  const sluice::Options options_;
  const std::unique_ptr<sluice::MemoryComponentFactory> factory_;
  const std::string dir_;
  sluice::Env* const env_;
  std::shared_ptr<sluice::Cache> block_cache_;
  std::unique_ptr<sluice::TableCache> table_cache_;
  std::unique_ptr<sluice::MemoryComponent> component_;
  uint64_t sequence_ = 0;
  uint64_t next_file_number_ = 1;
  // Keys and values added to the current component.
  uint64_t user_bytes_ = 0;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_SLUICE_PERSIST_JOB_H_
