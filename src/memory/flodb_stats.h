// memory/flodb_stats.h — counters of the FloDB memory component, shared by every component a
// DB creates (so they accumulate across switches) and reported by
// GetProperty("sluice.flodb-stats"). Relaxed atomics: they order nothing.

#ifndef SLUICE_MEMORY_FLODB_STATS_H_
#define SLUICE_MEMORY_FLODB_STATS_H_

#include <atomic>
#include <cstdint>
#include <string>

namespace sluice {

struct FloDBStats {
  // Writes.
  std::atomic<uint64_t> writes{0};
  std::atomic<uint64_t> membuffer_adds{0};      // completed in the Membuffer, new entry
  std::atomic<uint64_t> membuffer_in_place{0};  // completed in the Membuffer, replacing one
  std::atomic<uint64_t> memtable_full{0};       // went to the Memtable: bucket/budget full
  std::atomic<uint64_t> memtable_late{0};       // ... a newer version may be below
  std::atomic<uint64_t> memtable_overtaken{0};  // ... the Membuffer holds a newer version
  std::atomic<uint64_t> memtable_direct{0};     // ... Membuffer disabled or component frozen
  std::atomic<uint64_t> pushed_down{0};         // replaced entries kept for a reader
  std::atomic<uint64_t> help_drains{0};         // writers that helped a scan's drain
  // Draining.
  std::atomic<uint64_t> drained_entries{0};
  std::atomic<uint64_t> drain_batches{0};
  // Memtable.
  std::atomic<uint64_t> versions_added{0};
  std::atomic<uint64_t> in_place_updates{0};  // newest version replaced, old one freed
  std::atomic<uint64_t> versions_kept{0};     // newest version replaced, old one kept
  std::atomic<uint64_t> overtaken_dropped{0};
  std::atomic<uint64_t> multi_insert_batches{0};
  std::atomic<uint64_t> multi_insert_keys{0};
  std::atomic<uint64_t> multi_insert_hops{0};
  std::atomic<uint64_t> multi_insert_levels_reused{0};
  std::atomic<uint64_t> single_insert_keys{0};
  std::atomic<uint64_t> single_insert_hops{0};
  // Scans.
  std::atomic<uint64_t> scans{0};
  std::atomic<uint64_t> scan_masters{0};     // froze and drained the Membuffer
  std::atomic<uint64_t> scan_piggybacks{0};  // reused a concurrent master's drain
  std::atomic<uint64_t> scan_restarts{0};
  std::atomic<uint64_t> scan_fallbacks{0};
  std::atomic<uint64_t> scan_drain_micros{0};

  static void Add(std::atomic<uint64_t>* c, uint64_t n = 1) {
    c->fetch_add(n, std::memory_order_relaxed);
  }
  std::string ToString() const;
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_STATS_H_
