// db/super_version.h — what readers see together: each memory component bound to the WAL file
// that logs its writes (LoggedComponent), and the SuperVersion (the mutable component, the
// immutable ones waiting for flush, and the SST version).
//
// Invariants:
//   * Every write logged in WAL file `log_number` is in this memory component, and only there
//     (the switch seals the old log before the new component receives writes, and a writer's
//     sequence number is taken inside its log reservation). So once the component is flushed,
//     its WAL file holds nothing SST files do not.
//   * Sequence numbers in a newer component are all larger than in an older one.
//   * A SuperVersion is immutable. The DB publishes the current one through an atomic pointer
//     and retires replaced ones through epoch reclamation (util/epoch.h): a reader inside an
//     epoch section may use the raw pointer and everything it holds without taking references.
//     Iterators that outlive the section copy the shared_ptrs they need.

#ifndef SLUICE_DB_SUPER_VERSION_H_
#define SLUICE_DB_SUPER_VERSION_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "memory/memory_component.h"
#include "version/version.h"
#include "wal/log_writer.h"

namespace sluice {

struct LoggedComponent {
  LoggedComponent(std::unique_ptr<MemoryComponent> c, std::unique_ptr<log::Writer> l,
                  uint64_t number)
      : component(std::move(c)), log(std::move(l)), log_number(number) {}

  const std::unique_ptr<MemoryComponent> component;
  // Null for components built during recovery (their data is already in WAL files).
  std::unique_ptr<log::Writer> log;
  const uint64_t log_number;
  // Set by a write with disable_wal: the component holds data no WAL has.
  std::atomic<bool> has_unlogged_writes{false};
};

struct SuperVersion {
  std::shared_ptr<LoggedComponent> mem;                // receives writes
  std::vector<std::shared_ptr<LoggedComponent>> imms;  // immutable, newest first, waiting for flush
  std::shared_ptr<const Version> version;
};

}  // namespace sluice

#endif  // SLUICE_DB_SUPER_VERSION_H_
