// Tests of DBIter over a plain sorted vector of internal keys that counts the entries it is moved
// across: the iteration bounds stop the walk at the first entry outside them (hidden entries
// beyond a bound are never read), and seeking to the iterator's own key works in both
// directions (in reverse, key() is the iterator's saved copy).

#include "db/db_iter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "support/test_util.h"
#include "support/vector_iterator.h"

namespace sluice {

namespace {

using test::IKey;
using test::VectorIterator;

// Live keys "b", "c", "x", "y" around 1000 deleted keys "m000".."m999"; then an iterator over
// them with the given bounds.
class DBIterTest : public ::testing::Test {
 protected:
  std::unique_ptr<Iterator> NewIter(const Slice* lower, const Slice* upper) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (const char* k : {"b", "c"}) entries.emplace_back(IKey(k, 1, kTypeValue), k);
    for (int i = 0; i < 1000; i++) {
      char k[8];
      std::snprintf(k, sizeof(k), "m%03d", i);
      entries.emplace_back(IKey(k, 3, kTypeDeletion), "");
      entries.emplace_back(IKey(k, 2, kTypeValue), "old");
    }
    for (const char* k : {"x", "y"}) entries.emplace_back(IKey(k, 1, kTypeValue), k);
    ReadOptions options;
    options.iterate_lower_bound = lower;
    options.iterate_upper_bound = upper;
    return NewDBIterator(std::make_unique<VectorIterator>(std::move(entries), &moves_), 10,
                         options);
  }

  int moves_ = 0;
};

}  // namespace

TEST_F(DBIterTest, UpperBoundStopsTheForwardWalkAtTheFirstEntryBeyondIt) {
  const Slice upper("m");
  std::unique_ptr<Iterator> it = NewIter(nullptr, &upper);
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->key().ToString());
  EXPECT_EQ((std::vector<std::string>{"b", "c"}), keys);
  EXPECT_LE(moves_, 2);  // onto "c", onto "m000": never across the 2000 hidden entries
  EXPECT_OK(it->status());
  // Without the bound the same walk crosses all of them.
  moves_ = 0;
  it = NewIter(nullptr, nullptr);
  keys.clear();
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->key().ToString());
  EXPECT_EQ((std::vector<std::string>{"b", "c", "x", "y"}), keys);
  EXPECT_GT(moves_, 2000);
}

TEST_F(DBIterTest, LowerBoundStopsTheReverseWalkAtTheFirstEntryBelowIt) {
  const Slice lower("n");
  std::unique_ptr<Iterator> it = NewIter(&lower, nullptr);
  std::vector<std::string> keys;
  for (it->SeekToLast(); it->Valid(); it->Prev()) keys.push_back(it->key().ToString());
  EXPECT_EQ((std::vector<std::string>{"y", "x"}), keys);
  EXPECT_LE(moves_, 4);
  EXPECT_OK(it->status());
}

TEST_F(DBIterTest, SeekToLastWithAnUpperBoundDoesNotWalkBackOverHiddenEntries) {
  const Slice upper("m5");  // inside the deleted run
  std::unique_ptr<Iterator> it = NewIter(nullptr, &upper);
  it->SeekToLast();
  // It crosses the deletions below the bound on its way to "c", but none of those above it.
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("c", it->key().ToString());
  EXPECT_LE(moves_, 1002);
}

TEST_F(DBIterTest, SeekingToItsOwnKeyWorksInBothDirections) {
  std::unique_ptr<Iterator> it = NewIter(nullptr, nullptr);
  it->SeekToLast();
  it->Prev();
  ASSERT_TRUE(it->Valid());
  ASSERT_EQ("x", it->key().ToString());
  it->Seek(it->key());  // in reverse, key() is the saved copy that Seek rebuilds
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("x", it->key().ToString());
  it->Prev();  // "c"
  it->Prev();  // "b", in reverse again
  ASSERT_TRUE(it->Valid());
  ASSERT_EQ("b", it->key().ToString());
  it->Next();
  it->Prev();
  ASSERT_EQ("b", it->key().ToString());
  it->SeekForPrev(it->key());
  ASSERT_TRUE(it->Valid());
  EXPECT_EQ("b", it->key().ToString());
}

}  // namespace sluice
