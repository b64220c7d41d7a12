// sluice_bench/sluice_buffer_probe.h — the buffer_* benchmarks' engine side: one sluice memory
// component (Options::memtable with its options, or from a given factory; created without the
// adaptive policy, as NewUnobservedComponent does) driven directly, without WAL, database or
// budget, so what is measured is the data structure: its inserts, point reads, range scans
// and its own memory accounting (MemoryComponent::ApproximateMemoryUsage).

#ifndef SLUICE_BENCH_SLUICE_BUFFER_PROBE_H_
#define SLUICE_BENCH_SLUICE_BUFFER_PROBE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "memory/memory_component.h"
#include "memory/memory_component_factory.h"
#include "sluice/options.h"
#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

class SluiceBufferProbe final : public KVBufferProbe {
 public:
  // Fails (the component's Status as text) on an unknown component name or bad options.
  static EngineStatus Create(const sluice::Options& options,
                             std::unique_ptr<SluiceBufferProbe>* probe);
  // The same with the component created by `factory` (engine_sluice.cc: FloDB's factory with
  // the benchmark's switches).
  static EngineStatus Create(sluice::MemoryComponentFactory* factory,
                             std::unique_ptr<SluiceBufferProbe>* probe);

  void Add(std::string_view key, std::string_view value) override;
  bool Get(std::string_view key) override;
  uint64_t Scan(std::string_view start, uint64_t count) override;
  size_t MemoryUsage() const override { return component_->ApproximateMemoryUsage(); }

 private:
  explicit SluiceBufferProbe(std::unique_ptr<sluice::MemoryComponent> component)
      : component_(std::move(component)) {}

  std::unique_ptr<sluice::MemoryComponent> component_;
  sluice::SequenceNumber sequence_ = 0;
  sluice::MemoryLookup lookup_;
  std::string target_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_SLUICE_BUFFER_PROBE_H_
