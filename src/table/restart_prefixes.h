// table/restart_prefixes.h — a compact search array over a block's restart keys.
//
// A Seek in a block binary-searches its restart points, and every probe reads a restart offset
// and then the key it points at: two cache misses per probe in a large, cold block. An SST's
// index block is one (a restart point per data block: 16K of them in a 64 MiB file), so a Get
// paid about fourteen probes there before it read a byte of data. RestartPrefixes keeps, for
// each restart point, the 8 bytes of its user key that follow the prefix all of them share, as
// a big-endian integer, plus every eighth of those integers in a small array that stays in the
// CPU cache: a lookup reads that array and then one cache line of the full one.
//
// Invariant (what makes the narrowing exact): user keys are in bytewise order, every one starts
// with common_, and for two keys a, b that do, Prefix(a) < Prefix(b) implies a < b (zero
// padding sorts a key before its extensions, as bytewise order does). So Bounds(k) = [lo, hi)
// says: restart keys before lo are below k, restart keys from hi on are above k, and only those
// in between (the ones with k's prefix) need a full comparison. Immutable once built; any number
// of threads may call Bounds.

#ifndef SLUICE_TABLE_RESTART_PREFIXES_H_
#define SLUICE_TABLE_RESTART_PREFIXES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sluice/slice.h"

namespace sluice {

class RestartPrefixes {
 public:
  // From the user keys of a block's restart points, in order; they must be in bytewise order
  // (a block whose keys are not gets bounds that are merely useless, never out of range).
  explicit RestartPrefixes(const std::vector<Slice>& user_keys);
  RestartPrefixes(const RestartPrefixes&) = delete;
  RestartPrefixes& operator=(const RestartPrefixes&) = delete;

  // Sets [*lo, *hi) to the restart points whose user keys may equal user_key: those before *lo
  // are below it, those from *hi on above it. 0 <= *lo <= *hi <= size().
  void Bounds(const Slice& user_key, uint32_t* lo, uint32_t* hi) const;

  size_t size() const { return prefixes_.size(); }
  // Heap bytes held.
  size_t MemoryUsage() const;

 private:
  std::string common_;              // the prefix every restart user key starts with
  std::vector<uint64_t> prefixes_;  // KeyPrefix64 of each user key after common_
  std::vector<uint64_t> sampled_;  // every eighth of prefixes_ (one per cache line): searched first
};

}  // namespace sluice

#endif  // SLUICE_TABLE_RESTART_PREFIXES_H_
