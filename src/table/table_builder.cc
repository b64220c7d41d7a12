// table/table_builder.cc — see table_builder.h.

#include "table/table_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <chrono>

#include "base/internal_key.h"
#include "table/compression.h"
#include "util/coding.h"

namespace sluice {

TableBuilder::TableBuilder(const TableOptions& options, WritableFile* file)
    : options_(options), file_(file), data_block_(options.block_restart_interval), index_block_(1) {
  if (options_.bloom_bits_per_key > 0) {
    filter_ = std::make_unique<BloomFilterBuilder>(options_.bloom_bits_per_key);
  }
}

TableBuilder::~TableBuilder() = default;

void TableBuilder::Add(const Slice& key, const Slice& value) {
  assert(!closed_);
  if (!ok() || closed_) return;
  ParsedInternalKey parsed;
  if (!ParseInternalKey(key, &parsed)) {
    status_ = Status::InvalidArgument("bad internal key added to table", key.ToEscapedString());
    return;
  }
  if (props_.num_entries > 0 && options_.comparator->Compare(key, last_key_) <= 0) {
    status_ = Status::InvalidArgument(fmt::format("keys added to table out of order: {} after {}",
                                                  key.ToEscapedString(),
                                                  Slice(last_key_).ToEscapedString()));
    return;
  }
  if (pending_index_entry_) {
    options_.comparator->FindShortestSeparator(&last_key_, key);
    AddIndexEntry(pending_handle_);
  }
  if (filter_ != nullptr) filter_->AddKey(parsed.user_key);

  if (props_.num_entries == 0) {
    props_.smallest_seqno = props_.largest_seqno = parsed.sequence;
  } else {
    props_.smallest_seqno = std::min(props_.smallest_seqno, parsed.sequence);
    props_.largest_seqno = std::max(props_.largest_seqno, parsed.sequence);
  }
  if (parsed.type == kTypeDeletion) props_.num_deletions++;
  props_.num_entries++;
  props_.raw_key_size += key.size();
  props_.raw_value_size += value.size();

  last_key_.assign(key.data(), key.size());
  data_block_.Add(key, value);
  if (data_block_.CurrentSizeEstimate() >= options_.block_size) FlushDataBlock();
}

void TableBuilder::AddIndexEntry(const BlockHandle& handle) {
  std::string encoded;
  handle.EncodeTo(&encoded);
  index_block_.Add(last_key_, encoded);
  pending_index_entry_ = false;
}

void TableBuilder::FlushDataBlock() {
  if (!ok() || data_block_.empty()) return;
  assert(!pending_index_entry_);
  WriteBlock(&data_block_, &pending_handle_);
  if (ok()) {
    pending_index_entry_ = true;
    props_.num_data_blocks++;
    props_.data_size += pending_handle_.size + kBlockTrailerSize;
  }
}

void TableBuilder::WriteBlock(BlockBuilder* block, BlockHandle* handle) {
  const Slice raw = block->Finish();
  Slice stored = raw;
  CompressionType type = CompressionType::kNone;
  if (options_.compression != CompressionType::kNone &&
      CompressBlock(options_.compression, raw, &compressed_) &&
      compressed_.size() <= raw.size() - raw.size() / 8) {
    stored = compressed_;
    type = options_.compression;
  }
  WriteRawBlock(stored, type, handle);
  compressed_.clear();
  block->Reset();
}

void TableBuilder::WriteRawBlock(const Slice& stored, CompressionType type, BlockHandle* handle) {
  handle->offset = offset_;
  handle->size = stored.size();
  status_ = file_->Append(stored);
  if (!ok()) return;
  char trailer[kBlockTrailerSize];
  trailer[0] = static_cast<char>(type);
  EncodeFixed32(trailer + 1, BlockChecksum(stored, static_cast<uint8_t>(type)));
  status_ = file_->Append(Slice(trailer, kBlockTrailerSize));
  if (ok()) offset_ += stored.size() + kBlockTrailerSize;
}

Status TableBuilder::Finish() {
  assert(!closed_);
  FlushDataBlock();
  closed_ = true;

  BlockHandle filter_handle, index_handle, rangedel_handle, properties_handle, metaindex_handle;
  if (ok() && filter_ != nullptr) {
    const std::string filter = filter_->Finish();
    WriteRawBlock(filter, CompressionType::kNone, &filter_handle);
    props_.filter_size = filter_handle.size + kBlockTrailerSize;
  }
  if (ok()) {
    if (pending_index_entry_) {
      options_.comparator->FindShortSuccessor(&last_key_);
      AddIndexEntry(pending_handle_);
    }
    WriteBlock(&index_block_, &index_handle);
    props_.index_size = index_handle.size + kBlockTrailerSize;
  }
  if (ok() && !range_tombstones_.empty()) {
    // The sequence range covers the tombstones too (it starts at the first one in a file
    // without entries).
    bool first = props_.num_entries == 0;
    for (const RangeTombstone& t : range_tombstones_) {
      if (first) {
        props_.smallest_seqno = props_.largest_seqno = t.seq;
        first = false;
      }
      props_.smallest_seqno = std::min(props_.smallest_seqno, t.seq);
      props_.largest_seqno = std::max(props_.largest_seqno, t.seq);
    }
    WriteRawBlock(EncodeRangeTombstones(range_tombstones_), CompressionType::kNone,
                  &rangedel_handle);
  }
  if (ok()) {
    props_.compression = static_cast<uint8_t>(options_.compression);
    props_.creation_time =
        static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::seconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count());
    WriteRawBlock(EncodeTableProperties(props_), CompressionType::kNone, &properties_handle);
  }
  if (ok()) {
    BlockBuilder metaindex(1);
    std::string encoded;
    if (filter_ != nullptr) {
      filter_handle.EncodeTo(&encoded);
      metaindex.Add(kFilterBlockName, encoded);
      encoded.clear();
    }
    properties_handle.EncodeTo(&encoded);
    metaindex.Add(kPropertiesBlockName, encoded);
    if (!range_tombstones_.empty()) {
      encoded.clear();
      rangedel_handle.EncodeTo(&encoded);
      metaindex.Add(kRangeDelBlockName, encoded);
    }
    WriteRawBlock(metaindex.Finish(), CompressionType::kNone, &metaindex_handle);
  }
  if (ok()) {
    Footer footer;
    footer.metaindex_handle = metaindex_handle;
    footer.index_handle = index_handle;
    std::string encoded;
    footer.EncodeTo(&encoded);
    status_ = file_->Append(encoded);
    if (ok()) offset_ += encoded.size();
  }
  return status_;
}

void TableBuilder::Abandon() {
  assert(!closed_);
  closed_ = true;
}

}  // namespace sluice
