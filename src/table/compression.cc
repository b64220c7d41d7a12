// table/compression.cc — snappy, zstd and lz4 block codecs (see compression.h).

#include "table/compression.h"

#include <fmt/format.h>
#include <lz4.h>
#include <snappy.h>
#include <zstd.h>

#include <memory>

#include "util/coding.h"

namespace sluice {

namespace {

constexpr int kZstdLevel = 3;

Status TooLarge(const char* codec, uint64_t claimed) {
  return Status::Corruption(fmt::format("{} block claims {} uncompressed bytes (limit {})", codec,
                                        claimed, kMaxUncompressedBlockSize));
}

Status SnappyUncompress(const Slice& data, BlockContents* out) {
  size_t n = 0;
  if (!snappy::GetUncompressedLength(data.data(), data.size(), &n)) {
    return Status::Corruption("bad snappy block header");
  }
  if (n > kMaxUncompressedBlockSize) return TooLarge("snappy", n);
  BlockBuffer buf = NewBlockBuffer(n);  // not zeroed: the codec fills it
  if (!snappy::RawUncompress(data.data(), data.size(), buf.get())) {
    return Status::Corruption("bad snappy block");
  }
  *out = BlockContents(std::move(buf), n);
  return Status::OK();
}

Status ZstdUncompress(const Slice& data, BlockContents* out) {
  const unsigned long long n = ZSTD_getFrameContentSize(data.data(), data.size());
  if (n == ZSTD_CONTENTSIZE_ERROR) return Status::Corruption("bad zstd frame header");
  if (n == ZSTD_CONTENTSIZE_UNKNOWN) {
    return Status::Corruption("zstd frame without uncompressed size");
  }
  if (n > kMaxUncompressedBlockSize) return TooLarge("zstd", n);
  const auto size = static_cast<size_t>(n);
  BlockBuffer buf = NewBlockBuffer(size);
  const size_t r = ZSTD_decompress(buf.get(), size, data.data(), data.size());
  if (ZSTD_isError(r) || r != n) {
    return Status::Corruption(
        fmt::format("bad zstd block: {}", ZSTD_isError(r) ? ZSTD_getErrorName(r) : "short"));
  }
  *out = BlockContents(std::move(buf), size);
  return Status::OK();
}

Status Lz4Uncompress(const Slice& data, BlockContents* out) {
  Slice input = data;
  uint32_t n = 0;
  if (!GetVarint32(&input, &n)) return Status::Corruption("bad lz4 block length prefix");
  if (n > kMaxUncompressedBlockSize) return TooLarge("lz4", n);
  if (input.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
    return Status::Corruption("lz4 block too large");
  }
  BlockBuffer buf = NewBlockBuffer(n);
  const int r = LZ4_decompress_safe(input.data(), buf.get(), static_cast<int>(input.size()),
                                    static_cast<int>(n));
  if (r < 0 || static_cast<uint32_t>(r) != n) return Status::Corruption("bad lz4 block");
  *out = BlockContents(std::move(buf), n);
  return Status::OK();
}

}  // namespace

bool IsKnownCompressionType(uint8_t t) { return t <= static_cast<uint8_t>(CompressionType::kLz4); }

const char* CompressionTypeName(CompressionType type) {
  switch (type) {
    case CompressionType::kNone: return "none";
    case CompressionType::kSnappy: return "snappy";
    case CompressionType::kZstd: return "zstd";
    case CompressionType::kLz4: return "lz4";
  }
  return "unknown";
}

bool CompressBlock(CompressionType type, const Slice& raw, std::string* out) {
  switch (type) {
    case CompressionType::kNone: return false;
    case CompressionType::kSnappy:
      out->clear();
      snappy::Compress(raw.data(), raw.size(), out);
      return true;
    case CompressionType::kZstd: {
      out->resize(ZSTD_compressBound(raw.size()));
      const size_t r = ZSTD_compress(out->data(), out->size(), raw.data(), raw.size(), kZstdLevel);
      if (ZSTD_isError(r)) return false;
      out->resize(r);
      return true;
    }
    case CompressionType::kLz4: {
      if (raw.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return false;
      const int raw_len = static_cast<int>(raw.size());
      out->clear();
      PutVarint32(out, static_cast<uint32_t>(raw_len));
      const size_t prefix = out->size();
      const int bound = LZ4_compressBound(raw_len);
      out->resize(prefix + static_cast<size_t>(bound));
      const int r = LZ4_compress_default(raw.data(), out->data() + prefix, raw_len, bound);
      if (r <= 0) return false;
      out->resize(prefix + static_cast<size_t>(r));
      return true;
    }
  }
  return false;
}

Status UncompressBlock(CompressionType type, const Slice& data, BlockContents* out) {
  switch (type) {
    case CompressionType::kNone: *out = BlockContents(data); return Status::OK();
    case CompressionType::kSnappy: return SnappyUncompress(data, out);
    case CompressionType::kZstd: return ZstdUncompress(data, out);
    case CompressionType::kLz4: return Lz4Uncompress(data, out);
  }
  return Status::Corruption(
      fmt::format("unknown compression type {}", static_cast<unsigned>(type)));
}

}  // namespace sluice
