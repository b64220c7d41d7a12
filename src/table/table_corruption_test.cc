// Tests of table/table on damaged files. The rule under test: a damaged SST file never crashes
// the reader and never yields wrong entries; the damage surfaces as Corruption naming the file
// (and the block offset where one is involved), at Open or when the damaged block is read.
// Covered: every single-byte flip of small tables, flips in each named region (data, index,
// metaindex, filter, properties, footer), truncated, empty, short and random files, and
// hand-crafted files whose checksums are valid but whose contents are malformed.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/internal_key.h"
#include "support/test_util.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "table/format.h"
#include "table/table.h"
#include "table/table_builder.h"
#include "table/table_properties.h"
#include "table/table_test_util.h"
#include "util/cache.h"
#include "util/coding.h"
#include "util/comparator.h"
#include "util/random.h"

namespace sluice {

using test::BuildTable;
using test::kTestFname;
using test::KVs;
using test::MakeEntries;
using test::OpenTable;

namespace {

std::string IKey(const std::string& user_key, SequenceNumber seq) {
  std::string k;
  AppendInternalKey(&k, ParsedInternalKey(user_key, seq, kTypeValue));
  return k;
}

bool Mentions(const Status& s, const std::string& what) {
  return s.ToString().find(what) != std::string::npos;
}

::testing::AssertionResult IsCorruptionNaming(const Status& s, const std::string& what = "") {
  if (!s.IsCorruption()) {
    return ::testing::AssertionFailure() << "not Corruption: " << s.ToString();
  }
  if (!Mentions(s, kTestFname)) {
    return ::testing::AssertionFailure() << "no file name: " << s.ToString();
  }
  if (!what.empty() && !Mentions(s, what)) {
    return ::testing::AssertionFailure() << "no '" << what << "': " << s.ToString();
  }
  return ::testing::AssertionSuccess();
}

// Opens a damaged copy of a table holding `expected` and reads it every way. Asserts that the
// damage is reported as Corruption naming the file and that nothing wrong is ever returned.
// Returns a description of where it was detected ("open", "read"), or "undetected". views:
// the file returns views of its bytes, as a memory-mapped one does.
std::string CheckDamaged(const TableOptions& options, const std::string& damaged,
                         const KVs& expected, bool views = false) {
  std::unique_ptr<Table> table;
  Status s = OpenTable(options, damaged, &table, nullptr, kTestFname, views);
  if (!s.ok()) {
    EXPECT_TRUE(IsCorruptionNaming(s));
    EXPECT_EQ(nullptr, table);
    return "open";
  }
  bool detected = false;
  // Forward scan: a correct prefix, then either the rest or a Corruption.
  auto it = table->NewIterator(ReadOptions());
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    EXPECT_LT(i, expected.size());
    if (i >= expected.size()) break;
    EXPECT_EQ(expected[i].first, it->key().ToString());
    EXPECT_EQ(expected[i].second, it->value().ToString());
  }
  if (!it->status().ok()) {
    EXPECT_TRUE(IsCorruptionNaming(it->status()));
    detected = true;
  } else {
    EXPECT_EQ(expected.size(), i);
  }
  // Backward scan: a correct suffix.
  i = expected.size();
  for (it->SeekToLast(); it->Valid() && i > 0; it->Prev()) {
    i--;
    EXPECT_EQ(expected[i].first, it->key().ToString());
    EXPECT_EQ(expected[i].second, it->value().ToString());
  }
  // Point lookups: the right entry, or Corruption.
  for (size_t j = 0; j < expected.size(); j++) {
    int calls = 0;
    std::string key, value;
    s = table->InternalGet(ReadOptions(), expected[j].first, [&](const Slice& k, const Slice& v) {
      calls++;
      key = k.ToString();
      value = v.ToString();
    });
    if (!s.ok()) {
      EXPECT_TRUE(IsCorruptionNaming(s));
      detected = true;
      EXPECT_EQ(0, calls);
    } else {
      EXPECT_EQ(1, calls);
      EXPECT_EQ(expected[j].first, key);
      EXPECT_EQ(expected[j].second, value);
    }
  }
  s = table->VerifyChecksums();
  if (detected) {
    EXPECT_TRUE(IsCorruptionNaming(s));  // what reads found, the full check finds too
  }
  if (!s.ok()) {
    EXPECT_TRUE(IsCorruptionNaming(s));
    detected = true;
  }
  return detected ? "read" : "undetected";
}

// The layout of a table, read back from its footer and metaindex.
struct Layout {
  BlockHandle index, metaindex, filter, properties;
  std::vector<BlockHandle> data;
};

Layout ReadLayout(const std::string& contents) {
  Layout l;
  Footer footer;
  EXPECT_OK(footer.DecodeFrom(
      Slice(contents.data() + contents.size() - Footer::kEncodedLength, Footer::kEncodedLength),
      kTestFname));
  l.index = footer.index_handle;
  l.metaindex = footer.metaindex_handle;
  test::StringSource src(contents);
  BlockContents c;
  EXPECT_OK(ReadBlock(&src, kTestFname, contents.size(), BlockReadOptions(), l.metaindex, &c));
  Block meta(std::move(c));
  auto mit = meta.NewIterator(BytewiseComparator(), kTestFname, 0);
  for (mit->SeekToFirst(); mit->Valid(); mit->Next()) {
    Slice v = mit->value();
    BlockHandle h;
    EXPECT_OK(h.DecodeFrom(&v));
    if (mit->key() == Slice(kFilterBlockName)) l.filter = h;
    if (mit->key() == Slice(kPropertiesBlockName)) l.properties = h;
  }
  EXPECT_OK(ReadBlock(&src, kTestFname, contents.size(), BlockReadOptions(), l.index, &c));
  Block index(std::move(c));
  auto iit = index.NewIterator(DefaultInternalKeyComparator(), kTestFname, 0);
  for (iit->SeekToFirst(); iit->Valid(); iit->Next()) {
    Slice v = iit->value();
    BlockHandle h;
    EXPECT_OK(h.DecodeFrom(&v));
    l.data.push_back(h);
  }
  return l;
}

std::string Flip(std::string s, size_t pos, uint8_t mask = 0x40) {
  s[pos] = static_cast<char>(s[pos] ^ mask);
  return s;
}

class DamagedTable : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.block_size = 512;
    entries_ = MakeEntries(600);
    ASSERT_OK(BuildTable(options_, entries_, &good_));
    layout_ = ReadLayout(good_);
    ASSERT_GT(layout_.data.size(), 5u);
  }

  TableOptions options_;
  KVs entries_;
  std::string good_;
  Layout layout_;
};

}  // namespace

TEST(TableDamage, EverySingleByteFlipOfASmallTableIsDetected) {
  for (CompressionType type : {CompressionType::kNone, CompressionType::kSnappy}) {
    for (bool use_cache : {false, true}) {
      for (bool views : {false, true}) {
        auto cache = NewLRUCache(1 << 20);
        TableOptions options;
        options.block_size = 256;
        options.compression = type;
        options.block_cache = use_cache ? cache.get() : nullptr;
        const KVs entries = MakeEntries(40);
        std::string good;
        ASSERT_OK(BuildTable(options, entries, &good));
        for (size_t pos = 0; pos < good.size(); pos++) {
          SCOPED_TRACE(testing::Message()
                       << "byte " << pos << " of " << good.size() << (views ? ", views" : ""));
          const std::string where = CheckDamaged(options, Flip(good, pos, 0x01), entries, views);
          ASSERT_NE("undetected", where);
        }
      }
    }
  }
}

TEST(TableDamage, RandomMultiByteDamageNeverCrashesOrLies) {
  TableOptions options;
  options.block_size = 300;
  options.compression = CompressionType::kLz4;
  const KVs entries = MakeEntries(200);
  std::string good;
  ASSERT_OK(BuildTable(options, entries, &good));
  Random rnd(4242);
  for (int trial = 0; trial < 300; trial++) {
    std::string damaged = good;
    const int n = 1 + static_cast<int>(rnd.Uniform(8));
    for (int i = 0; i < n; i++) {
      damaged[rnd.Uniform(damaged.size())] = static_cast<char>(rnd.Uniform(256));
    }
    if (damaged == good) continue;
    SCOPED_TRACE(trial);
    CheckDamaged(options, damaged, entries);
  }
}

TEST_F(DamagedTable, FlippedByteInFirstDataBlockIsReportedWithItsOffset) {
  const std::string damaged = Flip(good_, layout_.data[0].offset + 3);
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options_, damaged, &table));  // data blocks are read lazily
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(IsCorruptionNaming(it->status(), "bad block checksum at offset 0"));
  EXPECT_TRUE(IsCorruptionNaming(table->VerifyChecksums(), "bad block checksum at offset 0"));
  EXPECT_EQ("read", CheckDamaged(options_, damaged, entries_));
}

TEST_F(DamagedTable, IteratorStopsAtACorruptMiddleBlockAndStaysStopped) {
  const BlockHandle bad = layout_.data[3];
  const std::string damaged = Flip(good_, bad.offset + bad.size / 2);
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options_, damaged, &table));
  auto it = table->NewIterator(ReadOptions());
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    ASSERT_EQ(entries_[n].first, it->key().ToString());
  }
  EXPECT_GT(n, 0u);
  EXPECT_LT(n, entries_.size() / 2);
  const std::string expected = "bad block checksum at offset " + std::to_string(bad.offset);
  EXPECT_TRUE(IsCorruptionNaming(it->status(), expected));
  // The error is sticky: the iterator does not silently resume after the bad block.
  it->Seek(entries_.back().first);
  EXPECT_FALSE(it->Valid());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
  // Backward iteration stops at the same block.
  auto back = table->NewIterator(ReadOptions());
  size_t m = 0;
  for (back->SeekToLast(); back->Valid(); back->Prev()) m++;
  EXPECT_TRUE(IsCorruptionNaming(back->status(), expected));
  EXPECT_LT(n + m, entries_.size());
  // A fresh iterator can still read the healthy part after the damaged block.
  auto fresh = table->NewIterator(ReadOptions());
  fresh->Seek(entries_.back().first);
  ASSERT_TRUE(fresh->Valid());
  EXPECT_EQ(entries_.back().second, fresh->value().ToString());
}

TEST_F(DamagedTable, FlippedByteInIndexBlockFailsOpen) {
  std::unique_ptr<Table> table;
  Status s = OpenTable(options_, Flip(good_, layout_.index.offset + 1), &table);
  EXPECT_TRUE(IsCorruptionNaming(
      s, "bad block checksum at offset " + std::to_string(layout_.index.offset)));
  EXPECT_EQ(nullptr, table);
}

TEST_F(DamagedTable, FlippedByteInMetaBlocksFailsOpen) {
  for (const BlockHandle& h : {layout_.metaindex, layout_.filter, layout_.properties}) {
    std::unique_ptr<Table> table;
    // In the stored bytes and in the trailer (type byte, crc).
    for (uint64_t pos : {h.offset, h.offset + h.size, h.offset + h.size + 3}) {
      Status s = OpenTable(options_, Flip(good_, pos), &table);
      EXPECT_TRUE(IsCorruptionNaming(s, "at offset " + std::to_string(h.offset))) << pos;
    }
  }
}

TEST_F(DamagedTable, FlippedBytesInFooter) {
  const size_t footer = good_.size() - Footer::kEncodedLength;
  std::unique_ptr<Table> table;
  EXPECT_TRUE(IsCorruptionNaming(OpenTable(options_, Flip(good_, footer + 50), &table),
                                 "not an SST file (bad magic number)"));
  for (size_t off : {0, 5, 39, 40, 43, 44, 47}) {
    EXPECT_TRUE(IsCorruptionNaming(OpenTable(options_, Flip(good_, footer + off), &table),
                                   "bad footer checksum"))
        << off;
  }
}

TEST_F(DamagedTable, TruncatedFiles) {
  std::unique_ptr<Table> table;
  EXPECT_TRUE(IsCorruptionNaming(OpenTable(options_, "", &table), "file too short"));
  EXPECT_TRUE(IsCorruptionNaming(OpenTable(options_, good_.substr(0, 10), &table),
                                 "file too short to be an SST file (10 bytes)"));
  EXPECT_TRUE(IsCorruptionNaming(
      OpenTable(options_, good_.substr(0, Footer::kEncodedLength - 1), &table), "too short"));
  // Losing the tail misaligns the footer.
  for (size_t cut : {size_t{1}, size_t{7}, size_t{56}, good_.size() / 2}) {
    EXPECT_TRUE(IsCorruptionNaming(OpenTable(options_, good_.substr(0, good_.size() - cut), &table),
                                   "not an SST file (bad magic number)"))
        << cut;
  }
  // Losing bytes in the middle while keeping the footer: handles now reach past the end.
  const std::string holed = good_.substr(0, 1000) + good_.substr(good_.size() - 56);
  EXPECT_TRUE(IsCorruptionNaming(OpenTable(options_, holed, &table), "past end of file"));
  EXPECT_EQ(nullptr, table);
}

TEST_F(DamagedTable, FileShorterThanItsRecordedSizeIsTruncatedRead) {
  auto file = std::make_unique<test::StringSource>(good_.substr(0, good_.size() - 20));
  std::unique_ptr<Table> table;
  Status s = Table::Open(options_, std::move(file), good_.size(), kTestFname, &table);
  EXPECT_TRUE(IsCorruptionNaming(s, "truncated footer read"));
}

TEST(TableDamage, FileOfRandomBytesIsNotAnSstFile) {
  Random rnd(5);
  for (size_t size : {56, 57, 1000, 100000}) {
    std::string junk(size, '\0');
    for (char& c : junk) c = static_cast<char>(rnd.Uniform(256));
    std::unique_ptr<Table> table;
    EXPECT_TRUE(IsCorruptionNaming(OpenTable(TableOptions(), junk, &table),
                                   "not an SST file (bad magic number)"));
  }
}

TEST_F(DamagedTable, ChecksumOptionsAreHonouredWhenParanoidChecksAreOff) {
  // With paranoid_checks off and no cache, a data block is verified only if the read asks.
  TableOptions relaxed = options_;
  relaxed.compression = CompressionType::kNone;
  relaxed.paranoid_checks = false;
  std::string plain;
  ASSERT_OK(BuildTable(relaxed, entries_, &plain));
  const Layout layout = ReadLayout(plain);
  // Damage a byte of the value of the second entry, stored plainly in the first data block.
  std::string damaged = plain;
  const size_t value_pos = plain.find(entries_[1].second, layout.data[0].offset);
  ASSERT_NE(std::string::npos, value_pos);
  ASSERT_FALSE(entries_[1].second.empty());
  damaged[value_pos] ^= 0x20;
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(relaxed, damaged, &table));
  ReadOptions verify;
  verify.verify_checksums = true;
  int calls = 0;
  Status s =
      table->InternalGet(verify, entries_[1].first, [&](const Slice&, const Slice&) { calls++; });
  EXPECT_TRUE(IsCorruptionNaming(s, "bad block checksum at offset 0"));
  EXPECT_EQ(0, calls);
  // With paranoid_checks on (the default), the same read is verified without asking.
  relaxed.paranoid_checks = true;
  ASSERT_OK(OpenTable(relaxed, damaged, &table));
  s = table->InternalGet(ReadOptions(), entries_[1].first,
                         [&](const Slice&, const Slice&) { calls++; });
  EXPECT_TRUE(IsCorruptionNaming(s, "bad block checksum at offset 0"));
  EXPECT_EQ(0, calls);
}

// ---- Hand-crafted files: valid checksums, malformed contents. ----

namespace {

// Assembles an SST file block by block, with correct trailers and footer.
class Crafter {
 public:
  BlockHandle Add(const Slice& stored, uint8_t type = 0) {
    BlockHandle h(file_.size(), stored.size());
    file_.append(stored.data(), stored.size());
    file_.push_back(static_cast<char>(type));
    PutFixed32(&file_, BlockChecksum(stored, type));
    return h;
  }
  // Adds a properties block and a metaindex pointing at it, then the footer.
  std::string Finish(const BlockHandle& index, const TableProperties& props = TableProperties()) {
    const BlockHandle p = Add(EncodeTableProperties(props));
    BlockBuilder meta(1);
    std::string v;
    p.EncodeTo(&v);
    meta.Add(kPropertiesBlockName, v);
    return FinishWithMetaindex(index, meta.Finish().ToString());
  }
  std::string FinishWithMetaindex(const BlockHandle& index, const std::string& metaindex) {
    Footer f;
    f.metaindex_handle = Add(metaindex);
    f.index_handle = index;
    f.EncodeTo(&file_);
    return file_;
  }

 private:
  std::string file_;
};

std::string IndexBlock(const std::vector<std::pair<std::string, std::string>>& entries) {
  BlockBuilder b(1);
  for (const auto& [k, v] : entries) b.Add(k, v);
  return b.Finish().ToString();
}

std::string Encoded(const BlockHandle& h) {
  std::string s;
  h.EncodeTo(&s);
  return s;
}

std::string GoodDataBlock() {
  BlockBuilder b(16);
  b.Add(IKey("a", 1), "va");
  b.Add(IKey("b", 1), "vb");
  return b.Finish().ToString();
}

// Opens the crafted file, then expects Corruption mentioning `what` from a scan, a Get and
// VerifyChecksums.
void ExpectReadCorruption(const std::string& file, const std::string& what) {
  std::unique_ptr<Table> table;
  Status s = OpenTable(TableOptions(), file, &table);
  ASSERT_OK(s);
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(IsCorruptionNaming(it->status(), what));
  int calls = 0;
  s = table->InternalGet(ReadOptions(), IKey("a", 1), [&](const Slice&, const Slice&) { calls++; });
  EXPECT_TRUE(IsCorruptionNaming(s, what));
  EXPECT_EQ(0, calls);
  EXPECT_TRUE(IsCorruptionNaming(table->VerifyChecksums(), what));
}

}  // namespace

TEST(CraftedTable, WellFormedCraftedFileOpens) {
  // Guards the crafting helpers: without damage the file reads back.
  Crafter c;
  const BlockHandle data = c.Add(GoodDataBlock());
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  TableProperties props;
  props.num_entries = 2;
  props.num_data_blocks = 1;
  props.data_size = data.size + kBlockTrailerSize;
  const std::string file = c.Finish(index, props);
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(TableOptions(), file, &table));
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("va", it->value().ToString());
  EXPECT_OK(table->VerifyChecksums());
}

TEST(CraftedTable, IndexValueThatIsNotABlockHandle) {
  Crafter c;
  c.Add(GoodDataBlock());
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), "\xff\xff"}}));
  ExpectReadCorruption(c.Finish(index), "bad block handle in index block");
  Crafter trailing;
  const BlockHandle data = trailing.Add(GoodDataBlock());
  const BlockHandle index2 = trailing.Add(IndexBlock({{IKey("c", 0), Encoded(data) + "x"}}));
  ExpectReadCorruption(trailing.Finish(index2), "bad block handle in index block");
}

TEST(CraftedTable, IndexHandlePointingPastTheEnd) {
  Crafter c;
  c.Add(GoodDataBlock());
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(BlockHandle(1 << 20, 100))}}));
  ExpectReadCorruption(c.Finish(index), "block handle past end of file");
  Crafter huge;
  huge.Add(GoodDataBlock());
  const BlockHandle index2 =
      huge.Add(IndexBlock({{IKey("c", 0), Encoded(BlockHandle(0, ~uint64_t{0} - 3))}}));
  ExpectReadCorruption(huge.Finish(index2), "block handle past end of file");
}

TEST(CraftedTable, DataBlockWithMalformedVarint) {
  std::string block = std::string(5, '\xff');  // an entry header that never ends
  PutFixed32(&block, 0);
  PutFixed32(&block, 1);
  Crafter c;
  const BlockHandle data = c.Add(block);
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  ExpectReadCorruption(c.Finish(index), "malformed entry at offset 0 in block at offset 0");
}

TEST(CraftedTable, DataBlockWithRestartArrayOutsideTheBlock) {
  std::string block = GoodDataBlock();
  EncodeFixed32(block.data() + block.size() - 8, 5000);  // the only restart point
  Crafter c;
  const BlockHandle data = c.Add(block);
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  ExpectReadCorruption(c.Finish(index), "bad restart point 0");
  std::string block2 = GoodDataBlock();
  EncodeFixed32(block2.data() + block2.size() - 4, 0x7fffffff);  // restart count
  Crafter c2;
  const BlockHandle data2 = c2.Add(block2);
  const BlockHandle index2 = c2.Add(IndexBlock({{IKey("c", 0), Encoded(data2)}}));
  ExpectReadCorruption(c2.Finish(index2), "bad restart count");
}

TEST(CraftedTable, DataBlockKeyWithoutInternalKeyTrailer) {
  BlockBuilder b(16);
  b.Add("abc", "v");
  Crafter c;
  const BlockHandle data = c.Add(b.Finish());
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  ExpectReadCorruption(c.Finish(index), "malformed entry");
}

TEST(CraftedTable, UnknownCompressionTypeWithValidChecksum) {
  Crafter c;
  const BlockHandle data = c.Add(GoodDataBlock(), 9);
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  ExpectReadCorruption(c.Finish(index), "unknown compression type 9");
}

TEST(CraftedTable, CompressedDataThatDoesNotDecompress) {
  Crafter c;
  const BlockHandle data = c.Add("\x05garbage!", static_cast<uint8_t>(CompressionType::kZstd));
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  ExpectReadCorruption(c.Finish(index), "in block at offset 0");
}

TEST(CraftedTable, MalformedIndexBlockFailsOpen) {
  Crafter c;
  const BlockHandle index = c.Add("xy");
  std::unique_ptr<Table> table;
  EXPECT_TRUE(IsCorruptionNaming(OpenTable(TableOptions(), c.Finish(index), &table),
                                 "block too short (2 bytes) in block at offset 0"));
}

TEST(CraftedTable, IndexKeyWithoutTrailerIsCorruption) {
  Crafter c;
  const BlockHandle data = c.Add(GoodDataBlock());
  const BlockHandle index = c.Add(IndexBlock({{"c", Encoded(data)}}));
  ExpectReadCorruption(c.Finish(index), "malformed entry");
}

TEST(CraftedTable, MetaindexWithoutPropertiesFailsOpen) {
  Crafter c;
  const BlockHandle index = c.Add(IndexBlock({}));
  BlockBuilder meta(1);
  std::unique_ptr<Table> table;
  EXPECT_TRUE(IsCorruptionNaming(
      OpenTable(TableOptions(), c.FinishWithMetaindex(index, meta.Finish().ToString()), &table),
      "no properties block"));
}

TEST(CraftedTable, MetaindexWithBadFilterHandleFailsOpen) {
  Crafter c;
  const BlockHandle index = c.Add(IndexBlock({}));
  const BlockHandle props = c.Add(EncodeTableProperties(TableProperties()));
  BlockBuilder meta(1);
  meta.Add(kFilterBlockName, "\x80");
  meta.Add(kPropertiesBlockName, Encoded(props));
  std::unique_ptr<Table> table;
  EXPECT_TRUE(IsCorruptionNaming(
      OpenTable(TableOptions(), c.FinishWithMetaindex(index, meta.Finish().ToString()), &table),
      "bad filter.bloom handle in metaindex block"));
  Crafter c2;
  const BlockHandle index2 = c2.Add(IndexBlock({}));
  const BlockHandle props2 = c2.Add(EncodeTableProperties(TableProperties()));
  BlockBuilder meta2(1);
  meta2.Add(kFilterBlockName, Encoded(BlockHandle(1 << 30, 10)));
  meta2.Add(kPropertiesBlockName, Encoded(props2));
  EXPECT_TRUE(IsCorruptionNaming(
      OpenTable(TableOptions(), c2.FinishWithMetaindex(index2, meta2.Finish().ToString()), &table),
      "block handle past end of file"));
}

TEST(CraftedTable, MalformedPropertiesFailOpen) {
  Crafter c;
  const BlockHandle index = c.Add(IndexBlock({}));
  BlockBuilder pb(1);
  pb.Add("sluice.num.entries", "\xff");
  const BlockHandle props = c.Add(pb.Finish());
  BlockBuilder meta(1);
  meta.Add(kPropertiesBlockName, Encoded(props));
  std::unique_ptr<Table> table;
  EXPECT_TRUE(IsCorruptionNaming(
      OpenTable(TableOptions(), c.FinishWithMetaindex(index, meta.Finish().ToString()), &table),
      "bad value of property sluice.num.entries"));
}

TEST(CraftedTable, VerifyChecksumsFindsKeysOutOfOrder) {
  std::string out_of_order;
  {
    BlockBuilder b(16);
    b.Add(IKey("b", 1), "vb");
    b.Add(IKey("a", 1), "va");
    out_of_order = b.Finish().ToString();
  }
  Crafter c;
  const BlockHandle data = c.Add(out_of_order);
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  TableProperties props;
  props.num_entries = 2;
  props.num_data_blocks = 1;
  props.data_size = data.size + kBlockTrailerSize;
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(TableOptions(), c.Finish(index, props), &table));
  EXPECT_TRUE(
      IsCorruptionNaming(table->VerifyChecksums(), "keys out of order in block at offset 0"));
}

TEST(CraftedTable, VerifyChecksumsFindsPropertiesThatDisagree) {
  Crafter c;
  const BlockHandle data = c.Add(GoodDataBlock());
  const BlockHandle index = c.Add(IndexBlock({{IKey("c", 0), Encoded(data)}}));
  TableProperties props;
  props.num_entries = 3;  // there are 2
  props.num_data_blocks = 1;
  props.data_size = data.size + kBlockTrailerSize;
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(TableOptions(), c.Finish(index, props), &table));
  EXPECT_TRUE(IsCorruptionNaming(table->VerifyChecksums(), "disagree with the data blocks"));
}

TEST(CraftedTable, VerifyChecksumsFindsIndexKeyBelowBlockContents) {
  Crafter c;
  const BlockHandle data = c.Add(GoodDataBlock());
  const BlockHandle index = c.Add(IndexBlock({{IKey("a", 5), Encoded(data)}}));
  TableProperties props;
  props.num_entries = 2;
  props.num_data_blocks = 1;
  props.data_size = data.size + kBlockTrailerSize;
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(TableOptions(), c.Finish(index, props), &table));
  EXPECT_TRUE(IsCorruptionNaming(table->VerifyChecksums(), "index key below the last key"));
}

}  // namespace sluice
