// memory/flodb/flodb_factory.h — the factory of the "flodb" memory components
// (flodb_component.h).
//
// It owns the FloDBStats counters that every component it creates shares, so they accumulate
// across the DB's component switches; the DB reports them as GetProperty("sluice.flodb-stats")
// (FloDBStats::ToString) and counts its bounded scans in them (RecordScanEvent). One factory per
// DB, so one set of counters per DB.

#ifndef SLUICE_MEMORY_FLODB_FLODB_FACTORY_H_
#define SLUICE_MEMORY_FLODB_FLODB_FACTORY_H_

#include <memory>
#include <string>

#include "memory/flodb/flodb_component.h"
#include "memory/flodb/flodb_stats.h"
#include "memory/memory_component_factory.h"

namespace sluice {

// FloDB's options from the public Options (write_buffer_size, membuffer_fraction,
// membuffer_partition_bits, membuffer_bucket_slots, flodb_drain_threads). use_membuffer and
// multi_insert keep their defaults: they are switches for measuring what each part of FloDB
// buys (sluice_bench's --flodb_use_membuffer and --flodb_multi_insert), not Options.
FloDBOptions FloDBOptionsFrom(const Options& options);

class FloDBComponentFactory final : public MemoryComponentFactory {
 public:
  explicit FloDBComponentFactory(const FloDBOptions& options)
      : options_(options), stats_(std::make_shared<FloDBStats>()) {}

  const char* Name() const override { return "flodb"; }
  Status NewComponent(const MemoryComponentContext& context,
                      std::unique_ptr<MemoryComponent>* result) override;
  // "sluice.flodb-stats": the counters (FloDBStats::ToString).
  bool GetProperty(const Slice& property, std::string* value) const override;
  void RecordScanEvent(ScanEvent event) override;

  const FloDBOptions& options() const { return options_; }
  // The counters every component of this factory shares.
  const std::shared_ptr<FloDBStats>& stats() const { return stats_; }

 private:
  const FloDBOptions options_;
  const std::shared_ptr<FloDBStats> stats_;
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_FLODB_FACTORY_H_
