// db/version_pruner.h — which versions a flush or compaction may drop.
//
// Entries arrive in internal-key order (each user key's versions newest first). With the live
// snapshots s1 < s2 < ... < sk, a version with sequence q is visible first to the snapshot
// E(q) = the smallest si >= q (or only to the latest state if there is none). Rules:
//   1. If a newer version of the same key has the same E, this version is hidden from every
//      reader that could see it: drop it.
//   2. A deletion marker with no snapshot below it (E(q) is the oldest stripe) can be dropped
//      when no deeper level holds the key (the caller says, per key), because every older
//      version in this merge falls under rule 1 and nothing older exists below.
// Everything else is kept. This keeps, for every live snapshot and for the latest state, the
// version each would read (the invariant snapshots rely on), and nothing more.

#ifndef SLUICE_DB_VERSION_PRUNER_H_
#define SLUICE_DB_VERSION_PRUNER_H_

#include <functional>
#include <string>
#include <vector>

#include "base/internal_key.h"

namespace sluice {

class VersionPruner {
 public:
  // snapshots: sorted ascending. is_base_level(user_key): no deeper level holds the key
  // (nullptr: never, as for a flush to L0).
  VersionPruner(std::vector<SequenceNumber> snapshots,
                std::function<bool(const Slice&)> is_base_level);

  // True if the entry must be kept. Call for every entry in order.
  bool Keep(const ParsedInternalKey& ikey);

  uint64_t dropped() const { return dropped_; }

 private:
  // Index of the stripe of q: the position of E(q) in snapshots_ (size() for "latest").
  size_t Stripe(SequenceNumber q) const;

  const std::vector<SequenceNumber> snapshots_;
  const std::function<bool(const Slice&)> is_base_level_;
  std::string current_key_;
  bool has_current_key_ = false;
  size_t last_stripe_ = 0;            // stripe of the last kept-or-dropped version of current_key_
  SequenceNumber last_sequence_ = 0;  // of the last entry (checks the order of the input)
  uint64_t dropped_ = 0;
};

}  // namespace sluice

#endif  // SLUICE_DB_VERSION_PRUNER_H_
