// db/snapshot_list.h — the live snapshots of a DB, and the VersionKeeper that memory
// components replacing versions in place consult.
//
// Creation is atomic with registration for components that never replace versions: the
// sequence number is chosen while the list's mutex is held, and flushes/compactions read the
// list under the same mutex. A flush or compaction that read the list before a snapshot was
// registered only handles data complete before the snapshot's sequence number was chosen, and
// it always keeps the newest version of each key, which is what such a snapshot reads.
//
// For components that replace versions in place (FloDB), CreateProtected first raises a
// "pending" count, then picks the sequence number (which may drain a Membuffer and waits for
// writes in flight), then registers it. MustKeep answers true while anything is pending, and
// for any version not newer than the newest registered snapshot. Ordering (all seq_cst): a
// writer announces its sequence number before asking MustKeep (db/replacement_keeper.h); a
// snapshot raises pending before choosing its read point, which covers every announcement made
// before it is chosen. So a writer either sees the pending count (and keeps the old version)
// or has a sequence number the snapshot covers (and then the snapshot reads the new version,
// not the old one).
//
// A flush or compaction drops the versions no snapshot in Sequences() reads, so a protected
// snapshot must not be left out of a copy that is taken while its number is picked and not
// yet registered: the copy would not know it, and the versions it reads (older than the
// newest of their key) could go. Each copy bumps list_reads_; CreateProtected registers its
// number only if list_reads_ did not move since before the pick, and otherwise picks again.
// A copy taken before that load belongs to a job whose inputs were chosen before the pick
// began: all of their versions are of writes the number covers, and the newest of each key,
// which the snapshot reads, is kept. A copy taken after the registration contains it.

#ifndef SLUICE_DB_SNAPSHOT_LIST_H_
#define SLUICE_DB_SNAPSHOT_LIST_H_

#include <atomic>
#include <functional>
#include <list>
#include <memory>
#include <vector>

#include "base/internal_key.h"
#include "memory/memory_component.h"
#include "sluice/snapshot.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class SnapshotList final : public VersionKeeper {
 public:
  SnapshotList();
  ~SnapshotList() override;
  SnapshotList(const SnapshotList&) = delete;
  SnapshotList& operator=(const SnapshotList&) = delete;

  // Registers a snapshot at the sequence number pick() returns (called under the list lock).
  const Snapshot* Create(const std::function<SequenceNumber()>& pick);
  // The protected protocol described above (pick() runs outside the lock).
  const Snapshot* CreateProtected(const std::function<SequenceNumber()>& pick);
  // Unregisters and frees a snapshot from Create. Unknown pointers are ignored.
  void Release(const Snapshot* snapshot);

  // Sequence numbers of the live snapshots, ascending: the copy a flush or compaction takes,
  // after choosing its inputs, to decide which versions to keep.
  std::vector<SequenceNumber> Sequences() const;
  size_t size() const;

  bool MustKeep(SequenceNumber older, SequenceNumber newer) const override;

 private:
  class Impl;
  const Snapshot* RegisterLocked(SequenceNumber seq) REQUIRES(mu_);
  void RecomputeNewestLocked() REQUIRES(mu_);

  mutable Mutex mu_;
  std::list<std::unique_ptr<Impl>> list_ GUARDED_BY(mu_);  // in creation order
  std::atomic<int> pending_{0};
  mutable std::atomic<uint64_t> list_reads_{0};  // copies taken by Sequences()
  std::atomic<bool> any_{false};
  std::atomic<SequenceNumber> newest_{0};
};

}  // namespace sluice

#endif  // SLUICE_DB_SNAPSHOT_LIST_H_
