// table/block.h — a read-only, parsed block (format in block_builder.h) and its iterator.
//
// The Block owns its uncompressed contents. Construction validates the trailer: the restart
// count must fit in the block, the first restart point must be 0, and restart points must be
// strictly increasing and point inside the entry area. A block that fails validation yields
// only iterators whose status() is Corruption. The iterator bounds-checks every varint, length
// and key it decodes against the entry area, so malformed contents produce Corruption (naming
// the file and block offset), never an out-of-bounds read. Errors are sticky: once an iterator
// has reported one it stays invalid. A Block is immutable, so any number of threads may iterate
// over it concurrently, each with its own iterator.
//
// A block built with restart prefixes (SSTs' index blocks: internal keys over bytewise user
// keys) also keeps a RestartPrefixes of its restart keys; iterators whose comparator is the
// internal-key comparator over bytewise user keys narrow each Seek's binary search with it.
// Seek's result is the same with or without it.

#ifndef SLUICE_TABLE_BLOCK_H_
#define SLUICE_TABLE_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "base/internal_iterator.h"
#include "table/format.h"
#include "table/restart_prefixes.h"
#include "util/comparator.h"

namespace sluice {

class Block {
 public:
  explicit Block(BlockContents contents);
  // As above; with restart_prefixes, and if the block is well formed, its restart keys (internal
  // keys, at least 8 bytes, whose user keys are in bytewise order) also get a RestartPrefixes.
  Block(BlockContents contents, bool restart_prefixes);
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  // Bytes of the uncompressed contents.
  size_t size() const { return contents_.data.size(); }
  // Heap bytes of the restart prefixes (0 without them).
  size_t PrefixMemoryUsage() const;
  // True if the restart array is well formed (NewIterator then returns a working iterator).
  bool ok() const { return error_.empty(); }

  // An iterator over the block's entries in `comparator` order. `fname` and `block_offset`
  // name the block in corruption messages; fname must outlive the iterator, and so must this
  // Block. Entries whose key is shorter than min_key_size are reported as corruption (tables
  // pass 8 so that an internal-key comparator never sees a key without its trailer).
  std::unique_ptr<InternalIterator> NewIterator(const Comparator* comparator,
                                                const std::string& fname, uint64_t block_offset,
                                                size_t min_key_size = 0) const;

 private:
  const BlockContents contents_;
  uint32_t restart_offset_ = 0;  // where the restart array begins (= end of the entries)
  uint32_t num_restarts_ = 0;
  std::string error_;  // what is wrong with the trailer; empty if the block is well formed
  std::unique_ptr<const RestartPrefixes> prefixes_;  // null unless asked for and well formed
};

}  // namespace sluice

#endif  // SLUICE_TABLE_BLOCK_H_
