// sluice_bench/sluice_memcomponent_driver.cc — see sluice_memcomponent_driver.h.

#include "sluice_bench/sluice_memcomponent_driver.h"

#include <fmt/format.h>

#include <cstdlib>
#include <utility>

#include "base/internal_key.h"
#include "memory/flodb/flodb_factory.h"
#include "sluice_bench/flodb_counters.h"
#include "util/epoch.h"

namespace sluice_bench {
namespace {

struct Dropped {
  SluiceMemoryComponentDriver* driver;
  std::unique_ptr<sluice::MemoryComponent> component;
};

sluice::Slice ToSlice(std::string_view s) { return sluice::Slice(s.data(), s.size()); }

// The counters of a FloDB factory, null for any other.
std::shared_ptr<sluice::FloDBStats> FloDBStatsOf(const sluice::MemoryComponentFactory& factory) {
  const auto* flodb = dynamic_cast<const sluice::FloDBComponentFactory*>(&factory);
  return flodb != nullptr ? flodb->stats() : nullptr;
}

}  // namespace

EngineStatus SluiceMemoryComponentDriver::Create(
    const sluice::Options& options, std::unique_ptr<SluiceMemoryComponentDriver>* driver) {
  std::unique_ptr<sluice::MemoryComponentFactory> factory;
  sluice::Status s = sluice::NewMemoryComponentFactory(options, &factory);
  if (!s.ok()) return EngineStatus::Error(s.ToString());
  return Create(options, std::move(factory), driver);
}

EngineStatus SluiceMemoryComponentDriver::Create(
    const sluice::Options& options, std::unique_ptr<sluice::MemoryComponentFactory> factory,
    std::unique_ptr<SluiceMemoryComponentDriver>* driver) {
  std::unique_ptr<SluiceMemoryComponentDriver> d(
      new SluiceMemoryComponentDriver(options, std::move(factory)));
  std::unique_ptr<sluice::MemoryComponent> first;
  sluice::Status s = d->NewComponent(&first);
  if (!s.ok()) return EngineStatus::Error(s.ToString());
  d->current_.store(first.release(), std::memory_order_release);
  *driver = std::move(d);
  return EngineStatus::OK();
}

SluiceMemoryComponentDriver::SluiceMemoryComponentDriver(
    const sluice::Options& options, std::unique_ptr<sluice::MemoryComponentFactory> factory)
    : options_(options), factory_(std::move(factory)), stats_(FloDBStatsOf(*factory_)) {}

SluiceMemoryComponentDriver::~SluiceMemoryComponentDriver() {
  delete current_.exchange(nullptr);
  // Dropped components still waiting for their grace period point back at this driver.
  sluice::epoch::DrainAll();
}

sluice::Status SluiceMemoryComponentDriver::NewComponent(
    std::unique_ptr<sluice::MemoryComponent>* component) {
  sluice::MemoryComponentContext context;
  context.announced_sequence = [this] { return sequence_.load(std::memory_order_acquire); };
  return factory_->NewUnobservedComponent(context, component);
}

void SluiceMemoryComponentDriver::Put(std::string_view key, std::string_view value) {
  sluice::epoch::Enter();
  sluice::MemoryComponent* c = current_.load(std::memory_order_acquire);
  while (c->ApproximateMemoryUsage() >= options_.write_buffer_size) {
    sluice::epoch::Exit();
    Switch(c);
    sluice::epoch::Enter();
    c = current_.load(std::memory_order_acquire);
  }
  const sluice::SequenceNumber seq = sequence_.fetch_add(1, std::memory_order_relaxed) + 1;
  c->Add(seq, sluice::kTypeValue, ToSlice(key), ToSlice(value));
  sluice::epoch::Exit();
}

void SluiceMemoryComponentDriver::Switch(sluice::MemoryComponent* full) {
  std::lock_guard<std::mutex> lock(switch_mu_);
  if (current_.load(std::memory_order_acquire) != full) return;  // another writer did
  std::unique_ptr<sluice::MemoryComponent> fresh;
  sluice::Status s = NewComponent(&fresh);
  // The name was accepted by Create, so creating another one cannot fail.
  if (!s.ok()) std::abort();
  current_.store(fresh.release(), std::memory_order_release);
  dropped_.fetch_add(1, std::memory_order_relaxed);
  // Writers that loaded `full` before the store may still be adding to it: free it after them.
  sluice::epoch::Retire(new Dropped{this, std::unique_ptr<sluice::MemoryComponent>(full)},
                        &FreeDropped);
}

void SluiceMemoryComponentDriver::FreeDropped(void* p) {
  std::unique_ptr<Dropped> d(static_cast<Dropped*>(p));
  d->driver->dropped_versions_.fetch_add(d->component->NumEntries(), std::memory_order_relaxed);
}

uint64_t SluiceMemoryComponentDriver::VersionsHeld() {
  sluice::epoch::DrainAll();
  return dropped_versions_.load() + current_.load()->NumEntries();
}

Metrics SluiceMemoryComponentDriver::ReadCounters() const {
  if (stats_ == nullptr) return {};
  const sluice::FloDBStats& s = *stats_;
  auto get = [](const sluice::ShardedCounter& c) { return static_cast<double>(c.Get()); };
  return {
      {std::string(kFloDBWrites), static_cast<double>(s.Writes())},
      {std::string(kFloDBInMembuffer), get(s.membuffer_adds) + get(s.membuffer_in_place)},
      {std::string(kFloDBMembufferInPlace), get(s.membuffer_in_place)},
      {std::string(kFloDBDrained), get(s.drained_entries)},
      {std::string(kSortedLevelInPlace), get(s.in_place_updates)},
      {std::string(kFloDBMultiInsertKeys), get(s.multi_insert_keys)},
      {std::string(kFloDBMultiInsertHops), get(s.multi_insert_hops)},
      {std::string(kFloDBSingleInsertKeys), get(s.single_insert_keys)},
      {std::string(kFloDBSingleInsertHops), get(s.single_insert_hops)},
      {std::string(kFloDBScans), get(s.scans)},
      {std::string(kFloDBScanRestarts), get(s.scan_restarts)},
      {std::string(kFloDBScanFallbacks), get(s.scan_fallbacks)},
  };
}

std::string SluiceMemoryComponentDriver::Describe(Metrics* metrics) {
  const uint64_t dropped = components_dropped();
  metrics->emplace_back("components_dropped", static_cast<double>(dropped));
  std::string note =
      fmt::format("({} {} dropped)", dropped, dropped == 1 ? "component" : "components");
  const std::string flodb = DescribeFloDBCounters({}, ReadCounters(), metrics);
  if (!flodb.empty()) note += " " + flodb;
  return note;
}

}  // namespace sluice_bench
