// db/db_iter.h — turns the merged stream of internal keys (every version of every key, from
// every memory component and level) into the user's view at one sequence number: for each user
// key, the newest version with sequence <= the snapshot, hidden if it is a deletion; limited to
// ReadOptions' iterate_lower_bound and iterate_upper_bound; a version hidden by a range
// tombstone (range_dels, made at the same sequence number) counts as deleted.

#ifndef SLUICE_DB_DB_ITER_H_
#define SLUICE_DB_DB_ITER_H_

#include <memory>

#include "base/internal_iterator.h"
#include "base/internal_key.h"
#include "base/range_tombstone.h"
#include "sluice/iterator.h"
#include "sluice/options.h"

namespace sluice {

// internal: a merging iterator over internal keys. The result owns it, and copies the bounds of
// options.
std::unique_ptr<Iterator> NewDBIterator(std::unique_ptr<InternalIterator> internal,
                                        SequenceNumber sequence, const ReadOptions& options,
                                        std::unique_ptr<RangeDelCheck> range_dels = nullptr);

}  // namespace sluice

#endif  // SLUICE_DB_DB_ITER_H_
