// Tests of table/table_builder and table/table on well-formed files: round trips with every
// compression type, with and without block cache and bloom filter (forward and backward
// iteration, Seek to and between every key, InternalGet hits, misses and bloom exclusions),
// properties, the block cache (pinning, fill_cache, no stale blocks after reopening), the number
// of reads a point lookup costs, ApproximateOffsetOf, builder errors, and concurrent readers.
// Damaged files are covered by table_corruption_test.cc.

#include "table/table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "base/internal_key.h"
#include "support/test_util.h"
#include "table/block.h"
#include "table/compression.h"
#include "table/format.h"
#include "table/table_builder.h"
#include "table/table_test_util.h"
#include "util/cache.h"
#include "util/coding.h"
#include "util/random.h"

namespace sluice {

using test::BuildTable;
using test::KVs;
using test::MakeEntries;
using test::OpenTable;
using test::UserKey;

namespace {

// Collects what InternalGet reports.
struct GetResult {
  int calls = 0;
  std::string key, value;
};

Status Get(const Table& table, const Slice& internal_key, GetResult* r,
           const ReadOptions& ro = ReadOptions()) {
  *r = GetResult();
  return table.InternalGet(ro, internal_key, [r](const Slice& k, const Slice& v) {
    r->calls++;
    r->key = k.ToString();
    r->value = v.ToString();
  });
}

std::string SeekKey(const std::string& user_key, SequenceNumber seq = kMaxSequenceNumber) {
  return LookupKey(user_key, seq).internal_key().ToString();
}

}  // namespace

class TableRoundTrip : public ::testing::TestWithParam<std::tuple<CompressionType, bool, bool>> {
 protected:
  void SetUp() override {
    const auto [compression, use_cache, use_bloom] = GetParam();
    if (use_cache) cache_ = NewLRUCache(1 << 20);
    options_.compression = compression;
    options_.block_cache = cache_.get();
    options_.bloom_bits_per_key = use_bloom ? 10 : 0;
    options_.block_size = 1024;
    options_.block_restart_interval = 4;
    entries_ = MakeEntries(3000);
    ASSERT_OK(BuildTable(options_, entries_, &contents_));
    ASSERT_OK(OpenTable(options_, contents_, &table_));
  }
  void TearDown() override {
    table_.reset();
    cache_.reset();
  }

  std::shared_ptr<Cache> cache_;
  TableOptions options_;
  KVs entries_;
  std::string contents_;
  std::unique_ptr<Table> table_;
};

TEST_P(TableRoundTrip, ForwardIterationReturnsEveryEntryInOrder) {
  auto it = table_->NewIterator(ReadOptions());
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_LT(i, entries_.size());
    ASSERT_EQ(entries_[i].first, it->key().ToString()) << i;
    ASSERT_EQ(entries_[i].second, it->value().ToString()) << i;
  }
  EXPECT_EQ(entries_.size(), i);
  EXPECT_OK(it->status());
}

TEST_P(TableRoundTrip, BackwardIterationReturnsEveryEntryInReverse) {
  auto it = table_->NewIterator(ReadOptions());
  size_t i = entries_.size();
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    ASSERT_GT(i, 0u);
    i--;
    ASSERT_EQ(entries_[i].first, it->key().ToString()) << i;
    ASSERT_EQ(entries_[i].second, it->value().ToString()) << i;
  }
  EXPECT_EQ(0u, i);
  EXPECT_OK(it->status());
}

TEST_P(TableRoundTrip, SeekFindsEveryKeyAndLandsOnTheNextKeyBetweenKeys) {
  auto it = table_->NewIterator(ReadOptions());
  for (size_t i = 0; i < entries_.size(); i++) {
    it->Seek(entries_[i].first);
    ASSERT_TRUE(it->Valid()) << i;
    ASSERT_EQ(entries_[i].first, it->key().ToString());
    ASSERT_EQ(entries_[i].second, it->value().ToString());
  }
  // Between user keys: "key" + an odd number sorts between two stored user keys.
  for (int i = 1; i < 3000; i += 37) {
    char between[32];
    std::snprintf(between, sizeof(between), "key%07d", 2 * i - 1);
    it->Seek(SeekKey(between));
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(UserKey(i), ExtractUserKey(it->key()).ToString());
    it->Prev();
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(UserKey(i - 1), ExtractUserKey(it->key()).ToString());
  }
  it->Seek(SeekKey("a"));
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(entries_.front().first, it->key().ToString());
  it->Seek(SeekKey("zzz"));
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST_P(TableRoundTrip, IterationCanChangeDirectionAcrossBlocks) {
  auto it = table_->NewIterator(ReadOptions());
  it->Seek(entries_[1000].first);
  for (size_t i = 1000; i > 900; i--) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(entries_[i].first, it->key().ToString());
    it->Prev();
  }
  for (size_t i = 900; i < 1100; i++) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(entries_[i].first, it->key().ToString());
    it->Next();
  }
}

TEST_P(TableRoundTrip, InternalGetFindsEveryEntry) {
  GetResult r;
  for (const auto& [key, value] : entries_) {
    ASSERT_OK(Get(*table_, key, &r));
    ASSERT_EQ(1, r.calls);
    ASSERT_EQ(key, r.key);
    ASSERT_EQ(value, r.value);
  }
}

TEST_P(TableRoundTrip, InternalGetAtSnapshotFindsNewestVisibleVersion) {
  // User key 0 has versions (deletion, newer) and (value, older).
  ParsedInternalKey newer, older;
  ASSERT_TRUE(ParseInternalKey(entries_[0].first, &newer));
  ASSERT_TRUE(ParseInternalKey(entries_[1].first, &older));
  ASSERT_EQ(newer.user_key, older.user_key);
  GetResult r;
  ASSERT_OK(Get(*table_, SeekKey(UserKey(0)), &r));
  EXPECT_EQ(entries_[0].first, r.key);
  ASSERT_OK(Get(*table_, SeekKey(UserKey(0), newer.sequence - 1), &r));
  EXPECT_EQ(entries_[1].first, r.key);
  EXPECT_EQ(entries_[1].second, r.value);
}

TEST_P(TableRoundTrip, InternalGetForAbsentKeysReportsNoEntryOfThatKey) {
  GetResult r;
  for (int i = 0; i < 3000; i += 3) {
    char absent[32];
    std::snprintf(absent, sizeof(absent), "key%07d", 2 * i + 1);
    ASSERT_OK(Get(*table_, SeekKey(absent), &r));
    if (r.calls > 0) {
      EXPECT_NE(absent, ExtractUserKey(r.key).ToString());
    }
  }
  ASSERT_OK(Get(*table_, SeekKey("zzz"), &r));
  EXPECT_EQ(0, r.calls);
}

TEST_P(TableRoundTrip, PropertiesDescribeTheTable) {
  const TableProperties& p = table_->properties();
  EXPECT_EQ(entries_.size(), p.num_entries);
  uint64_t deletions = 0, key_bytes = 0, value_bytes = 0;
  SequenceNumber smallest = kMaxSequenceNumber, largest = 0;
  for (const auto& [k, v] : entries_) {
    ParsedInternalKey parsed;
    ASSERT_TRUE(ParseInternalKey(k, &parsed));
    if (parsed.type == kTypeDeletion) deletions++;
    smallest = std::min(smallest, parsed.sequence);
    largest = std::max(largest, parsed.sequence);
    key_bytes += k.size();
    value_bytes += v.size();
  }
  EXPECT_EQ(deletions, p.num_deletions);
  EXPECT_GT(p.num_deletions, 0u);
  EXPECT_EQ(key_bytes, p.raw_key_size);
  EXPECT_EQ(value_bytes, p.raw_value_size);
  EXPECT_EQ(smallest, p.smallest_seqno);
  EXPECT_EQ(largest, p.largest_seqno);
  EXPECT_EQ(static_cast<uint8_t>(std::get<0>(GetParam())), p.compression);
  EXPECT_GT(p.num_data_blocks, 10u);
  EXPECT_GT(p.index_size, 0u);
  EXPECT_EQ(std::get<2>(GetParam()), p.filter_size > 0);
  EXPECT_LT(p.data_size + p.index_size + p.filter_size, contents_.size());
  EXPECT_GT(p.creation_time, 1600000000u);
  EXPECT_EQ(test::kTestFname, table_->file_name());
}

TEST_P(TableRoundTrip, VerifyChecksumsAcceptsAGoodFile) { EXPECT_OK(table_->VerifyChecksums()); }

TEST_P(TableRoundTrip, ApproximateOffsetsGrowWithTheKey) {
  uint64_t prev = 0;
  for (size_t i = 0; i < entries_.size(); i += 50) {
    const uint64_t off = table_->ApproximateOffsetOf(entries_[i].first);
    EXPECT_GE(off, prev);
    prev = off;
  }
  EXPECT_EQ(0u, table_->ApproximateOffsetOf(entries_.front().first));
  EXPECT_GT(prev, table_->properties().data_size / 2);
  EXPECT_EQ(table_->properties().data_size, table_->ApproximateOffsetOf(SeekKey("zzz")));
}

INSTANTIATE_TEST_SUITE_P(
    AllCodecsCacheAndBloom, TableRoundTrip,
    ::testing::Combine(::testing::Values(CompressionType::kNone, CompressionType::kSnappy,
                                         CompressionType::kZstd, CompressionType::kLz4),
                       ::testing::Bool(), ::testing::Bool()),
    [](const ::testing::TestParamInfo<TableRoundTrip::ParamType>& info) {
      return std::string(CompressionTypeName(std::get<0>(info.param))) +
             (std::get<1>(info.param) ? "_Cache" : "_NoCache") +
             (std::get<2>(info.param) ? "_Bloom" : "_NoBloom");
    });

namespace {

// Compression type byte of the first data block (found through footer and index).
uint8_t FirstDataBlockType(const std::string& contents) {
  Footer footer;
  EXPECT_OK(footer.DecodeFrom(
      Slice(contents).ToStringView().substr(contents.size() - Footer::kEncodedLength),
      test::kTestFname));
  test::StringSource src(contents);
  BlockContents index;
  EXPECT_OK(ReadBlock(&src, test::kTestFname, contents.size(), BlockReadOptions(),
                      footer.index_handle, &index));
  Block block(std::move(index));
  auto it = block.NewIterator(DefaultInternalKeyComparator(), test::kTestFname, 0);
  it->SeekToFirst();
  EXPECT_TRUE(it->Valid());
  Slice v = it->value();
  BlockHandle h;
  EXPECT_OK(h.DecodeFrom(&v));
  return static_cast<uint8_t>(contents[h.offset + h.size]);
}

}  // namespace

TEST(TableBuilder, CompressibleBlocksAreStoredCompressed) {
  const KVs entries = MakeEntries(2000);
  std::string plain;
  TableOptions options;
  options.compression = CompressionType::kNone;
  ASSERT_OK(BuildTable(options, entries, &plain));
  for (CompressionType type :
       {CompressionType::kSnappy, CompressionType::kZstd, CompressionType::kLz4}) {
    options.compression = type;
    std::string packed;
    ASSERT_OK(BuildTable(options, entries, &packed));
    EXPECT_LT(packed.size(), plain.size() * 3 / 4) << CompressionTypeName(type);
    EXPECT_EQ(static_cast<uint8_t>(type), FirstDataBlockType(packed));
  }
  EXPECT_EQ(0, FirstDataBlockType(plain));
}

TEST(TableBuilder, IncompressibleBlocksAreStoredUncompressed) {
  const KVs entries = MakeEntries(2000, /*random_values=*/true);
  for (CompressionType type :
       {CompressionType::kSnappy, CompressionType::kZstd, CompressionType::kLz4}) {
    TableOptions options;
    options.compression = type;
    std::string contents;
    ASSERT_OK(BuildTable(options, entries, &contents));
    EXPECT_EQ(0, FirstDataBlockType(contents)) << CompressionTypeName(type);
    std::unique_ptr<Table> table;
    ASSERT_OK(OpenTable(options, contents, &table));
    EXPECT_OK(table->VerifyChecksums());
  }
}

TEST(TableBuilder, EmptyTableOpensAndHasNoEntries) {
  TableOptions options;
  std::string contents;
  ASSERT_OK(BuildTable(options, {}, &contents));
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, contents, &table));
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek(SeekKey("a"));
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
  GetResult r;
  EXPECT_OK(Get(*table, SeekKey("a"), &r));
  EXPECT_EQ(0, r.calls);
  EXPECT_EQ(0u, table->properties().num_entries);
  EXPECT_EQ(0u, table->properties().num_data_blocks);
  EXPECT_OK(table->VerifyChecksums());
}

TEST(TableBuilder, ValuesLargerThanABlockRoundTrip) {
  KVs entries;
  for (int i = 0; i < 20; i++) {
    std::string key;
    AppendInternalKey(&key, ParsedInternalKey(UserKey(i), 100, kTypeValue));
    entries.emplace_back(
        key, std::string(static_cast<size_t>(10000 + i * 1000), static_cast<char>('A' + i)));
  }
  TableOptions options;
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, contents, &table));
  EXPECT_EQ(20u, table->properties().num_data_blocks);
  GetResult r;
  for (const auto& [k, v] : entries) {
    ASSERT_OK(Get(*table, k, &r));
    ASSERT_EQ(v, r.value);
  }
}

TEST(TableBuilder, IndexUsesShortenedSeparators) {
  // User keys differ in their first byte by 2 and share a long tail: every separator can be
  // cut down to one byte plus the 8-byte trailer.
  KVs entries;
  for (int i = 0; i < 100; i++) {
    std::string user_key = std::string(1, static_cast<char>(2 * i + 1)) + std::string(200, 'x');
    std::string key;
    AppendInternalKey(&key, ParsedInternalKey(user_key, 5, kTypeValue));
    entries.emplace_back(key, std::string(300, 'v'));
  }
  TableOptions options;
  options.block_size = 256;  // one entry per block
  options.compression = CompressionType::kNone;
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, contents, &table));
  EXPECT_EQ(100u, table->properties().num_data_blocks);
  EXPECT_LT(table->properties().index_size, 100u * 30);
  GetResult r;
  for (const auto& [k, v] : entries) {
    ASSERT_OK(Get(*table, k, &r));
    ASSERT_EQ(k, r.key);
  }
  EXPECT_OK(table->VerifyChecksums());
  // The index walk sees one separator per block, each >= its block's key, in order.
  size_t blocks = 0;
  uint64_t next_offset = 0;
  ASSERT_OK(table->ForEachIndexEntry([&](const Slice& separator, const BlockHandle& handle) {
    ASSERT_LT(blocks, entries.size());
    EXPECT_GE(separator.compare(Slice(entries[blocks].first)), 0);
    EXPECT_LT(separator.size(), 20u);
    EXPECT_EQ(next_offset, handle.offset);
    next_offset = handle.offset + handle.size + kBlockTrailerSize;
    blocks++;
  }));
  EXPECT_EQ(100u, blocks);
}

TEST(TableBuilder, OutOfOrderKeysAreRejected) {
  test::StringSink sink;
  TableBuilder builder(TableOptions(), &sink);
  std::string a, b;
  AppendInternalKey(&a, ParsedInternalKey("b", 5, kTypeValue));
  AppendInternalKey(&b, ParsedInternalKey("a", 5, kTypeValue));
  builder.Add(a, "1");
  builder.Add(b, "2");
  EXPECT_TRUE(builder.status().IsInvalidArgument());
  builder.Add(a, "again");  // ignored after the error
  EXPECT_EQ(1u, builder.NumEntries());
  EXPECT_TRUE(builder.Finish().IsInvalidArgument());
}

TEST(TableBuilder, DuplicateAndMalformedKeysAreRejected) {
  {
    test::StringSink sink;
    TableBuilder builder(TableOptions(), &sink);
    std::string a;
    AppendInternalKey(&a, ParsedInternalKey("a", 5, kTypeValue));
    builder.Add(a, "1");
    builder.Add(a, "1");
    EXPECT_TRUE(builder.status().IsInvalidArgument());
    builder.Abandon();
  }
  {
    test::StringSink sink;
    TableBuilder builder(TableOptions(), &sink);
    builder.Add("short", "1");
    EXPECT_TRUE(builder.status().IsInvalidArgument());
    builder.Abandon();
    EXPECT_EQ(0u, sink.contents().size());
  }
}

TEST(TableBuilder, WriteErrorsAreReported) {
  class FailingFile final : public WritableFile {
   public:
    Status Append(const Slice& data) override {
      if (written_ + data.size() > 3000) return Status::IOError("disk full");
      written_ += data.size();
      return Status::OK();
    }
    Status Flush() override { return Status::OK(); }
    Status Sync() override { return Status::OK(); }
    Status Close() override { return Status::OK(); }

   private:
    size_t written_ = 0;
  };
  FailingFile file;
  TableOptions options;
  options.compression = CompressionType::kNone;
  TableBuilder builder(options, &file);
  for (const auto& [k, v] : MakeEntries(500)) builder.Add(k, v);
  EXPECT_TRUE(builder.status().IsIOError());
  EXPECT_TRUE(builder.Finish().IsIOError());
}

TEST(TableBuilder, AbandonWritesNothingMore) {
  test::StringSink sink;
  TableBuilder builder(TableOptions(), &sink);
  const KVs entries = MakeEntries(10);
  for (const auto& [k, v] : entries) builder.Add(k, v);
  const size_t before = sink.contents().size();
  builder.Abandon();
  EXPECT_EQ(before, sink.contents().size());
  EXPECT_EQ(entries.size(), builder.NumEntries());
}

TEST(Table, BloomExcludedLookupReadsNoDataBlock) {
  TableOptions options;
  std::string contents;
  const KVs entries = MakeEntries(1000);
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  test::StringSource* source = nullptr;
  ASSERT_OK(OpenTable(options, contents, &table, &source));
  int excluded = 0;
  for (int i = 0; i < 1000; i++) {
    const std::string absent = "absent" + std::to_string(i);
    if (table->KeyMayMatch(absent)) continue;
    excluded++;
    const uint64_t reads = source->reads();
    GetResult r;
    ASSERT_OK(Get(*table, SeekKey(absent), &r));
    EXPECT_EQ(0, r.calls);
    EXPECT_EQ(reads, source->reads());
  }
  EXPECT_GT(excluded, 950);
  EXPECT_TRUE(table->KeyMayMatch(UserKey(17)));
}

TEST(Table, PointLookupReadsAtMostOneDataBlock) {
  TableOptions options;
  options.block_size = 512;
  const KVs entries = MakeEntries(2000);
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  test::StringSource* source = nullptr;
  ASSERT_OK(OpenTable(options, contents, &table, &source));
  for (size_t i = 0; i < entries.size(); i += 13) {
    const uint64_t reads = source->reads();
    GetResult r;
    ASSERT_OK(Get(*table, entries[i].first, &r));
    EXPECT_EQ(reads + 1, source->reads());
  }
}

TEST(Table, BlockCacheServesRepeatedReadsWithoutIo) {
  auto cache = NewLRUCache(8 << 20);
  TableOptions options;
  options.block_cache = cache.get();
  const KVs entries = MakeEntries(2000);
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  test::StringSource* source = nullptr;
  ASSERT_OK(OpenTable(options, contents, &table, &source));
  GetResult r;
  ASSERT_OK(Get(*table, entries[500].first, &r));
  const uint64_t reads = source->reads();
  const uint64_t hits = cache->Hits();
  ASSERT_OK(Get(*table, entries[500].first, &r));
  EXPECT_EQ(entries[500].second, r.value);
  EXPECT_EQ(reads, source->reads());
  EXPECT_EQ(hits + 1, cache->Hits());

  // A full scan loads every block once; a second scan does no I/O at all.
  auto it = table->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  const uint64_t after_first_scan = source->reads();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
  }
  EXPECT_EQ(after_first_scan, source->reads());
  EXPECT_GT(cache->TotalCharge(), table->properties().raw_value_size);
  it.reset();
  table.reset();
}

TEST(Table, FillCacheFalseLeavesTheCacheUntouched) {
  auto cache = NewLRUCache(8 << 20);
  TableOptions options;
  options.block_cache = cache.get();
  std::string contents;
  ASSERT_OK(BuildTable(options, MakeEntries(1000), &contents));
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, contents, &table));
  ReadOptions ro;
  ro.fill_cache = false;
  auto it = table->NewIterator(ro);
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) n++;
  EXPECT_EQ(table->properties().num_entries, n);
  EXPECT_EQ(0u, cache->TotalCharge());
}

TEST(Table, IteratorPinsCachedBlocksUntilDestroyed) {
  auto cache = NewLRUCache(1);  // every unpinned block is evicted at once
  TableOptions options;
  options.block_cache = cache.get();
  const KVs entries = MakeEntries(1000);
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, contents, &table));
  auto it = table->NewIterator(ReadOptions());
  it->Seek(entries[300].first);
  ASSERT_TRUE(it->Valid());
  EXPECT_GT(cache->TotalCharge(), 1u);  // the current block is pinned despite the capacity
  // Use the cache heavily from elsewhere; the iterator's block must stay intact.
  GetResult r;
  for (size_t i = 0; i < entries.size(); i += 7) {
    ASSERT_OK(Get(*table, entries[i].first, &r));
  }
  for (size_t i = 300; i < entries.size(); i++) {
    ASSERT_TRUE(it->Valid());
    ASSERT_EQ(entries[i].first, it->key().ToString());
    ASSERT_EQ(entries[i].second, it->value().ToString());
    it->Next();
  }
  it.reset();
  EXPECT_EQ(0u, cache->TotalCharge());
}

TEST(Table, ReopenedFileNeverSeesStaleCachedBlocks) {
  auto cache = NewLRUCache(8 << 20);
  TableOptions options;
  options.block_cache = cache.get();
  options.compression = CompressionType::kNone;
  // Two files with the same layout (same key and value sizes) but different values.
  KVs first = MakeEntries(500), second = first;
  for (auto& [k, v] : second) {
    for (char& c : v) c = c == 'z' ? 'a' : static_cast<char>(c + 1);
  }
  std::string a, b;
  ASSERT_OK(BuildTable(options, first, &a));
  ASSERT_OK(BuildTable(options, second, &b));
  ASSERT_EQ(a.size(), b.size());
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, a, &table));
  GetResult r;
  for (const auto& [k, v] : first) ASSERT_OK(Get(*table, k, &r));
  table.reset();
  ASSERT_OK(OpenTable(options, b, &table));  // same name, new contents
  for (const auto& [k, v] : second) {
    ASSERT_OK(Get(*table, k, &r));
    ASSERT_EQ(v, r.value);
  }
}

// A file that returns views (a memory-mapped one): uncompressed blocks are read in place and
// stay out of the block cache (which may outlive the file); compressed ones are uncompressed
// into the cache as usual. Everything reads back the same either way.
TEST(Table, ViewsOfUncompressedBlocksBypassTheCache) {
  for (CompressionType type : {CompressionType::kNone, CompressionType::kSnappy}) {
    SCOPED_TRACE(static_cast<int>(type));
    auto cache = NewLRUCache(8 << 20);
    TableOptions options;
    options.block_cache = cache.get();
    options.compression = type;
    const KVs entries = MakeEntries(2000);
    std::string contents;
    ASSERT_OK(BuildTable(options, entries, &contents));
    std::unique_ptr<Table> table;
    test::StringSource* source = nullptr;
    ASSERT_OK(OpenTable(options, contents, &table, &source, test::kTestFname, /*views=*/true));
    auto it = table->NewIterator(ReadOptions());
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_LT(i, entries.size());
      ASSERT_EQ(entries[i].first, it->key().ToString());
      ASSERT_EQ(entries[i].second, it->value().ToString());
    }
    ASSERT_OK(it->status());
    EXPECT_EQ(entries.size(), i);
    GetResult r;
    ASSERT_OK(Get(*table, entries[777].first, &r));
    EXPECT_EQ(entries[777].second, r.value);
    if (type == CompressionType::kNone) {
      EXPECT_EQ(0u, cache->TotalCharge());
      // Every read of a block goes to the file again (a view costs no copy).
      const uint64_t reads = source->reads();
      ASSERT_OK(Get(*table, entries[777].first, &r));
      EXPECT_EQ(reads + 1, source->reads());
    } else {
      EXPECT_GT(cache->TotalCharge(), table->properties().raw_value_size);
    }
    it.reset();
    table.reset();
  }
}

TEST(Table, IoErrorsArePropagated) {
  TableOptions options;
  const KVs entries = MakeEntries(500);
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  test::StringSource* source = nullptr;
  ASSERT_OK(OpenTable(options, contents, &table, &source));
  source->set_fail(true);
  GetResult r;
  EXPECT_TRUE(Get(*table, entries[10].first, &r).IsIOError());
  EXPECT_EQ(0, r.calls);
  auto it = table->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsIOError());
  EXPECT_TRUE(table->VerifyChecksums().IsIOError());

  auto file = std::make_unique<test::StringSource>(contents);
  file->set_fail(true);
  EXPECT_TRUE(
      Table::Open(options, std::move(file), contents.size(), test::kTestFname, &table).IsIOError());
  EXPECT_EQ(nullptr, table);
}

TEST(Table, ConcurrentReadersShareOneTableAndCache) {
  auto cache = NewLRUCache(64 << 10, 2);  // small: constant eviction
  TableOptions options;
  options.block_cache = cache.get();
  options.block_size = 512;
  const KVs entries = MakeEntries(3000);
  std::string contents;
  ASSERT_OK(BuildTable(options, entries, &contents));
  std::unique_ptr<Table> table;
  ASSERT_OK(OpenTable(options, contents, &table));
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; t++) {
    threads.emplace_back([&, t] {
      Random rnd(77 + t);
      for (int op = 0; op < 400; op++) {
        const size_t i = rnd.Uniform(entries.size());
        if (op % 4 == 0) {
          auto it = table->NewIterator(ReadOptions());
          it->Seek(entries[i].first);
          for (size_t j = i; j < std::min(i + 40, entries.size()); j++) {
            if (!it->Valid() || it->key() != Slice(entries[j].first) ||
                it->value() != Slice(entries[j].second)) {
              failures++;
              break;
            }
            it->Next();
          }
        } else {
          GetResult r;
          if (!Get(*table, entries[i].first, &r).ok() || r.value != entries[i].second) failures++;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(0, failures.load());
}

}  // namespace sluice
