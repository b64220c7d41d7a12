// memory/range_tombstone_set.h — the range tombstones of one memory component.
//
// Every memory component kind holds its range tombstones here, beside its point versions (the
// base class owns one), so DeleteRange works the same on all of them. Range deletions are rare
// next to point writes: Add takes a mutex; readers never lock.
//
// Readers see a published pair of fragmented indexes (base/range_tombstone.h): a large `base`
// and a small `delta` holding the tombstones added since the base was built. Add rebuilds only
// the delta, until it reaches a sixteenth of the base (at least 16), and then the base from
// every tombstone: an Add costs about the delta's rebuild plus its share of the base's, instead
// of rebuilding everything (which grows with every tombstone already held), and a lookup is
// two binary searches.
//
// Ordering and reclamation: Add builds the new indexes completely, then publishes the pair
// with a release store; a reader's acquire load sees it whole. The replaced pair is retired
// through the epoch mechanism, so a reader inside an epoch section may use Current() until it
// leaves; a reader that outlives its section (an iterator, a flush) copies the shared_ptrs.
// Add is called inside the writer's epoch section, after the write took its sequence number,
// and before it leaves the Active set, like a point write's insertion.

#ifndef SLUICE_MEMORY_RANGE_TOMBSTONE_SET_H_
#define SLUICE_MEMORY_RANGE_TOMBSTONE_SET_H_

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#include "base/range_tombstone.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class RangeTombstoneSet {
 public:
  // What readers see: either may be null (base null and delta set while few were added).
  struct Indexes {
    std::shared_ptr<const FragmentedRangeTombstones> base;
    std::shared_ptr<const FragmentedRangeTombstones> delta;

    template <typename SkipFn>
    SequenceNumber MaxCoveringSequence(const Slice& user_key, SequenceNumber read_seq,
                                       const SkipFn& skip) const {
      SequenceNumber t = 0;
      if (base != nullptr) t = base->MaxCoveringSequence(user_key, read_seq, skip);
      if (delta != nullptr) t = std::max(t, delta->MaxCoveringSequence(user_key, read_seq, skip));
      return t;
    }
  };

  RangeTombstoneSet() = default;
  RangeTombstoneSet(const RangeTombstoneSet&) = delete;
  RangeTombstoneSet& operator=(const RangeTombstoneSet&) = delete;
  // No reader can remain: the component is destroyed through the epoch mechanism too.
  ~RangeTombstoneSet() { delete current_.load(std::memory_order_relaxed); }

  // REQUIRES: begin < end.
  void Add(const Slice& begin, const Slice& end, SequenceNumber seq) EXCLUDES(mu_);

  // Whether any tombstone was added (acquire: pairs with Add's publication).
  bool empty() const { return current_.load(std::memory_order_acquire) == nullptr; }
  size_t size() const { return count_.load(std::memory_order_relaxed); }

  // The current indexes, or null if the set is empty. REQUIRES: inside an epoch section, and
  // the pointer is used only inside it.
  const Indexes* Current() const { return current_.load(std::memory_order_acquire); }
  // Every tombstone, in one fragmented index (null if empty): for a flush, once no more are
  // added. REQUIRES: inside an epoch section.
  std::shared_ptr<const FragmentedRangeTombstones> All() const;

 private:
  Mutex mu_;
  std::vector<RangeTombstone> all_ GUARDED_BY(mu_);
  std::vector<RangeTombstone> since_base_ GUARDED_BY(mu_);  // the delta's tombstones
  std::atomic<Indexes*> current_{nullptr};
  std::atomic<size_t> count_{0};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_RANGE_TOMBSTONE_SET_H_
