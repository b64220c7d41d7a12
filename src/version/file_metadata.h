// version/file_metadata.h — what a version knows about one SST file, and the registry that
// learns when a file is no longer referenced by anything.
//
// Versions hold files through std::shared_ptr<FileMetaData>; an iterator or a compaction that
// holds a version holds its files. Every FileMetaData is created by a FileRegistry, which counts
// the live objects per file number (a file moved between levels is briefly held by two
// objects). When the count of a number drops to zero, nothing can read the file any more and
// its number is queued as obsolete and the listener (if set) is told; the DB then deletes queued
// files in the background. This is the only way an SST file is deleted while the DB is open.

#ifndef SLUICE_VERSION_FILE_METADATA_H_
#define SLUICE_VERSION_FILE_METADATA_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/internal_key.h"
#include "base/range_tombstone.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

// A file's fragmented range tombstones, loaded from its table once and then kept with its
// metadata (every copy of it shares this object), so reads find them without the table cache.
// Set once, never replaced: a reader holding the metadata may use Get()'s pointer while it does.
class FileRangeTombstones {
 public:
  // Null until Set.
  const FragmentedRangeTombstones* Get() const { return loaded_.load(std::memory_order_acquire); }
  // Keeps the first index set (later calls are no-ops); returns what is kept.
  std::shared_ptr<const FragmentedRangeTombstones> Set(
      std::shared_ptr<const FragmentedRangeTombstones> t) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    if (owner_ == nullptr && t != nullptr) {
      owner_ = std::move(t);
      // release: the index is complete before a reader that acquires the pointer uses it.
      loaded_.store(owner_.get(), std::memory_order_release);
    }
    return owner_;
  }
  std::shared_ptr<const FragmentedRangeTombstones> Shared() const EXCLUDES(mu_) {
    MutexLock l(&mu_);
    return owner_;
  }

 private:
  mutable Mutex mu_;
  std::shared_ptr<const FragmentedRangeTombstones> owner_ GUARDED_BY(mu_);
  std::atomic<const FragmentedRangeTombstones*> loaded_{nullptr};
};

struct FileMetaData {
  uint64_t number = 0;
  uint64_t file_size = 0;
  // The file's key range: its smallest and largest internal keys, widened to its range
  // tombstones' extent. A tombstone [b, e) widens smallest to RangeBeginBound(b) and largest to
  // RangeEndBound(e), which sorts before every version of e: the file holds nothing of e, and a
  // file of the same level may start at e (version_builder.cc allows exactly that touch).
  InternalKey smallest;
  InternalKey largest;
  SequenceNumber smallest_seqno = kMaxSequenceNumber;
  SequenceNumber largest_seqno = 0;
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;
  uint64_t num_range_deletions = 0;  // range tombstones in the file's "rangedel" block
  // Set by FileRegistry::Make for a file with range tombstones (not stored in the MANIFEST).
  std::shared_ptr<FileRangeTombstones> range_tombstones;
  // Guarded by the DB mutex: the file is an input of a running compaction.
  bool being_compacted = false;
};

// The file bounds a range tombstone [begin, end) contributes (see FileMetaData).
inline InternalKey RangeBeginBound(const Slice& begin) {
  return InternalKey(begin, kMaxSequenceNumber, kValueTypeForSeek);
}
inline InternalKey RangeEndBound(const Slice& end) {
  return InternalKey(end, kMaxSequenceNumber, kValueTypeForSeek);
}
// True if a file's largest key is a range tombstone's end bound (no version of its user key).
inline bool IsRangeEndBound(const InternalKey& largest) {
  return ExtractSequence(largest.Encode()) == kMaxSequenceNumber;
}

class FileRegistry : public std::enable_shared_from_this<FileRegistry> {
 public:
  // A new metadata object (a copy of `meta`) counted under meta.number. A number queued as
  // obsolete and not yet taken that is made again leaves the queue (it is live).
  std::shared_ptr<FileMetaData> Make(const FileMetaData& meta);

  // Takes the numbers that became obsolete since the last call.
  std::vector<uint64_t> TakeObsolete();
  bool HasObsolete() const;

  // Called, with the registry's lock held, each time a number is queued as obsolete: from
  // whichever thread released the file's last object (a background thread, the epoch
  // reclaimer, a user thread destroying an iterator), possibly holding the DB mutex. So it must
  // not block or call back into the registry; it only wakes whoever deletes the files.
  void SetListener(std::function<void()> on_obsolete);

  // Whether any object for this number is alive.
  bool IsLive(uint64_t number) const;

  // Stops queueing and drops the listener (no call runs after Disable returns): used at close,
  // when the last versions go away but their files stay.
  void Disable();

 private:
  void Drop(uint64_t number) EXCLUDES(mu_);

  mutable Mutex mu_;
  std::unordered_map<uint64_t, int> live_ GUARDED_BY(mu_);
  std::vector<uint64_t> obsolete_ GUARDED_BY(mu_);
  bool disabled_ GUARDED_BY(mu_) = false;
  std::function<void()> on_obsolete_ GUARDED_BY(mu_);
};

}  // namespace sluice

#endif  // SLUICE_VERSION_FILE_METADATA_H_
