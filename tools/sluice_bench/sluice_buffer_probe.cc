// sluice_bench/sluice_buffer_probe.cc — see sluice_buffer_probe.h.

#include "sluice_bench/sluice_buffer_probe.h"

#include "base/internal_key.h"
#include "util/epoch.h"

namespace sluice_bench {

EngineStatus SluiceBufferProbe::Create(const sluice::Options& options,
                                       std::unique_ptr<SluiceBufferProbe>* probe) {
  std::unique_ptr<sluice::MemoryComponentFactory> factory;
  sluice::Status s = sluice::NewMemoryComponentFactory(options, &factory);
  if (!s.ok()) return EngineStatus::Error(s.ToString());
  return Create(factory.get(), probe);
}

EngineStatus SluiceBufferProbe::Create(sluice::MemoryComponentFactory* factory,
                                       std::unique_ptr<SluiceBufferProbe>* probe) {
  std::unique_ptr<sluice::MemoryComponent> component;
  // No snapshots and no scans to prepare: the probe's reads always want the newest version.
  // The component may outlive its factory.
  sluice::Status s = factory->NewUnobservedComponent(sluice::MemoryComponentContext(), &component);
  if (!s.ok()) return EngineStatus::Error(s.ToString());
  probe->reset(new SluiceBufferProbe(std::move(component)));
  return EngineStatus::OK();
}

void SluiceBufferProbe::Add(std::string_view key, std::string_view value) {
  component_->Add(++sequence_, sluice::kTypeValue, sluice::Slice(key.data(), key.size()),
                  sluice::Slice(value.data(), value.size()), /*keep_older=*/false);
}

bool SluiceBufferProbe::Get(std::string_view key) {
  sluice::epoch::Guard guard;  // components that reclaim through epochs read inside one
  return component_->Get(sluice::Slice(key.data(), key.size()), sluice::kMaxSequenceNumber,
                         &lookup_);
}

uint64_t SluiceBufferProbe::Scan(std::string_view start, uint64_t count) {
  bool piggybacked;
  component_->PrepareScan(/*allow_piggyback=*/false, &piggybacked);
  std::unique_ptr<sluice::InternalIterator> it = component_->NewIterator();
  target_.clear();
  sluice::AppendInternalKey(
      &target_, sluice::ParsedInternalKey(sluice::Slice(start.data(), start.size()),
                                          sluice::kMaxSequenceNumber, sluice::kValueTypeForSeek));
  uint64_t visited = 0;
  for (it->Seek(target_); it->Valid() && visited < count; it->Next()) visited++;
  return visited;
}

}  // namespace sluice_bench
