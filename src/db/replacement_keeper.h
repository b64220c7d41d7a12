// db/replacement_keeper.h — the VersionKeeper a DB gives its memory components: before a write
// replaces a version in place, its sequence number is announced (SequenceOracle::Announce), then
// the live snapshots decide whether the old version must be kept (SnapshotList::MustKeep).
//
// Why announce first: a snapshot or scan raises SnapshotList's pending count, then chooses a
// read point that covers every announcement made before its final check (SequenceOracle's
// LinearizablePoint). The replacing write announces (seq_cst) before it loads the pending count
// (seq_cst). So either it sees the count raised and keeps the old version, or the reader's check
// comes after the announcement and its read point covers the new version, which it then reads
// instead of the old one. Without the announcement a write still inserting (not yet announced)
// could drop a version that a read point below it needs.

#ifndef SLUICE_DB_REPLACEMENT_KEEPER_H_
#define SLUICE_DB_REPLACEMENT_KEEPER_H_

#include "db/sequence_oracle.h"
#include "db/snapshot_list.h"
#include "memory/memory_component.h"

namespace sluice {

class ReplacementKeeper final : public VersionKeeper {
 public:
  ReplacementKeeper(SequenceOracle* oracle, const SnapshotList* snapshots)
      : oracle_(oracle), snapshots_(snapshots) {}

  bool MustKeep(SequenceNumber older, SequenceNumber newer) const override {
    // Without the gate: the caller may hold a bucket's lock (see SequenceOracle::Announce).
    oracle_->Announce(newer);
    return snapshots_->MustKeep(older, newer);
  }

 private:
  SequenceOracle* const oracle_;
  const SnapshotList* const snapshots_;
};

}  // namespace sluice

#endif  // SLUICE_DB_REPLACEMENT_KEEPER_H_
