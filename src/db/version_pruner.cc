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
  return true;
}

}  // namespace sluice
