// db/version_pruner.cc — see version_pruner.h.

#include "db/version_pruner.h"

#include <algorithm>

namespace sluice {

VersionPruner::VersionPruner(std::vector<SequenceNumber> snapshots,
                             std::function<bool(const Slice&)> is_base_level)
    : snapshots_(std::move(snapshots)), is_base_level_(std::move(is_base_level)) {}

size_t VersionPruner::Stripe(SequenceNumber q) const {
  return static_cast<size_t>(std::lower_bound(snapshots_.begin(), snapshots_.end(), q) -
                             snapshots_.begin());
}

bool VersionPruner::Keep(const ParsedInternalKey& ikey) {
  const size_t stripe = Stripe(ikey.sequence);
  if (!has_current_key_ || ikey.user_key != Slice(current_key_)) {
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
