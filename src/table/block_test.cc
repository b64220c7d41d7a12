// Tests of table/block_builder and table/block: round trips (forward, backward, Seek to and
// between every key) at several restart intervals, the size estimate, and that every kind of
// malformed block (bad restart count or restart points, malformed varints, lengths past the end,
// impossible shared prefixes, short keys) gives a Corruption naming file and block offset,
// never a crash. Random damage is also fed to the iterator (run under ASan to be meaningful).

#include "table/block.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "support/test_util.h"
#include "table/block_builder.h"
#include "util/coding.h"
#include "util/comparator.h"
#include "util/random.h"

namespace sluice {

namespace {

const std::string kFname = "/db/000007.sst";
constexpr uint64_t kOffset = 4096;

std::vector<std::pair<std::string, std::string>> MakeEntries(int n) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < n; i++) {
    char key[32];
    std::snprintf(key, sizeof(key), "key%06d", i * 2);  // even numbers: odd ones fall between
    entries.emplace_back(key,
                         std::string(static_cast<size_t>(i % 37), static_cast<char>('a' + i % 26)));
  }
  return entries;
}

std::string Build(const std::vector<std::pair<std::string, std::string>>& entries,
                  int restart_interval) {
  BlockBuilder builder(restart_interval);
  for (const auto& [k, v] : entries) builder.Add(k, v);
  return builder.Finish().ToString();
}

std::unique_ptr<Block> MakeBlock(std::string contents) {
  return std::make_unique<Block>(BlockContents{std::move(contents)});
}

std::unique_ptr<InternalIterator> Iter(const Block& block, size_t min_key_size = 0) {
  return block.NewIterator(BytewiseComparator(), kFname, kOffset, min_key_size);
}

// An iterator that owns the block it reads (for one-line corruption checks).
std::unique_ptr<InternalIterator> OwningIter(std::string contents, size_t min_key_size = 0) {
  auto block = std::make_shared<Block>(BlockContents{std::move(contents)});
  auto it = Iter(*block, min_key_size);
  it->RegisterCleanup([block] {});
  return it;
}

void ExpectCorruption(const Status& s, const std::string& what) {
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(what)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("in block at offset 4096")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(kFname)) << s.ToString();
}

// A block whose entry area is `entries` (raw bytes) with the given restart points.
std::string RawBlock(const std::string& entries, const std::vector<uint32_t>& restarts) {
  std::string b = entries;
  for (uint32_t r : restarts) PutFixed32(&b, r);
  PutFixed32(&b, static_cast<uint32_t>(restarts.size()));
  return b;
}

std::string Entry(uint32_t shared, uint32_t non_shared, uint32_t value_len,
                  const std::string& rest) {
  std::string e;
  PutVarint32(&e, shared);
  PutVarint32(&e, non_shared);
  PutVarint32(&e, value_len);
  return e + rest;
}

}  // namespace

TEST(Block, EmptyBlockHasNoEntries) {
  BlockBuilder builder(16);
  EXPECT_TRUE(builder.empty());
  auto block = MakeBlock(builder.Finish().ToString());
  ASSERT_TRUE(block->ok());
  auto it = Iter(*block);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  it->Seek("anything");
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST(Block, ForwardAndBackwardIterationVisitEveryEntryAtEveryRestartInterval) {
  const auto entries = MakeEntries(500);
  for (int interval : {1, 2, 3, 16, 1000}) {
    auto block = MakeBlock(Build(entries, interval));
    ASSERT_TRUE(block->ok());
    auto it = Iter(*block);
    size_t i = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
      ASSERT_LT(i, entries.size());
      ASSERT_EQ(entries[i].first, it->key().ToString());
      ASSERT_EQ(entries[i].second, it->value().ToString());
    }
    EXPECT_EQ(entries.size(), i) << interval;
    i = entries.size();
    for (it->SeekToLast(); it->Valid(); it->Prev()) {
      ASSERT_GT(i, 0u);
      i--;
      ASSERT_EQ(entries[i].first, it->key().ToString()) << interval;
      ASSERT_EQ(entries[i].second, it->value().ToString());
    }
    EXPECT_EQ(0u, i);
    EXPECT_OK(it->status());
  }
}

// Prev keeps the entries it decodes from a restart point and steps back through them: a random
// walk of Next, Prev and Seek must agree with the entry list at every step, whatever mix of
// directions reaches an entry (inside an interval, at its restart point, across intervals).
TEST(Block, RandomWalkOfNextPrevAndSeekAgreesWithTheEntries) {
  const auto entries = MakeEntries(400);
  Random rnd(301);
  for (int interval : {1, 2, 5, 16, 1000}) {
    auto block = MakeBlock(Build(entries, interval));
    ASSERT_TRUE(block->ok());
    auto it = Iter(*block);
    long pos = -1;  // the entry the iterator should be at; -1 or entries.size(): not valid
    const long n = static_cast<long>(entries.size());
    for (int step = 0; step < 20000; step++) {
      const uint32_t op = rnd.Uniform(100);
      if (pos < 0 || pos >= n || op < 3) {
        // Reposition: at a key, or between two keys.
        const long target = static_cast<long>(rnd.Uniform(static_cast<uint32_t>(n)));
        std::string key = entries[static_cast<size_t>(target)].first;
        const bool between = rnd.OneIn(2);
        if (between) key += "x";  // sorts after this key, before the next
        it->Seek(key);
        pos = between ? target + 1 : target;
      } else if (op < 50) {
        it->Next();
        pos++;
      } else {
        it->Prev();
        pos--;
      }
      if (pos < 0 || pos >= n) {
        ASSERT_FALSE(it->Valid()) << interval << " step " << step;
        continue;
      }
      ASSERT_TRUE(it->Valid()) << interval << " step " << step;
      ASSERT_EQ(entries[static_cast<size_t>(pos)].first, it->key().ToString()) << interval;
      ASSERT_EQ(entries[static_cast<size_t>(pos)].second, it->value().ToString()) << interval;
    }
    EXPECT_OK(it->status());
  }
}

TEST(Block, SeekFindsEveryKeyAndTheNextKeyBetweenKeys) {
  const auto entries = MakeEntries(300);
  for (int interval : {1, 4, 16}) {
    auto block = MakeBlock(Build(entries, interval));
    auto it = Iter(*block);
    for (size_t i = 0; i < entries.size(); i++) {
      it->Seek(entries[i].first);
      ASSERT_TRUE(it->Valid());
      ASSERT_EQ(entries[i].first, it->key().ToString());
      // Between key i-1 and key i (the odd number) lands on key i.
      char between[32];
      std::snprintf(between, sizeof(between), "key%06d", static_cast<int>(i) * 2 - 1);
      if (i > 0) {
        it->Seek(between);
        ASSERT_TRUE(it->Valid());
        ASSERT_EQ(entries[i].first, it->key().ToString());
        it->Prev();
        ASSERT_TRUE(it->Valid());
        ASSERT_EQ(entries[i - 1].first, it->key().ToString());
      }
    }
    it->Seek("");
    ASSERT_TRUE(it->Valid());
    EXPECT_EQ(entries.front().first, it->key().ToString());
    it->Seek("key999999");
    EXPECT_FALSE(it->Valid());
    EXPECT_OK(it->status());
  }
}

TEST(Block, PrevFromFirstEntryInvalidatesAndNextFromLastToo) {
  auto block = MakeBlock(Build(MakeEntries(40), 4));
  auto it = Iter(*block);
  it->SeekToFirst();
  it->Prev();
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  it->Next();
  EXPECT_FALSE(it->Valid());
  EXPECT_OK(it->status());
}

TEST(Block, LongKeysAndValuesUseMultiByteVarints) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (int i = 0; i < 20; i++) {
    entries.emplace_back(std::string(300, 'k') + static_cast<char>('a' + i),
                         std::string(static_cast<size_t>(200 * i), 'v'));
  }
  auto block = MakeBlock(Build(entries, 3));
  auto it = Iter(*block);
  size_t i = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), i++) {
    ASSERT_EQ(entries[i].first, it->key().ToString());
    ASSERT_EQ(entries[i].second, it->value().ToString());
  }
  EXPECT_EQ(entries.size(), i);
  it->Seek(entries[13].first);
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ(entries[13].second, it->value().ToString());
}

TEST(BlockBuilder, PrefixCompressionSharesCommonPrefixes) {
  std::vector<std::pair<std::string, std::string>> entries;
  size_t raw = 0;
  for (int i = 0; i < 100; i++) {
    entries.emplace_back(std::string(50, 'p') + std::to_string(1000 + i), "");
    raw += entries.back().first.size();
  }
  EXPECT_LT(Build(entries, 16).size(), raw / 3);
}

TEST(BlockBuilder, SizeEstimateMatchesFinishedSizeAndResetStartsOver) {
  BlockBuilder builder(4);
  const auto entries = MakeEntries(50);
  for (const auto& [k, v] : entries) {
    builder.Add(k, v);
    EXPECT_FALSE(builder.empty());
  }
  const size_t estimate = builder.CurrentSizeEstimate();
  EXPECT_EQ(estimate, builder.Finish().size());
  EXPECT_EQ(estimate, builder.CurrentSizeEstimate());
  builder.Reset();
  EXPECT_TRUE(builder.empty());
  EXPECT_EQ(8u, builder.CurrentSizeEstimate());  // one restart point + the count
  builder.Add("x", "y");
  auto block = MakeBlock(builder.Finish().ToString());
  auto it = Iter(*block);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("x", it->key().ToString());
  it->Next();
  EXPECT_FALSE(it->Valid());
}

TEST(BlockCorruption, TooShortBlock) {
  auto block = MakeBlock("abc");
  EXPECT_FALSE(block->ok());
  auto it = Iter(*block);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "block too short");
}

TEST(BlockCorruption, RestartCountLargerThanBlock) {
  std::string b = Build(MakeEntries(10), 2);
  EncodeFixed32(b.data() + b.size() - 4, 1000000);
  auto it = OwningIter(b);
  ExpectCorruption(it->status(), "bad restart count 1000000");
  EncodeFixed32(b.data() + b.size() - 4, 0xffffffffu);
  ExpectCorruption(OwningIter(b)->status(), "bad restart count");
}

TEST(BlockCorruption, ZeroRestartCount) {
  ExpectCorruption(OwningIter(RawBlock("", {}))->status(), "bad restart count 0");
}

TEST(BlockCorruption, RestartPointOutsideTheEntries) {
  const std::string e = Entry(0, 1, 1, "ab");
  ExpectCorruption(OwningIter(RawBlock(e, {0, 50}))->status(), "bad restart point 1");
  ExpectCorruption(OwningIter(RawBlock(e, {0, 5}))->status(), "bad restart point 1");
  ExpectCorruption(OwningIter(RawBlock(e, {0, 0xfffffff0u}))->status(), "bad restart point 1");
}

TEST(BlockCorruption, RestartPointsOutOfOrderOrNotStartingAtZero) {
  const std::string e = Entry(0, 1, 1, "ab") + Entry(0, 1, 1, "cd") + Entry(0, 1, 1, "ef");
  ExpectCorruption(OwningIter(RawBlock(e, {0, 10, 5}))->status(), "bad restart point 2");
  ExpectCorruption(OwningIter(RawBlock(e, {5, 10}))->status(), "bad restart point 0");
  ExpectCorruption(OwningIter(RawBlock(e, {0, 5, 5}))->status(), "bad restart point 2");
}

TEST(BlockCorruption, MalformedVarintInEntry) {
  const std::string entries = Entry(0, 1, 1, "ab") + std::string(6, '\xff');
  auto block = MakeBlock(RawBlock(entries, {0}));
  ASSERT_TRUE(block->ok());
  auto it = Iter(*block);
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("a", it->key().ToString());
  it->Next();
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "malformed entry at offset 5");
}

TEST(BlockCorruption, LengthsPastTheEndOfTheEntries) {
  // The value length reaches into the restart array: must not be accepted.
  auto it = OwningIter(RawBlock(Entry(0, 1, 6, "ab"), {0}));
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "malformed entry at offset 0");
  // Huge lengths whose sum overflows 32 bits.
  auto it2 = OwningIter(RawBlock(Entry(0, 0xffffffffu, 0xffffffffu, "ab"), {0}));
  it2->SeekToFirst();
  EXPECT_FALSE(it2->Valid());
  ExpectCorruption(it2->status(), "malformed entry");
  // Truncated header.
  auto it3 = OwningIter(RawBlock(std::string("\x00\x01", 2), {0}));
  it3->SeekToLast();
  EXPECT_FALSE(it3->Valid());
  ExpectCorruption(it3->status(), "malformed entry");
}

TEST(BlockCorruption, SharedPrefixLongerThanPreviousKey) {
  const std::string entries = Entry(0, 2, 0, "ab") + Entry(5, 1, 0, "c");
  auto it = OwningIter(RawBlock(entries, {0}));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  it->Next();
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "malformed entry at offset 5");
}

TEST(BlockCorruption, RestartPointWithSharedPrefixIsCaughtBySeek) {
  const std::string entries = Entry(0, 2, 0, "ab") + Entry(1, 1, 0, "c") + Entry(1, 1, 0, "d");
  auto it = OwningIter(RawBlock(entries, {0, 5, 9}));
  it->Seek("ac");
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "malformed entry at restart point");
}

// Found by tests/fuzz/table_reader_fuzzer: forward iteration never looked at the restart
// points, so it accepted blocks that Prev, SeekToLast and Seek (which decode from restart
// points) reject, and the two directions disagreed on the same block.
TEST(BlockCorruption, ForwardIterationChecksRestartPoints) {
  // The entry at restart point 1 shares a prefix with its predecessor.
  const std::string entries = Entry(0, 2, 0, "ab") + Entry(1, 1, 0, "c") + Entry(1, 1, 0, "d");
  auto it = OwningIter(RawBlock(entries, {0, 5}));
  it->SeekToFirst();
  ASSERT_TRUE(it->Valid());
  it->Next();
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "malformed entry at offset 5");
  auto back = OwningIter(RawBlock(entries, {0, 5}));
  back->SeekToLast();
  EXPECT_FALSE(back->Valid());
  EXPECT_TRUE(back->status().IsCorruption());

  // Restart point 1 lies inside the first entry.
  const std::string whole = Entry(0, 2, 0, "ab") + Entry(0, 2, 0, "cd");
  auto inside = OwningIter(RawBlock(whole, {0, 2}));
  inside->SeekToFirst();
  ASSERT_TRUE(inside->Valid());
  inside->Next();
  EXPECT_FALSE(inside->Valid());
  ExpectCorruption(inside->status(), "restart point 1 (offset 2) is inside an entry");

  // Restart point 1 lies inside the last entry: found when forward iteration reaches the end.
  auto last = OwningIter(RawBlock(whole, {0, 7}));
  last->SeekToFirst();
  ASSERT_TRUE(last->Valid());
  last->Next();
  ASSERT_TRUE(last->Valid());
  last->Next();
  EXPECT_FALSE(last->Valid());
  ExpectCorruption(last->status(), "restart point 1 (offset 7) is inside an entry");

  // Well-formed blocks still iterate completely in both directions.
  auto good = OwningIter(RawBlock(whole, {0, 5}));
  int n = 0;
  for (good->SeekToFirst(); good->Valid(); good->Next()) n++;
  for (good->SeekToLast(); good->Valid(); good->Prev()) n++;
  EXPECT_EQ(4, n);
  EXPECT_OK(good->status());
}

TEST(BlockCorruption, KeysShorterThanMinimumAreRejected) {
  auto block = MakeBlock(Build({{"short", "v"}}, 16));
  auto it = Iter(*block, /*min_key_size=*/8);
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  ExpectCorruption(it->status(), "malformed entry");
  auto it2 = OwningIter(Build({{"a", ""}, {"b", ""}, {"c", ""}}, 1), 8);
  it2->Seek("b");
  EXPECT_FALSE(it2->Valid());
  ExpectCorruption(it2->status(), "malformed entry at restart point");
}

TEST(BlockCorruption, ErrorsAreSticky) {
  const std::string entries = Entry(0, 1, 0, "a") + std::string(4, '\xff');
  auto it = OwningIter(RawBlock(entries, {0}));
  it->SeekToFirst();
  it->Next();
  ASSERT_TRUE(it->status().IsCorruption());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  it->Seek("a");
  EXPECT_FALSE(it->Valid());
  it->SeekToLast();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsCorruption());
}

TEST(BlockCorruption, RandomDamageNeverCrashes) {
  const std::string good = Build(MakeEntries(200), 8);
  Random rnd(2024);
  int corrupt = 0;
  for (int trial = 0; trial < 3000; trial++) {
    std::string b = good;
    const int flips = 1 + static_cast<int>(rnd.Uniform(4));
    for (int f = 0; f < flips; f++) {
      const size_t pos = rnd.Uniform(b.size());
      b[pos] = static_cast<char>(rnd.Uniform(256));
    }
    if (rnd.OneIn(10)) b.resize(rnd.Uniform(b.size()));
    auto block = MakeBlock(b);
    auto it = Iter(*block);
    size_t steps = 0;
    for (it->SeekToFirst(); it->Valid() && steps < 1000; it->Next()) steps++;
    for (it->SeekToLast(); it->Valid() && steps < 2000; it->Prev()) steps++;
    it->Seek("key000100");
    if (it->Valid()) {
      it->Prev();
      if (it->Valid()) it->Next();
    }
    if (!it->status().ok()) {
      EXPECT_TRUE(it->status().IsCorruption());
      EXPECT_FALSE(it->Valid());
      corrupt++;
    }
  }
  EXPECT_GT(corrupt, 0);
}

}  // namespace sluice
