// memory/flodb/flodb_stats.cc — see flodb_stats.h.

#include "memory/flodb/flodb_stats.h"

#include <fmt/format.h>

namespace sluice {

namespace {

uint64_t Get(const ShardedCounter& c) { return c.Get(); }

double Ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

}  // namespace

std::string FloDBStats::ToString() const {
  const uint64_t w = Writes();
  const uint64_t in_mbf = Get(membuffer_adds) + Get(membuffer_in_place);
  const uint64_t mi_keys = Get(multi_insert_keys);
  const uint64_t si_keys = Get(single_insert_keys);
  std::string r;
  r += fmt::format("writes: {} total, {} completed in the Membuffer ({:.1f}%), {} in place there\n",
                   w, in_mbf, 100.0 * Ratio(in_mbf, w), Get(membuffer_in_place));
  r += fmt::format(
      "to the Memtable: {} (full {}, late {}, overtaken {}, direct {}, new keys while scans "
      "ran {}); {} kept for readers; {} writers drained a chunk when the Membuffer was full\n",
      w - in_mbf, Get(memtable_full), Get(memtable_late), Get(memtable_overtaken),
      Get(memtable_direct), Get(memtable_for_scans), Get(pushed_down), Get(overflow_helps));
  r += fmt::format(
      "drained: {} entries in {} batches ({:.1f} per batch); entries held in {} of {} policy "
      "windows, new keys sent below for scans in {}\n",
      Get(drained_entries), Get(drain_batches), Ratio(Get(drained_entries), Get(drain_batches)),
      Get(hold_windows), Get(drain_windows), Get(scan_windows));
  r += fmt::format(
      "memtable: {} versions added, {} in-place updates, {} old versions kept, {} overtaken "
      "versions dropped\n",
      Get(versions_added), Get(in_place_updates), Get(versions_kept), Get(overtaken_dropped));
  r += fmt::format(
      "multi-insert: {} batches, {} keys ({:.1f} per batch), {:.2f} hops per key, {:.2f} "
      "levels reused per key; simple inserts: {} keys, {:.2f} hops per key\n",
      Get(multi_insert_batches), mi_keys, Ratio(mi_keys, Get(multi_insert_batches)),
      Ratio(Get(multi_insert_hops), mi_keys), Ratio(Get(multi_insert_levels_reused), mi_keys),
      si_keys, Ratio(Get(single_insert_hops), si_keys));
  r += fmt::format("node index: {} keys found without a skiplist search\n", Get(index_hits));
  r += fmt::format(
      "scans: {} ({} masters, {} piggybacked), {} restarts, {} fallbacks, {:.3f} s draining\n",
      Get(scans), Get(scan_masters), Get(scan_piggybacks), Get(scan_restarts), Get(scan_fallbacks),
      static_cast<double>(Get(scan_drain_micros)) / 1e6);
  return r;
}

}  // namespace sluice
