// db/snapshot_list.h — the live snapshots of a DB.
//
// Creation is atomic with registration: the sequence number is chosen (by the timestamp
// oracle) while the list's mutex is held, and flushes/compactions read the list under the same
// mutex. A flush or compaction that read the list before a snapshot was registered only
// handles data that was complete before the snapshot's sequence number was chosen, and it
// always keeps the newest version of each key, which is what such a snapshot reads.

#ifndef SLUICE_DB_SNAPSHOT_LIST_H_
#define SLUICE_DB_SNAPSHOT_LIST_H_

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <vector>

#include "db/dbformat.h"
#include "sluice/snapshot.h"

namespace sluice {

class SnapshotList {
 public:
  SnapshotList();
  ~SnapshotList();
  SnapshotList(const SnapshotList&) = delete;
  SnapshotList& operator=(const SnapshotList&) = delete;

  // Registers a snapshot at the sequence number pick() returns (called under the list lock).
  const Snapshot* Create(const std::function<SequenceNumber()>& pick);
  // Unregisters and frees a snapshot from Create(). Unknown pointers are ignored.
  void Release(const Snapshot* snapshot);

  // Sequence numbers of the live snapshots, ascending.
  std::vector<SequenceNumber> Sequences() const;
  size_t size() const;
  // Oldest live snapshot's sequence number, or kMaxSequenceNumber if none.
  SequenceNumber Oldest() const;

 private:
  class Impl;
  mutable std::mutex mu_;
  std::list<std::unique_ptr<Impl>> list_;  // guarded by mu_; in creation order
};

}  // namespace sluice

#endif  // SLUICE_DB_SNAPSHOT_LIST_H_
