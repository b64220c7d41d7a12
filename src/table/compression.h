// table/compression.h — the per-block compression codecs of SST files.
//
// Encodings (see docs/formats.md, "SST files"):
//   kSnappy: the raw snappy format (it carries its own uncompressed length);
//   kZstd:   one zstd frame (level 3) whose header records the uncompressed size;
//   kLz4:    varint32 uncompressed length, then one LZ4 block (LZ4_compress_default).
// Decoding never trusts a claimed uncompressed size above kMaxUncompressedBlockSize, so a
// corrupt block cannot make the reader allocate absurd amounts of memory, and never returns
// output whose size differs from the claimed one.

#ifndef SLUICE_TABLE_COMPRESSION_H_
#define SLUICE_TABLE_COMPRESSION_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "sluice/options.h"
#include "sluice/slice.h"
#include "sluice/status.h"
#include "table/format.h"

namespace sluice {

// Largest uncompressed block a decoder accepts (1 GiB).
constexpr size_t kMaxUncompressedBlockSize = size_t{1} << 30;

// True if t is one of the CompressionType values (a byte read from disk may be anything).
bool IsKnownCompressionType(uint8_t t);

// "none", "snappy", "zstd", "lz4", or "unknown".
const char* CompressionTypeName(CompressionType type);

// Compresses raw with `type` into *out (replacing its contents). Returns false if type is
// kNone or unknown, or the codec failed; *out is then unspecified.
bool CompressBlock(CompressionType type, const Slice& raw, std::string* out);

// Uncompresses data (encoded with `type`) into new heap memory owned by *out. Returns
// Corruption, describing what is wrong, if the data is malformed, claims more than
// kMaxUncompressedBlockSize bytes, or the type is unknown. kNone copies data.
Status UncompressBlock(CompressionType type, const Slice& data, BlockContents* out);

}  // namespace sluice

#endif  // SLUICE_TABLE_COMPRESSION_H_
