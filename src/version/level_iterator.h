// version/level_iterator.h — iterates over the entries of one sorted level (>= 1) as if it
// were one table: a binary search finds the file, and each file's table iterator is opened
// only when the iteration reaches it. The iterator keeps its file list (and so the files)
// alive.

#ifndef SLUICE_VERSION_LEVEL_ITERATOR_H_
#define SLUICE_VERSION_LEVEL_ITERATOR_H_

#include <memory>

#include "base/internal_iterator.h"
#include "sluice/options.h"
#include "version/version.h"

namespace sluice {

class TableCache;

std::unique_ptr<InternalIterator> NewLevelIterator(const ReadOptions& options,
                                                   TableCache* table_cache, FileList files);

}  // namespace sluice

#endif  // SLUICE_VERSION_LEVEL_ITERATOR_H_
