// Tests of table/format: block handle and footer encodings, and ReadBlock's checks (checksum,
// handle past the end, short reads, unknown or corrupt compression, I/O errors).

#include "table/format.h"

#include <gtest/gtest.h>

#include <string>

#include "support/test_util.h"
#include "table/compression.h"
#include "table/table_test_util.h"
#include "util/coding.h"
#include "util/crc32c.h"

namespace sluice {

namespace {

const std::string kFname = "/db/000042.sst";

// Appends stored bytes + a valid trailer for `type`; returns the handle.
BlockHandle AppendBlock(std::string* file, const Slice& stored, uint8_t type) {
  BlockHandle h(file->size(), stored.size());
  file->append(stored.data(), stored.size());
  file->push_back(static_cast<char>(type));
  PutFixed32(file, BlockChecksum(stored, type));
  return h;
}

Status Read(const std::string& file, const BlockHandle& h, BlockContents* out, bool verify = true) {
  test::StringSource src(file);
  BlockReadOptions opts;
  opts.verify_checksums = verify;
  return ReadBlock(&src, kFname, file.size(), opts, h, out);
}

void ExpectCorruptionMentioning(const Status& s, const std::string& what) {
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(what)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(kFname)) << s.ToString();
}

}  // namespace

TEST(BlockHandle, RoundTripsAndFitsInMaxEncodedLength) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{300}, ~uint64_t{0}}) {
    BlockHandle h(v, ~v), back;
    std::string enc;
    h.EncodeTo(&enc);
    EXPECT_LE(enc.size(), BlockHandle::kMaxEncodedLength);
    enc += "rest";
    Slice in(enc);
    ASSERT_OK(back.DecodeFrom(&in));
    EXPECT_EQ(h.offset, back.offset);
    EXPECT_EQ(h.size, back.size);
    EXPECT_EQ("rest", in.ToString());
  }
}

TEST(BlockHandle, TruncatedEncodingIsCorruption) {
  std::string enc;
  BlockHandle(1 << 20, 1 << 21).EncodeTo(&enc);
  for (size_t len = 0; len < enc.size(); len++) {
    Slice in(enc.data(), len);
    BlockHandle h;
    EXPECT_TRUE(h.DecodeFrom(&in).IsCorruption()) << len;
  }
}

TEST(Footer, RoundTripsInExactly56Bytes) {
  Footer f, back;
  f.metaindex_handle = BlockHandle(12345, 678);
  f.index_handle = BlockHandle(~uint64_t{0} >> 1, 99999);
  std::string enc;
  f.EncodeTo(&enc);
  ASSERT_EQ(Footer::kEncodedLength, enc.size());
  EXPECT_EQ("sluiceST", enc.substr(48));
  ASSERT_OK(back.DecodeFrom(enc, kFname));
  EXPECT_EQ(12345u, back.metaindex_handle.offset);
  EXPECT_EQ(678u, back.metaindex_handle.size);
  EXPECT_EQ(f.index_handle.offset, back.index_handle.offset);
  EXPECT_EQ(99999u, back.index_handle.size);
}

TEST(Footer, BadMagicIsNotAnSstFile) {
  std::string enc;
  Footer().EncodeTo(&enc);
  enc[50] ^= 1;
  Footer f;
  ExpectCorruptionMentioning(f.DecodeFrom(enc, kFname), "not an SST file (bad magic number)");
}

TEST(Footer, FlippedBitBeforeMagicIsBadChecksum) {
  std::string good;
  Footer f;
  f.metaindex_handle = BlockHandle(10, 20);
  f.EncodeTo(&good);
  for (size_t pos = 0; pos < 48; pos++) {
    std::string enc = good;
    enc[pos] ^= 0x10;
    Footer back;
    ExpectCorruptionMentioning(back.DecodeFrom(enc, kFname), "bad footer checksum");
  }
}

TEST(Footer, UnknownVersionIsRejected) {
  std::string enc;
  Footer().EncodeTo(&enc);
  EncodeFixed32(enc.data() + 40, 7);
  EncodeFixed32(enc.data() + 44, crc32c::Mask(crc32c::Value(enc.data(), 44)));
  Footer f;
  ExpectCorruptionMentioning(f.DecodeFrom(enc, kFname), "unsupported SST format version 7");
}

TEST(Footer, MalformedHandlesAreRejected) {
  std::string enc(40, '\xff');  // a varint that never ends
  PutFixed32(&enc, Footer::kFormatVersion);
  PutFixed32(&enc, crc32c::Mask(crc32c::Value(enc.data(), 44)));
  PutFixed64(&enc, kTableMagicNumber);
  Footer f;
  ExpectCorruptionMentioning(f.DecodeFrom(enc, kFname), "bad block handle in footer");
}

TEST(Footer, WrongLengthIsTruncatedFooter) {
  Footer f;
  ExpectCorruptionMentioning(f.DecodeFrom("short", kFname), "truncated footer");
}

TEST(ReadBlock, ReturnsUncompressedAndCompressedContents) {
  std::string file = "junk";
  const std::string raw(3000, 'q');
  const BlockHandle plain = AppendBlock(&file, raw, 0);
  std::string compressed;
  ASSERT_TRUE(CompressBlock(CompressionType::kZstd, raw, &compressed));
  const BlockHandle packed =
      AppendBlock(&file, compressed, static_cast<uint8_t>(CompressionType::kZstd));
  BlockContents c;
  ASSERT_OK(Read(file, plain, &c));
  EXPECT_EQ(raw, c.data.ToString());
  ASSERT_OK(Read(file, packed, &c));
  EXPECT_EQ(raw, c.data.ToString());
}

TEST(ReadBlock, EveryFlippedByteIsBadChecksum) {
  std::string good = "xx";
  const BlockHandle h = AppendBlock(&good, "block payload", 0);
  for (size_t pos = h.offset; pos < good.size(); pos++) {
    std::string file = good;
    file[pos] ^= 0x01;
    BlockContents c;
    ExpectCorruptionMentioning(Read(file, h, &c), "bad block checksum at offset 2");
  }
}

TEST(ReadBlock, HandlePastEndOfFileIsRejectedBeforeReading) {
  std::string file;
  const BlockHandle h = AppendBlock(&file, "abc", 0);
  BlockContents c;
  ExpectCorruptionMentioning(Read(file, BlockHandle(h.offset, h.size + 1), &c),
                             "block handle past end of file");
  ExpectCorruptionMentioning(Read(file, BlockHandle(1, h.size), &c),
                             "block handle past end of file");
  ExpectCorruptionMentioning(Read(file, BlockHandle(~uint64_t{0}, ~uint64_t{0}), &c),
                             "block handle past end of file");
  ExpectCorruptionMentioning(Read(file, BlockHandle(0, ~uint64_t{0} - 2), &c),
                             "block handle past end of file");
}

TEST(ReadBlock, ShortReadIsTruncatedBlockRead) {
  std::string file;
  const BlockHandle h = AppendBlock(&file, "abcdef", 0);
  test::StringSource src(file.substr(0, file.size() - 2));  // the file shrank after stat
  BlockContents c;
  Status s = ReadBlock(&src, kFname, file.size(), BlockReadOptions(), h, &c);
  ExpectCorruptionMentioning(s, "truncated block read at offset 0");
}

TEST(ReadBlock, UnknownCompressionTypeIsCorruptionEvenWithValidChecksum) {
  std::string file;
  const BlockHandle h = AppendBlock(&file, "abc", 77);
  BlockContents c;
  ExpectCorruptionMentioning(Read(file, h, &c), "unknown compression type 77");
}

TEST(ReadBlock, CorruptCompressedPayloadIsCorruptionWhenChecksumsAreOff) {
  std::string compressed;
  ASSERT_TRUE(CompressBlock(CompressionType::kSnappy, std::string(1000, 'z'), &compressed));
  std::string file;
  const BlockHandle h =
      AppendBlock(&file, compressed, static_cast<uint8_t>(CompressionType::kSnappy));
  file[2] = '\xff';  // garbles snappy's first tag
  file[3] = '\xff';
  BlockContents c;
  ExpectCorruptionMentioning(Read(file, h, &c), "bad block checksum");
  Status s = Read(file, h, &c, /*verify=*/false);
  ExpectCorruptionMentioning(s, "in block at offset 0");
}

TEST(ReadBlock, IoErrorsArePassedThrough) {
  std::string file;
  const BlockHandle h = AppendBlock(&file, "abc", 0);
  test::StringSource src(file);
  src.set_fail(true);
  BlockContents c;
  EXPECT_TRUE(ReadBlock(&src, kFname, file.size(), BlockReadOptions(), h, &c).IsIOError());
}

}  // namespace sluice
