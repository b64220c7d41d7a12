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
//   3. A version hidden by a range tombstone of the merge (sequence t > q) in the same stripe
//      (E(t) == E(q)) is hidden from every reader that could see it: drop it.
// Range tombstones themselves are pruned alike (PruneRangeTombstones): per fragment, one with
// the same E as a newer one is dropped (rule 1); in the oldest stripe, where no deeper level
// holds keys of the fragment, it is dropped too (rule 2: every version it hid is gone).
// Everything else is kept. This keeps, for every live snapshot and for the latest state, the
// version each would read (the invariant snapshots rely on), and nothing more.

#ifndef SLUICE_DB_VERSION_PRUNER_H_
#define SLUICE_DB_VERSION_PRUNER_H_

#include <functional>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "base/range_tombstone.h"

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

  // The merge's range tombstones (null: none), for rule 3. Must outlive the Keep calls.
  void SetRangeTombstones(const FragmentedRangeTombstones* tombstones) {
    range_tombstones_ = tombstones;
    fragment_ = nullptr;
  }
  // The tombstones of `tombstones` to write out, by fragment (ascending). range_at_base(b, e):
  // no deeper level holds user keys in [b, e) (null: never, as for a flush).
  std::vector<RangeTombstone> PruneRangeTombstones(
      const FragmentedRangeTombstones& tombstones,
      const std::function<bool(const Slice&, const Slice&)>& range_at_base) const;

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
  const FragmentedRangeTombstones* range_tombstones_ = nullptr;
  const FragmentedRangeTombstones::Fragment* fragment_ = nullptr;  // the last one looked up
};

}  // namespace sluice

#endif  // SLUICE_DB_VERSION_PRUNER_H_
