// base/range_tombstone.h — range tombstones (DB::DeleteRange) and the fragmented index every
// reader of them uses.
//
// A range tombstone [begin, end) @ t deletes every version with sequence < t of every user key
// k with begin <= k < end (bytewise). A reader at read point r honours the tombstones with
// t <= r: the version of k it would return, at sequence s, is hidden if some such tombstone
// covers k with s < t. Versions written later than t (by any component or level) stay visible,
// and so do versions of the same batch (s == t).
//
// FragmentedRangeTombstones cuts a set of possibly overlapping tombstones at every begin and end
// into sorted, disjoint fragments, each with the sequence numbers of the tombstones covering it
// (descending). A lookup is one binary search over the fragments: reads stay logarithmic in the
// number of tombstones, never a scan of them. It is immutable once built and so safe to share
// between threads; memory components (memory/range_tombstone_set.h), SST files (one per file,
// built when the table is opened) and compactions each hold one.
//
// Encoding (the "rangedel" meta block of an SST, docs/formats.md): varint32 count, then per
// tombstone varint32-length begin, varint32-length end, fixed64 sequence.

#ifndef SLUICE_BASE_RANGE_TOMBSTONE_H_
#define SLUICE_BASE_RANGE_TOMBSTONE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice {

struct RangeTombstone {
  std::string begin;  // inclusive
  std::string end;    // exclusive; begin < end
  SequenceNumber seq = 0;
};

class FragmentedRangeTombstones {
 public:
  struct Fragment {
    std::string begin;
    std::string end;
    std::vector<SequenceNumber> seqs;  // descending, distinct
  };

  // Tombstones with begin >= end are ignored.
  explicit FragmentedRangeTombstones(const std::vector<RangeTombstone>& tombstones);

  bool empty() const { return fragments_.empty(); }
  const std::vector<Fragment>& fragments() const { return fragments_; }
  // The number of (fragment, sequence) pairs: the tombstones a writer of this set stores.
  size_t NumFragmentTombstones() const { return num_pairs_; }

  // The largest sequence number <= read_seq of a tombstone covering user_key, passing over any
  // for which skip(seq) is true (skip may be null); 0 if there is none.
  template <typename SkipFn>
  SequenceNumber MaxCoveringSequence(const Slice& user_key, SequenceNumber read_seq,
                                     const SkipFn& skip) const {
    const Fragment* f = FindFragment(user_key);
    if (f == nullptr) return 0;
    for (SequenceNumber t : f->seqs) {
      if (t <= read_seq && !skip(t)) return t;
    }
    return 0;
  }
  SequenceNumber MaxCoveringSequence(const Slice& user_key, SequenceNumber read_seq) const {
    return MaxCoveringSequence(user_key, read_seq, [](SequenceNumber) { return false; });
  }

  // The fragment covering user_key, or null.
  const Fragment* FindFragment(const Slice& user_key) const;

  // Every (fragment, sequence) pair as a tombstone, ordered by begin.
  std::vector<RangeTombstone> ToTombstones() const;

 private:
  std::vector<Fragment> fragments_;
  size_t num_pairs_ = 0;
};

// One fragmented set over the tombstones of every source (null entries and empty sets are
// skipped): null if there are none, the source itself if only one has any, else a new set
// fragmenting all of them together (flushing several components, compacting several files).
std::shared_ptr<const FragmentedRangeTombstones> MergeRangeTombstones(
    const std::vector<std::shared_ptr<const FragmentedRangeTombstones>>& sources);

// The SST block encoding of `tombstones` (see the file comment).
std::string EncodeRangeTombstones(const std::vector<RangeTombstone>& tombstones);
// Decodes an encoded block; Corruption naming `what` if malformed or a tombstone is empty.
Status DecodeRangeTombstones(const Slice& block, const std::string& what,
                             std::vector<RangeTombstone>* tombstones);

// The tombstones a reader at one read point must honour, from every source it reads (memory
// components and SST files), each source's own fragmented index kept alive by this object.
class RangeDelCheck {
 public:
  explicit RangeDelCheck(SequenceNumber read_seq) : read_seq_(read_seq) {}
  void Add(std::shared_ptr<const FragmentedRangeTombstones> source) {
    if (source != nullptr && !source->empty()) sources_.push_back(std::move(source));
  }
  bool empty() const { return sources_.empty(); }
  // True if a version of user_key at sequence seq is hidden by a tombstone at or below the
  // read point.
  bool Covers(const Slice& user_key, SequenceNumber seq) const {
    for (const auto& s : sources_) {
      if (s->MaxCoveringSequence(user_key, read_seq_) > seq) return true;
    }
    return false;
  }

 private:
  const SequenceNumber read_seq_;
  std::vector<std::shared_ptr<const FragmentedRangeTombstones>> sources_;
};

// The smallest user key greater than k (bytewise): k + '\0'.
inline std::string KeySuccessor(const Slice& k) {
  std::string s(k.data(), k.size());
  s.push_back('\0');
  return s;
}

}  // namespace sluice

#endif  // SLUICE_BASE_RANGE_TOMBSTONE_H_
