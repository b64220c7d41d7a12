// sluice/snapshot.h — a consistent, read-only view of the database at one point in time.
//
// Obtained from DB::GetSnapshot() and returned with DB::ReleaseSnapshot(). A snapshot with
// sequence s sees exactly the writes whose sequence number is <= s, and every such write had
// finished when the snapshot was handed out. Flush and compaction keep every version a live
// snapshot needs.

#ifndef SLUICE_SNAPSHOT_H_
#define SLUICE_SNAPSHOT_H_

#include <cstdint>

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class Snapshot {
 public:
  // The sequence number this snapshot reads at.
  virtual uint64_t sequence() const = 0;

 protected:
  virtual ~Snapshot() = default;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_SNAPSHOT_H_
