// table/table_properties.cc — encoding of the properties block (see table_properties.h).

#include "table/table_properties.h"

#include <fmt/format.h>

#include "sluice/options.h"
#include "table/block_builder.h"
#include "table/compression.h"
#include "util/coding.h"
#include "util/comparator.h"

namespace sluice {

namespace {

// Every stored property except compression (a uint8_t), in bytewise order of name together with
// "sluice.compression", which sorts first.
constexpr const char* kCompressionName = "sluice.compression";
struct U64Property {
  const char* name;
  uint64_t TableProperties::*field;
};
constexpr U64Property kU64Properties[] = {
    {"sluice.creation.time", &TableProperties::creation_time},
    {"sluice.data.size", &TableProperties::data_size},
    {"sluice.filter.size", &TableProperties::filter_size},
    {"sluice.index.size", &TableProperties::index_size},
    {"sluice.largest.seqno", &TableProperties::largest_seqno},
    {"sluice.num.data.blocks", &TableProperties::num_data_blocks},
    {"sluice.num.deletions", &TableProperties::num_deletions},
    {"sluice.num.entries", &TableProperties::num_entries},
    {"sluice.num.range.deletions", &TableProperties::num_range_deletions},
    {"sluice.raw.key.size", &TableProperties::raw_key_size},
    {"sluice.raw.value.size", &TableProperties::raw_value_size},
    {"sluice.smallest.seqno", &TableProperties::smallest_seqno},
};

}  // namespace

std::string TableProperties::ToString() const {
  return fmt::format(
      "num_entries={}; num_deletions={}; num_range_deletions={}; raw_key_size={}; "
      "raw_value_size={}; data_size={}; "
      "index_size={}; filter_size={}; num_data_blocks={}; smallest_seqno={}; largest_seqno={}; "
      "compression={}; creation_time={}",
      num_entries, num_deletions, num_range_deletions, raw_key_size, raw_value_size, data_size,
      index_size, filter_size, num_data_blocks, smallest_seqno, largest_seqno,
      CompressionTypeName(static_cast<CompressionType>(compression)), creation_time);
}

std::string EncodeTableProperties(const TableProperties& props) {
  BlockBuilder builder(1);
  std::string value;
  PutVarint64(&value, props.compression);
  builder.Add(kCompressionName, value);
  for (const U64Property& p : kU64Properties) {
    value.clear();
    PutVarint64(&value, props.*(p.field));
    builder.Add(p.name, value);
  }
  return builder.Finish().ToString();
}

Status DecodeTableProperties(const Block& block, const std::string& fname, uint64_t block_offset,
                             TableProperties* props) {
  *props = TableProperties();
  auto it = block.NewIterator(BytewiseComparator(), fname, block_offset);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    Slice input = it->value();
    uint64_t v = 0;
    if (!GetVarint64(&input, &v) || !input.empty()) {
      return Status::Corruption(fmt::format("bad value of property {} in block at offset {}",
                                            it->key().ToEscapedString(), block_offset),
                                fname);
    }
    const Slice name = it->key();
    if (name == kCompressionName) {
      if (v > 0xff) {
        return Status::Corruption(
            fmt::format("bad compression property {} in block at offset {}", v, block_offset),
            fname);
      }
      props->compression = static_cast<uint8_t>(v);
      continue;
    }
    for (const U64Property& p : kU64Properties) {
      if (name == p.name) {
        props->*(p.field) = v;
        break;
      }
    }
  }
  return it->status();
}

}  // namespace sluice
