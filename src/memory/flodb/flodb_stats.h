// memory/flodb/flodb_stats.h — counters of the FloDB memory component, shared by every component a
// DB creates (so they accumulate across switches) and reported by
// GetProperty("sluice.flodb-stats"). Sharded per thread (util/sharded_counter.h). The memtable_*
// counters are about the sorted level (the paper's Memtable); their names are those the property
// and sluice_bench print.

#ifndef SLUICE_MEMORY_FLODB_FLODB_STATS_H_
#define SLUICE_MEMORY_FLODB_FLODB_STATS_H_

#include <cstdint>
#include <string>

#include "util/sharded_counter.h"

namespace sluice {

struct FloDBStats {
  // Writes, each counted once, by where it completed (their sum is Writes()).
  ShardedCounter membuffer_adds;      // completed in the Membuffer, new entry
  ShardedCounter membuffer_in_place;  // completed in the Membuffer, replacing one
  ShardedCounter memtable_full;       // went to the sorted level: bucket or budget full
  ShardedCounter memtable_late;       // ... a newer version may be below
  ShardedCounter memtable_overtaken;  // ... the Membuffer holds a newer version
  ShardedCounter memtable_direct;     // ... Membuffer disabled or component frozen
  ShardedCounter memtable_for_scans;  // ... a new key while scans drain (see scan_windows)
  ShardedCounter pushed_down;         // replaced entries kept for a reader
  ShardedCounter overflow_helps;      // writers that found the budget spent and drained a chunk
  // Draining.
  ShardedCounter drained_entries;
  ShardedCounter drain_batches;
  ShardedCounter drain_windows;  // drain-policy windows (FloDBComponent::DecidePolicy)
  ShardedCounter hold_windows;   // ... in which the Membuffer held its entries
  ShardedCounter scan_windows;   // ... in which new keys went below, for scans
  // The sorted level (the paper's Memtable).
  ShardedCounter versions_added;
  ShardedCounter in_place_updates;  // newest version replaced, old one freed
  ShardedCounter versions_kept;     // newest version replaced, old one kept
  ShardedCounter overtaken_dropped;
  ShardedCounter multi_insert_batches;
  ShardedCounter multi_insert_keys;
  ShardedCounter multi_insert_hops;
  ShardedCounter multi_insert_levels_reused;
  ShardedCounter single_insert_keys;
  ShardedCounter single_insert_hops;
  ShardedCounter index_hits;  // keys whose node the index found (no skiplist search)
  // Scans.
  ShardedCounter scans;
  ShardedCounter scan_masters;     // froze and drained the Membuffer
  ShardedCounter scan_piggybacks;  // reused a concurrent master's drain
  ShardedCounter scan_restarts;
  ShardedCounter scan_fallbacks;
  ShardedCounter scan_drain_micros;

  // Every write, wherever it completed (one shared counter fewer on the write path).
  uint64_t Writes() const {
    return membuffer_adds.Get() + membuffer_in_place.Get() + memtable_full.Get() +
           memtable_late.Get() + memtable_overtaken.Get() + memtable_direct.Get() +
           memtable_for_scans.Get();
  }

  static void Add(ShardedCounter* c, uint64_t n = 1) { c->Add(n); }
  std::string ToString() const;
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_FLODB_STATS_H_
