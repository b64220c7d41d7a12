// db/super_version.h — what readers see together: each memory component with the number of
// the first WAL file that may log its writes (LoggedComponent), and the SuperVersion (the
// mutable component, the immutable ones waiting for flush, and the SST version).
//
// Invariants:
//   * A component's writes are logged in WAL files numbered first_log_number and up (the WAL
//     current when it became mutable, and the later ones until it is switched out: the switch
//     starts a new WAL file too, see wal_set.h). So once the component is flushed, the files
//     below its successor's first_log_number hold nothing of its family that SST files do not.
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

#include "db/memory_budget.h"
#include "memory/memory_component.h"
#include "version/version.h"

namespace sluice {

struct LoggedComponent {
  LoggedComponent(std::unique_ptr<MemoryComponent> c, uint64_t first_log, size_t size,
                  uint64_t created)
      : component(std::move(c)),
        first_log_number(first_log),
        write_buffer_size(size),
        created_micros(created) {}

  const std::unique_ptr<MemoryComponent> component;
  const uint64_t first_log_number;
  // The bytes it fills before it is switched (DBImpl::IsFull), at most the family's
  // write_buffer_size.
  const size_t write_buffer_size;
  // When it was made (Env::NowMicros): how fast it filled decides the next one's size.
  const uint64_t created_micros;
  // It was switched out because it filled up (not forced). Written and read under the DB
  // mutex (set by SwitchMemoryComponent before the SuperVersion that lists it as immutable).
  bool switched_full = false;
  // Set by a write with disable_wal: the component holds data no WAL has.
  std::atomic<bool> has_unlogged_writes{false};
  // Its bytes in the DB's memory budget (DBOptions::write_buffer_manager); null without one.
  // Set before the component is published; released when its flush is installed.
  std::unique_ptr<MemoryCharge> charge;
};

struct SuperVersion {
  std::shared_ptr<LoggedComponent> mem;                // receives writes
  std::vector<std::shared_ptr<LoggedComponent>> imms;  // immutable, newest first, waiting for flush
  std::shared_ptr<const Version> version;
};

}  // namespace sluice

#endif  // SLUICE_DB_SUPER_VERSION_H_
