// table/two_level_iterator.h — iterates over the entries of a sequence of blocks: an index
// iterator yields, for each block, a value (an encoded handle) from which a function opens an
// iterator over that block.
//
// Invariants: the iterator is positioned on an entry of the current block iterator, whose index
// value is remembered so repositioning within the same block reuses the open block. Empty blocks
// are skipped. An error from the index or from opening or reading a block is never skipped over:
// the iterator stops there (Valid() false), status() returns that error, and the error is sticky
// (every later positioning call leaves the iterator invalid), so a caller can never receive
// entries from beyond a corrupt block believing it saw them all.

#ifndef SLUICE_TABLE_TWO_LEVEL_ITERATOR_H_
#define SLUICE_TABLE_TWO_LEVEL_ITERATOR_H_

#include <functional>
#include <memory>

#include "base/internal_iterator.h"

namespace sluice {

// Opens an iterator over the block whose index value is given. May return an iterator whose
// status() is an error.
using BlockOpener = std::function<std::unique_ptr<InternalIterator>(const Slice& index_value)>;

std::unique_ptr<InternalIterator> NewTwoLevelIterator(std::unique_ptr<InternalIterator> index_iter,
                                                      BlockOpener open_block);

}  // namespace sluice

#endif  // SLUICE_TABLE_TWO_LEVEL_ITERATOR_H_
