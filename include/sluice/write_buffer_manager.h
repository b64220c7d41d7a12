// sluice/write_buffer_manager.h — one memory budget for the memory components of many
// databases and column families (RocksDB's WriteBufferManager).
//
// Give the same manager to every DB that should share the budget (DBOptions::
// write_buffer_manager). Each memory component charges its bytes to it as it grows, from the
// moment it is created until its flush is installed. When the mutable components' bytes pass
// the soft limit (7/8 of the cap, or the cap less what the mutable components can still add
// before a write sees it in the count, if that is lower; at least half the cap), or all bytes
// reach the cap while the mutable ones hold at least half of it, the mutable component that
// has taken the most writes among all the DBs is switched out and flushed (one such flush
// asked for at a time). Under a budget a new memory component is sized for its share: the cap
// over the number of mutable components, at most a quarter of it (or its family's
// write_buffer_size, if smaller). With allow_stall, a write that finds the soft limit reached
// waits until flushes bring the bytes below it, so the bytes stay under the cap (one writer per
// component at a time; each further concurrent writer may add an arena block); it waits at
// most a second without any flush finishing, so a DB whose flushes fail cannot stop the
// others for good, and not at all when nothing could be flushed (every byte is in empty
// components).
//
// The bytes are those the components report (their arenas, tables and bucket arrays), charged
// in steps of at most 64 KiB: the count runs behind each mutable component by less than a
// step. Components already flushed but still read by an open iterator are no longer counted.
//
// Thread-safe. The DBs using a manager, and their components, hold it by shared_ptr: the
// application may drop its own reference at any time.

#ifndef SLUICE_WRITE_BUFFER_MANAGER_H_
#define SLUICE_WRITE_BUFFER_MANAGER_H_

#include <cstddef>
#include <cstdint>
#include <memory>

namespace sluice {
// The engine's side (src/db/memory_budget.h), declared before the export pragma: not exported.
class MemoryBudget;
}  // namespace sluice

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class WriteBufferManager {
 public:
  // buffer_size: the cap in bytes; 0 makes a manager that only counts (it asks for no flush
  // and stalls nothing). allow_stall: writes wait while the cap is reached.
  explicit WriteBufferManager(size_t buffer_size, bool allow_stall = false);
  ~WriteBufferManager();
  WriteBufferManager(const WriteBufferManager&) = delete;
  WriteBufferManager& operator=(const WriteBufferManager&) = delete;

  size_t buffer_size() const;
  bool enabled() const { return buffer_size() > 0; }
  bool allow_stall() const;
  // Bytes charged now: every mutable component, and immutable ones not yet flushed.
  size_t memory_usage() const;
  // The mutable components' part of memory_usage().
  size_t mutable_memtable_memory_usage() const;
  // Since the manager was made: flushes it asked a DB for, writes it stalled and how long.
  uint64_t flushes_requested() const;
  uint64_t stalled_writes() const;
  uint64_t stall_micros() const;

  // The engine's side of the budget; not for applications.
  MemoryBudget& budget() const { return *budget_; }

 private:
  const std::unique_ptr<MemoryBudget> budget_;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_WRITE_BUFFER_MANAGER_H_
