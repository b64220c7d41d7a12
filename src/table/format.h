// table/format.h — the framing of SST files: block handles, the per-block trailer, the footer,
// and reading one block back from a file.
//
// Layout (full description in docs/formats.md, "SST files"):
//   * every block is stored as   stored_bytes | type:u8 | masked_crc32c:fixed32   where type is
//     the CompressionType of stored_bytes and the crc covers stored_bytes followed by the type
//     byte;
//   * a BlockHandle (offset, size) locates stored_bytes, the size excluding the 5-byte trailer;
//   * the file ends with a fixed 56-byte Footer.
// Invariants: ReadBlock never reads or allocates past the file size it is given, never returns
// contents whose checksum it was asked to verify and could not, and reports every problem as
// Corruption naming the file and the block offset.

#ifndef SLUICE_TABLE_FORMAT_H_
#define SLUICE_TABLE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "sluice/env.h"
#include "sluice/slice.h"
#include "sluice/status.h"
#include "util/block_buffer.h"

namespace sluice {

// Location of a block's stored bytes in the file (trailer not included in size).
struct BlockHandle {
  // Two varint64s take at most 10 bytes each.
  static constexpr size_t kMaxEncodedLength = 20;

  uint64_t offset = 0;
  uint64_t size = 0;

  BlockHandle() = default;
  BlockHandle(uint64_t o, uint64_t s) : offset(o), size(s) {}

  // Appends varint64 offset, varint64 size.
  void EncodeTo(std::string* dst) const;
  // Parses a handle from the front of *input and advances it; Corruption("bad block handle")
  // if the input is truncated or malformed.
  Status DecodeFrom(Slice* input);
};

// Names of the meta blocks in the metaindex block.
inline constexpr char kFilterBlockName[] = "filter.bloom";
inline constexpr char kPropertiesBlockName[] = "properties";
// Range tombstones (base/range_tombstone.h encoding); present only in files that hold some.
inline constexpr char kRangeDelBlockName[] = "rangedel";

// Bytes after each block: compression type (1) + masked crc32c (4).
constexpr size_t kBlockTrailerSize = 5;

// "sluiceST" as stored on disk (little-endian): the last 8 bytes of every SST file.
constexpr uint64_t kTableMagicNumber = 0x5453656369756c73ull;

// The last kEncodedLength bytes of an SST file:
//   [0, 40)  metaindex handle, index handle (varints), zero padding
//   [40, 44) format version (fixed32, kFormatVersion)
//   [44, 48) masked crc32c of bytes [0, 44)
//   [48, 56) kTableMagicNumber (fixed64)
struct Footer {
  static constexpr size_t kEncodedLength = 56;
  static constexpr size_t kHandlesLength = 2 * BlockHandle::kMaxEncodedLength;
  static constexpr uint32_t kFormatVersion = 1;

  BlockHandle metaindex_handle;
  BlockHandle index_handle;

  // Appends exactly kEncodedLength bytes.
  void EncodeTo(std::string* dst) const;
  // Decodes the footer from input (which must be the last kEncodedLength bytes of the file).
  // Checks, in order: length, magic ("not an SST file (bad magic number)"), checksum, version,
  // handles. Errors are Corruption naming fname.
  Status DecodeFrom(const Slice& input, const std::string& fname);
};

// The masked crc32c stored in a block trailer: over stored bytes then the type byte.
uint32_t BlockChecksum(const Slice& stored, uint8_t type);

// The uncompressed contents of one block, in heap memory they own, or (a view) in the memory
// of the file they were read from (RandomAccessFile::ReturnsViews), valid only while that file
// is open: a view must never outlive its table (so never enters the block cache). Not a
// std::string: its resize() would zero every byte before the read or the codec overwrites it.
struct BlockContents {
  BlockContents() = default;
  // A heap copy of bytes.
  explicit BlockContents(const Slice& bytes);
  // Takes the first size bytes of a block buffer.
  BlockContents(BlockBuffer bytes, size_t size);
  // A view of bytes owned by the file they were read from.
  static BlockContents ViewOf(const Slice& bytes) {
    BlockContents c;
    c.data = bytes;
    return c;
  }
  bool is_view() const { return heap == nullptr && !data.empty(); }

  BlockBuffer heap;
  Slice data;  // [heap, heap + size), or the view
};

struct BlockReadOptions {
  bool verify_checksums = true;
  // Read with RandomAccessFile::ReadOnce: the block will not be read again soon.
  bool read_once = false;
};

// Reads the block at handle (handle.size stored bytes + trailer) from file, verifies its
// checksum if options.verify_checksums, and uncompresses it into *result. file_size is the size
// of the file: a handle reaching past it is Corruption (checked before allocating). I/O errors
// of the file are returned as they are; everything else wrong is Corruption naming fname and
// the block offset. An uncompressed block of a file that ReturnsViews is returned as a view.
Status ReadBlock(const RandomAccessFile* file, const std::string& fname, uint64_t file_size,
                 const BlockReadOptions& options, const BlockHandle& handle, BlockContents* result);

}  // namespace sluice

#endif  // SLUICE_TABLE_FORMAT_H_
