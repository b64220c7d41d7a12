// table/table_builder.h — writes one SST file from entries added in increasing key order.
//
// File layout (docs/formats.md, "SST files"):
//   data block*  |  filter block ("filter.bloom", optional)  |  index block  |
//   range tombstone block ("rangedel", optional)  |  properties block  |  metaindex block  |
//   footer (56 bytes)
// Each block is followed by its 5-byte trailer (table/format.h). A data block is cut as soon as
// its estimated size reaches block_size; it is stored compressed only if that saves at least
// 1/8 of its size. The index block has one entry per data block: a key k with
// last key of the block <= k < first key of the next block (shortened by the comparator), whose
// value is the block's handle. The metaindex block (bytewise keys) maps "filter.bloom" and
// "properties" to their handles. Filter, properties and metaindex blocks are never compressed.
//
// Invariants: keys are strictly increasing internal keys (anything else puts the builder into
// an InvalidArgument state and nothing more is written); after the first error every call is a
// no-op and status() keeps that error. Not thread-safe.

#ifndef SLUICE_TABLE_TABLE_BUILDER_H_
#define SLUICE_TABLE_TABLE_BUILDER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "base/range_tombstone.h"
#include "sluice/env.h"
#include "sluice/status.h"
#include "table/block_builder.h"
#include "table/bloom.h"
#include "table/format.h"
#include "table/table_options.h"
#include "table/table_properties.h"

namespace sluice {

class TableBuilder {
 public:
  // file is not owned and must outlive the builder; it is appended to, never synced or closed.
  TableBuilder(const TableOptions& options, WritableFile* file);
  TableBuilder(const TableBuilder&) = delete;
  TableBuilder& operator=(const TableBuilder&) = delete;
  // Destroying a builder without Finish behaves like Abandon.
  ~TableBuilder();

  // REQUIRES: Finish/Abandon not called. internal_key > every key added before.
  void Add(const Slice& internal_key, const Slice& value);
  // Adds range tombstones (any order; written as given in the "rangedel" block). A file may
  // hold tombstones and no entries. REQUIRES: Finish/Abandon not called.
  void AddRangeTombstone(const RangeTombstone& t) {
    range_tombstones_.push_back(t);
    props_.num_range_deletions++;
  }
  // OK, or the first error met (of the file, or InvalidArgument for out-of-order keys).
  Status status() const { return status_; }
  // Writes the last data block, filter, index, properties, metaindex and footer. Does not sync
  // or close the file. REQUIRES: Finish/Abandon not called.
  Status Finish();
  // Gives up on the file: nothing more is written. The caller deletes it.
  void Abandon();

  uint64_t NumEntries() const { return props_.num_entries; }
  // Bytes written so far; after a successful Finish, the size of the file.
  uint64_t FileSize() const { return offset_; }
  // The properties so far; complete (sizes included) after a successful Finish.
  const TableProperties& properties() const { return props_; }

 private:
  bool ok() const { return status_.ok(); }
  void FlushDataBlock();
  // Finishes *block, compresses it per options_.compression, writes it, resets it.
  void WriteBlock(BlockBuilder* block, BlockHandle* handle);
  void WriteRawBlock(const Slice& stored, CompressionType type, BlockHandle* handle);
  void AddIndexEntry(const BlockHandle& handle);

  const TableOptions options_;
  WritableFile* const file_;
  uint64_t offset_ = 0;
  Status status_;
  BlockBuilder data_block_;
  BlockBuilder index_block_;
  std::unique_ptr<BloomFilterBuilder> filter_;  // null when bloom_bits_per_key == 0
  std::string last_key_;
  // After a data block is written, its index entry waits for the next key (or Finish) so the
  // separator can be shortened.
  bool pending_index_entry_ = false;
  BlockHandle pending_handle_;
  std::string compressed_;  // scratch for compression
  TableProperties props_;
  std::vector<RangeTombstone> range_tombstones_;
  bool closed_ = false;
};

}  // namespace sluice

#endif  // SLUICE_TABLE_TABLE_BUILDER_H_
