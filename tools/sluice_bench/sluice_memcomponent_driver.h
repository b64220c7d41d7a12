// sluice_bench/sluice_memcomponent_driver.h — memcomponent's engine side: writes go straight
// into a sluice memory component (src/memory/memory_component.h), without WAL or database.
//
// Every Put takes the next sequence number from one atomic counter and adds the version to the
// current component. A writer that finds the component at its budget (Options::
// write_buffer_size, as measured by ApproximateMemoryUsage, the check the DB's write path
// makes) replaces it with a fresh one; the full one is dropped, not persisted (FloDB's paper,
// section 5.5), and freed through sluice's epoch reclamation once no writer is inside it, like
// the database's own switch. The components come from one factory per driver
// (src/memory/memory_component_factory.h), created without the adaptive policy as before
// (NewUnobservedComponent); FloDB's counters, which its factory owns, are shared by all
// components of a driver, so they cover the whole run.

#ifndef SLUICE_BENCH_SLUICE_MEMCOMPONENT_DRIVER_H_
#define SLUICE_BENCH_SLUICE_MEMCOMPONENT_DRIVER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "memory/flodb/flodb_stats.h"
#include "memory/memory_component.h"
#include "memory/memory_component_factory.h"
#include "sluice/options.h"
#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

class SluiceMemoryComponentDriver final : public KVMemoryComponentDriver {
 public:
  // The component is options.memtable with its family's options from `options`; the budget is
  // options.write_buffer_size. Fails (InvalidArgument) on an unknown component name.
  static EngineStatus Create(const sluice::Options& options,
                             std::unique_ptr<SluiceMemoryComponentDriver>* driver);
  // The same with the components created by `factory` (engine_sluice.cc: FloDB's factory with
  // the benchmark's switches).
  static EngineStatus Create(const sluice::Options& options,
                             std::unique_ptr<sluice::MemoryComponentFactory> factory,
                             std::unique_ptr<SluiceMemoryComponentDriver>* driver);
  // REQUIRES: no Put running.
  ~SluiceMemoryComponentDriver() override;

  void Put(std::string_view key, std::string_view value) override;
  // "(N components dropped) [flodb: ...% of writes in the Membuffer, ...]"; metrics:
  // components_dropped, then those of DescribeFloDBCounters (FloDB components only).
  std::string Describe(Metrics* metrics) override;

  // Versions added so far.
  uint64_t writes() const { return sequence_.load(std::memory_order_relaxed); }
  // Full components replaced so far.
  uint64_t components_dropped() const { return dropped_.load(std::memory_order_relaxed); }
  // Versions held by every component, dropped ones included (fewer than writes() where a
  // component replaced versions in place). Waits for dropped components to be freed.
  // REQUIRES: no Put running.
  uint64_t VersionsHeld();
  // The FloDB counters as Metrics (flodb_counters.h names); empty for other components.
  Metrics ReadCounters() const;

 private:
  SluiceMemoryComponentDriver(const sluice::Options& options,
                              std::unique_ptr<sluice::MemoryComponentFactory> factory);
  sluice::Status NewComponent(std::unique_ptr<sluice::MemoryComponent>* component);
  // Replaces `full` unless another writer already did.
  void Switch(sluice::MemoryComponent* full);
  // Epoch-reclamation callback: counts a dropped component's versions and frees it.
  static void FreeDropped(void* dropped);

  const sluice::Options options_;
  const std::unique_ptr<sluice::MemoryComponentFactory> factory_;
  const std::shared_ptr<sluice::FloDBStats> stats_;         // FloDB's factory's; else null
  std::atomic<sluice::MemoryComponent*> current_{nullptr};  // owned
  std::mutex switch_mu_;
  std::atomic<uint64_t> sequence_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> dropped_versions_{0};
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_SLUICE_MEMCOMPONENT_DRIVER_H_
