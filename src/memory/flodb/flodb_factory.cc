// memory/flodb/flodb_factory.cc — the "flodb" components' factory (see flodb_factory.h).

#include "memory/flodb/flodb_factory.h"

namespace sluice {

FloDBOptions FloDBOptionsFrom(const Options& options) {
  FloDBOptions f;
  f.write_buffer_size = options.write_buffer_size;
  f.membuffer_fraction = options.membuffer_fraction;
  f.partition_bits = options.membuffer_partition_bits;
  f.bucket_slots = options.membuffer_bucket_slots;
  f.drain_threads = options.flodb_drain_threads;
  return f;
}

Status FloDBComponentFactory::NewComponent(const MemoryComponentContext& context,
                                           std::unique_ptr<MemoryComponent>* result) {
  FloDBOptions o = options_;
  if (context.write_buffer_size != 0) o.write_buffer_size = context.write_buffer_size;
  *result = std::make_unique<FloDBComponent>(o, context, stats_);
  return Status::OK();
}

bool FloDBComponentFactory::GetProperty(const Slice& property, std::string* value) const {
  if (property != Slice("sluice.flodb-stats")) return false;
  *value = stats_->ToString();
  return true;
}

void FloDBComponentFactory::RecordScanEvent(ScanEvent event) {
  switch (event) {
    case ScanEvent::kStarted: FloDBStats::Add(&stats_->scans); break;
    case ScanEvent::kRestarted: FloDBStats::Add(&stats_->scan_restarts); break;
    case ScanEvent::kFellBack: FloDBStats::Add(&stats_->scan_fallbacks); break;
  }
}

}  // namespace sluice
