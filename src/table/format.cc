// table/format.cc — block handles, footer and block reading (see format.h).

#include "table/format.h"

#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "sluice/options.h"
#include "table/compression.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sluice {

void BlockHandle::EncodeTo(std::string* dst) const {
  PutVarint64(dst, offset);
  PutVarint64(dst, size);
}

Status BlockHandle::DecodeFrom(Slice* input) {
  if (GetVarint64(input, &offset) && GetVarint64(input, &size)) return Status::OK();
  return Status::Corruption("bad block handle");
}

void Footer::EncodeTo(std::string* dst) const {
  const size_t start = dst->size();
  metaindex_handle.EncodeTo(dst);
  index_handle.EncodeTo(dst);
  dst->resize(start + kHandlesLength, '\0');
  PutFixed32(dst, kFormatVersion);
  PutFixed32(dst, crc32c::Mask(crc32c::Value(dst->data() + start, kHandlesLength + 4)));
  PutFixed64(dst, kTableMagicNumber);
}

Status Footer::DecodeFrom(const Slice& input, const std::string& fname) {
  if (input.size() != kEncodedLength) {
    return Status::Corruption(fmt::format("truncated footer ({} bytes)", input.size()), fname);
  }
  const char* p = input.data();
  if (DecodeFixed64(p + kHandlesLength + 8) != kTableMagicNumber) {
    return Status::Corruption("not an SST file (bad magic number)", fname);
  }
  const uint32_t expected = crc32c::Unmask(DecodeFixed32(p + kHandlesLength + 4));
  if (crc32c::Value(p, kHandlesLength + 4) != expected) {
    return Status::Corruption("bad footer checksum", fname);
  }
  const uint32_t version = DecodeFixed32(p + kHandlesLength);
  if (version != kFormatVersion) {
    return Status::Corruption(fmt::format("unsupported SST format version {}", version), fname);
  }
  Slice handles(p, kHandlesLength);
  if (!metaindex_handle.DecodeFrom(&handles).ok() || !index_handle.DecodeFrom(&handles).ok()) {
    return Status::Corruption("bad block handle in footer", fname);
  }
  return Status::OK();
}

BlockContents::BlockContents(const Slice& bytes)
    : heap(NewBlockBuffer(bytes.size())), data(heap.get(), bytes.size()) {
  std::memcpy(heap.get(), bytes.data(), bytes.size());
}

BlockContents::BlockContents(BlockBuffer bytes, size_t size)
    : heap(std::move(bytes)), data(heap.get(), size) {}

uint32_t BlockChecksum(const Slice& stored, uint8_t type) {
  const char t = static_cast<char>(type);
  return crc32c::Mask(crc32c::Extend(crc32c::Value(stored.data(), stored.size()), &t, 1));
}

namespace {

// The stored bytes of a block (n of them and the trailer, in got) checked and turned into
// *result. buf is the scratch the read may have filled: moved into *result when it holds the
// block; anything else is copied, unless the file's views are valid while it lives (views).
class BlockDecoder final : public ReadConsumer {
 public:
  BlockDecoder(const std::string& fname, const BlockReadOptions& options, uint64_t offset, size_t n,
               bool views, BlockBuffer* buf, BlockContents* result)
      : fname_(fname),
        options_(options),
        offset_(offset),
        n_(n),
        views_(views),
        buf_(buf),
        result_(result) {}

  Status Use(const Slice& got) override {
    if (got.size() != n_ + kBlockTrailerSize) {
      return Status::Corruption(
          fmt::format("truncated block read at offset {} (got {} of {} bytes)", offset_, got.size(),
                      n_ + kBlockTrailerSize),
          fname_);
    }
    const char* data = got.data();
    const uint8_t type = static_cast<uint8_t>(data[n_]);
    if (options_.verify_checksums) {
      const uint32_t stored_crc = DecodeFixed32(data + n_ + 1);
      if (BlockChecksum(Slice(data, n_), type) != stored_crc) {
        return Status::Corruption(fmt::format("bad block checksum at offset {}", offset_), fname_);
      }
    }
    if (!IsKnownCompressionType(type)) {
      return Status::Corruption(
          fmt::format("unknown compression type {} in block at offset {}", type, offset_), fname_);
    }
    if (static_cast<CompressionType>(type) == CompressionType::kNone) {
      // A file whose views stay valid keeps the bytes; any other view (a mapped file's, lent
      // for this call) is copied.
      if (views_) {
        *result_ = BlockContents::ViewOf(Slice(data, n_));
      } else if (data == buf_->get()) {
        *result_ = BlockContents(std::move(*buf_), n_);
      } else {
        *result_ = BlockContents(Slice(data, n_));
      }
      return Status::OK();
    }
    Status s = UncompressBlock(static_cast<CompressionType>(type), Slice(data, n_), result_);
    if (!s.ok()) {
      *result_ = BlockContents();
      return Status::Corruption(fmt::format("{} in block at offset {}", s.message(), offset_),
                                fname_);
    }
    return Status::OK();
  }

 private:
  const std::string& fname_;
  const BlockReadOptions& options_;
  const uint64_t offset_;
  const size_t n_;
  const bool views_;
  BlockBuffer* const buf_;
  BlockContents* const result_;
};

}  // namespace

Status ReadBlock(const RandomAccessFile* file, const std::string& fname, uint64_t file_size,
                 const BlockReadOptions& options, const BlockHandle& handle,
                 BlockContents* result) {
  *result = BlockContents();
  const uint64_t offset = handle.offset;
  if (offset > file_size || file_size - offset < kBlockTrailerSize ||
      handle.size > file_size - offset - kBlockTrailerSize) {
    return Status::Corruption(
        fmt::format("block handle past end of file (offset {}, size {}, file size {})", offset,
                    handle.size, file_size),
        fname);
  }
  const size_t n = static_cast<size_t>(handle.size);
  // Not zeroed: the read fills it. A file that returns views of its own memory needs none.
  const bool views = file->ReturnsViews();
  BlockBuffer buf;
  if (!views) buf = NewBlockBuffer(n + kBlockTrailerSize);
  BlockDecoder decoder(fname, options, offset, n, views, &buf, result);
  Status s;
  if (options.read_once) {
    Slice got;
    s = file->ReadOnce(offset, n + kBlockTrailerSize, &got, buf.get());
    if (s.ok()) s = decoder.Use(got);
  } else {
    // A mapped file lends the decoder its bytes: checked and uncompressed in place.
    s = file->ReadWith(offset, n + kBlockTrailerSize, buf.get(), &decoder);
  }
  if (!s.ok()) *result = BlockContents();
  return s;
}

}  // namespace sluice
