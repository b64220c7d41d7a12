// base/merging_iterator.h — merges sorted child iterators into one sorted stream (a k-way merge
// over a binary heap), forwards and backwards. Equal keys from different children are all
// yielded (internal keys are unique per version anyway); among equal keys the child listed
// first comes first. A child that fails (invalid with a non-OK status) stops the merge: the
// iterator turns invalid with that status, since going on without the child would show older
// versions (or deleted keys) in place of the ones it could not read.

#ifndef SLUICE_BASE_MERGING_ITERATOR_H_
#define SLUICE_BASE_MERGING_ITERATOR_H_

#include <memory>
#include <vector>

#include "base/internal_iterator.h"
#include "util/comparator.h"

namespace sluice {

std::unique_ptr<InternalIterator> NewMergingIterator(
    const Comparator* cmp, std::vector<std::unique_ptr<InternalIterator>> children);

}  // namespace sluice

#endif  // SLUICE_BASE_MERGING_ITERATOR_H_
