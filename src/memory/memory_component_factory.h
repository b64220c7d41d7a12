// memory/memory_component_factory.h — how the DB creates its memory components without knowing
// their type: one factory per component family (the shape of RocksDB's MemTableRepFactory).
//
// Each family has its own options struct, built from the public Options, and its own factory:
// the simple ones (simple_component_factory.h: "skiplist", "vector", "vector-prealloc",
// "hash-skiplist", "hash-linklist"), FloDB's (flodb/flodb_factory.h) and the adaptive one
// (adaptive/adaptive_factory.h). NewMemoryComponentFactory picks one by Options::memtable.
//
// Contract:
//   * A DB holds one factory for its whole life and creates every component through it, so
//     state shared by a family's components (FloDB's counters, the adaptive policy) lives in
//     the factory: one per DB, never shared between DBs.
//   * A component holds shared ownership of whatever family state it uses: components may
//     outlive their factory (they are freed through epoch reclamation or by their last
//     iterator).
//   * Every method is safe to call concurrently with the others and with itself.

#ifndef SLUICE_MEMORY_MEMORY_COMPONENT_FACTORY_H_
#define SLUICE_MEMORY_MEMORY_COMPONENT_FACTORY_H_

#include <memory>
#include <string>

#include "memory/memory_component.h"
#include "sluice/options.h"
#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice {

class MemoryComponentFactory {
 public:
  virtual ~MemoryComponentFactory() = default;

  // The family's name, as Options::memtable spells it ("flodb", "skiplist", ...).
  virtual const char* Name() const = 0;

  // A new, empty component that will receive the DB's writes.
  virtual Status NewComponent(const MemoryComponentContext& context,
                              std::unique_ptr<MemoryComponent>* result) = 0;

  // A new, empty component whose operations are no workload to learn from: WAL replay
  // (recovery, repair), and tools that drive components directly. A family that learns from
  // what its components observe ("adaptive") neither consults nor feeds what it learned for
  // it. Default: NewComponent.
  virtual Status NewUnobservedComponent(const MemoryComponentContext& context,
                                        std::unique_ptr<MemoryComponent>* result) {
    return NewComponent(context, result);
  }

  // The family's own DB::GetProperty values ("sluice.flodb-stats", "sluice.memtable-choices"):
  // true and *value set if `property` (the full name) is one of them; false, *value untouched,
  // otherwise.
  virtual bool GetProperty(const Slice& property, std::string* value) const { return false; }

  // What happened to one of the DB's bounded scans over a mutable component that replaces
  // versions in place (DB::Scan: it restarts when a newer version shows up in its range, and
  // falls back to a registered scan after too many restarts). For families that count them.
  enum class ScanEvent { kStarted, kRestarted, kFellBack };
  virtual void RecordScanEvent(ScanEvent event) {}
};

// The factory of the family named options.memtable, with that family's options built from
// `options`. InvalidArgument naming Options::memtable if the name is unknown.
Status NewMemoryComponentFactory(const Options& options,
                                 std::unique_ptr<MemoryComponentFactory>* result);

}  // namespace sluice

#endif  // SLUICE_MEMORY_MEMORY_COMPONENT_FACTORY_H_
