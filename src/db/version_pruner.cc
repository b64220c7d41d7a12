// db/version_pruner.cc — see version_pruner.h.

#include "db/version_pruner.h"

#include <algorithm>
#include <cassert>

namespace sluice {

VersionPruner::VersionPruner(std::vector<SequenceNumber> snapshots,
                             std::function<bool(const Slice&)> is_base_level)
    : snapshots_(std::move(snapshots)), is_base_level_(std::move(is_base_level)) {
  assert(std::is_sorted(snapshots_.begin(), snapshots_.end()));
}

size_t VersionPruner::Stripe(SequenceNumber q) const {
  return static_cast<size_t>(std::lower_bound(snapshots_.begin(), snapshots_.end(), q) -
                             snapshots_.begin());
}

bool VersionPruner::Keep(const ParsedInternalKey& ikey) {
  const size_t stripe = Stripe(ikey.sequence);
  const bool same_key = has_current_key_ && ikey.user_key == Slice(current_key_);
  // Entries arrive in internal-key order: user keys ascending, each key's versions newest first.
  assert(same_key || !has_current_key_ || ikey.user_key.compare(Slice(current_key_)) > 0);
  assert(!same_key || ikey.sequence < last_sequence_);
  last_sequence_ = ikey.sequence;
  if (!same_key) {
    current_key_.assign(ikey.user_key.data(), ikey.user_key.size());
    has_current_key_ = true;
  } else if (stripe == last_stripe_) {
    dropped_++;  // rule 1: a newer version with the same first reader hides it
    return false;
  }
  last_stripe_ = stripe;
  if (ikey.type == kTypeDeletion && stripe == 0 && is_base_level_ &&
      is_base_level_(ikey.user_key)) {
    dropped_++;  // rule 2
    return false;
  }
  if (range_tombstones_ != nullptr) {
    // Keys ascend: the fragment of the previous key is usually this one's too.
    if (fragment_ == nullptr || ikey.user_key.compare(Slice(fragment_->begin)) < 0 ||
        ikey.user_key.compare(Slice(fragment_->end)) >= 0) {
      fragment_ = range_tombstones_->FindFragment(ikey.user_key);
    }
    if (fragment_ != nullptr) {
      // The oldest tombstone newer than the version decides (E grows with the sequence).
      SequenceNumber newer = 0;
      for (SequenceNumber t : fragment_->seqs) {
        if (t <= ikey.sequence) break;
        newer = t;
      }
      if (newer != 0 && Stripe(newer) == stripe) {
        dropped_++;  // rule 3
        return false;
      }
    }
  }
  return true;
}

std::vector<RangeTombstone> VersionPruner::PruneRangeTombstones(
    const FragmentedRangeTombstones& tombstones,
    const std::function<bool(const Slice&, const Slice&)>& range_at_base) const {
  std::vector<RangeTombstone> out;
  for (const auto& f : tombstones.fragments()) {
    bool has_last = false;
    size_t last_stripe = 0;
    int at_base = -1;                  // unknown until asked
    for (SequenceNumber t : f.seqs) {  // newest first
      const size_t stripe = Stripe(t);
      if (has_last && stripe == last_stripe) continue;  // rule 1
      has_last = true;
      last_stripe = stripe;
      if (stripe == 0 && range_at_base) {
        if (at_base < 0) at_base = range_at_base(Slice(f.begin), Slice(f.end)) ? 1 : 0;
        if (at_base == 1) continue;  // rule 2
      }
      out.push_back(RangeTombstone{f.begin, f.end, t});
    }
  }
  return out;
}

}  // namespace sluice
