// table/table_properties.h — statistics about one SST file, stored in its "properties" meta
// block and read back when the table is opened.
//
// The properties block uses the ordinary block format (block_builder.h) with bytewise-sorted
// keys: each key is a property name ("sluice.num.entries", ...) and each value a varint64.
// Decoding ignores names it does not know (so newer writers can add properties) and leaves
// missing properties at 0; a value that is not exactly one varint64 is Corruption.

#ifndef SLUICE_TABLE_TABLE_PROPERTIES_H_
#define SLUICE_TABLE_TABLE_PROPERTIES_H_

#include <cstdint>
#include <string>

#include "sluice/status.h"
#include "table/block.h"

namespace sluice {

struct TableProperties {
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;        // entries of type kTypeDeletion
  uint64_t num_range_deletions = 0;  // range tombstones in the "rangedel" block
  uint64_t raw_key_size = 0;         // sum of internal key sizes
  uint64_t raw_value_size = 0;       // sum of value sizes
  uint64_t data_size = 0;            // bytes of data blocks as stored (with trailers)
  uint64_t index_size = 0;           // bytes of the index block as stored (with trailer)
  uint64_t filter_size = 0;  // bytes of the filter block as stored (with trailer), 0 if none
  uint64_t num_data_blocks = 0;
  uint64_t smallest_seqno = 0;  // 0 and 0 when the table is empty
  uint64_t largest_seqno = 0;
  uint8_t compression = 0;     // the CompressionType the table was written with
  uint64_t creation_time = 0;  // seconds since the Unix epoch

  // One line, "num_entries=10; num_deletions=2; ...; compression=snappy; ...".
  std::string ToString() const;
};

// The contents of a properties block holding props.
std::string EncodeTableProperties(const TableProperties& props);

// Reads the properties from a parsed properties block. Corruption names fname and the block
// offset.
Status DecodeTableProperties(const Block& block, const std::string& fname, uint64_t block_offset,
                             TableProperties* props);

}  // namespace sluice

#endif  // SLUICE_TABLE_TABLE_PROPERTIES_H_
