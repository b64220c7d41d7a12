// table/block_builder.h — builds one prefix-compressed block (data, index, metaindex and
// properties blocks all use this format).
//
// Format (see docs/formats.md):
//   entry*   where entry = varint32 shared | varint32 non_shared | varint32 value_len |
//                          key_delta[non_shared] | value[value_len]
//   restart offsets (fixed32 each), num_restarts (fixed32)
// `shared` is the number of leading bytes the key has in common with the previous key; every
// restart_interval entries the key is stored whole (shared = 0) and its offset is recorded as a
// restart point, so readers can binary-search the restart points. The first entry is always a
// restart point, and there is always at least one restart point (offset 0), even in an empty
// block. Keys must be added in strictly increasing order of the comparator the reader uses.

#ifndef SLUICE_TABLE_BLOCK_BUILDER_H_
#define SLUICE_TABLE_BLOCK_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sluice/slice.h"

namespace sluice {

class BlockBuilder {
 public:
  // restart_interval < 1 is treated as 1.
  explicit BlockBuilder(int restart_interval);
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  // Starts a new, empty block.
  void Reset();
  // REQUIRES: Finish() not called since the last Reset(); key > every key added before.
  void Add(const Slice& key, const Slice& value);
  // Appends the restart array and returns the whole block; valid until Reset() or destruction.
  Slice Finish();
  // Bytes of the block if it were finished now.
  size_t CurrentSizeEstimate() const;
  // True if no entry was added since the last Reset().
  bool empty() const { return num_entries_ == 0; }

 private:
  const int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int counter_ = 0;  // entries since the last restart point
  size_t num_entries_ = 0;
  bool finished_ = false;
  std::string last_key_;
};

}  // namespace sluice

#endif  // SLUICE_TABLE_BLOCK_BUILDER_H_
