// version/compaction_test.cc — how a compaction cuts itself into key ranges for subcompactions
// (SplitPoints): cuts on the largest keys of the sorted input level's files, balanced by their
// sizes; never more ranges than asked, than files, or than min_part_bytes allows; no cut for L0
// into an empty L1 (its files overlap); a level >= 1 with nothing below cuts on its own files.
// And the grandparent overlap tracker: one per stream of keys, each starting from nothing.

#include "version/compaction.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace sluice {
namespace {

// A file holding user keys [lo, hi] of the given size.
std::shared_ptr<FileMetaData> File(uint64_t number, const std::string& lo, const std::string& hi,
                                   uint64_t bytes) {
  auto f = std::make_shared<FileMetaData>();
  f->number = number;
  f->file_size = bytes;
  f->smallest = InternalKey(lo, 10, kTypeValue);
  f->largest = InternalKey(hi, 1, kTypeValue);
  return f;
}

// Files of one sorted level: file i holds keys "k<i>a".."k<i>z" (i two digits).
FileList SortedLevel(const std::vector<uint64_t>& sizes, uint64_t first_number) {
  FileList files;
  for (size_t i = 0; i < sizes.size(); i++) {
    const std::string stem = "k" + std::string(i < 10 ? "0" : "") + std::to_string(i);
    files.push_back(File(first_number + i, stem + "a", stem + "z", sizes[i]));
  }
  return files;
}

std::unique_ptr<Compaction> Make(int level, FileList inputs, FileList next,
                                 FileList grandparents = {}, uint64_t max_overlap = 1000) {
  return std::make_unique<Compaction>(std::make_shared<Version>(7), level, std::move(inputs),
                                      std::move(next), std::move(grandparents), 100, max_overlap);
}

TEST(CompactionSplitPointsTest, CutsTheOutputLevelByBytes) {
  // Two L0 files over everything, eight equal L1 files: four ranges of two L1 files each.
  FileList level0 = {File(1, "a", "z", 100), File(2, "a", "z", 100)};
  auto c = Make(0, level0, SortedLevel({50, 50, 50, 50, 50, 50, 50, 50}, 10));
  EXPECT_EQ((std::vector<std::string>{"k01z", "k03z", "k05z"}), c->SplitPoints(4, 0));
  EXPECT_EQ((std::vector<std::string>{"k03z"}), c->SplitPoints(2, 0));
  EXPECT_TRUE(c->SplitPoints(1, 0).empty());
  EXPECT_TRUE(c->SplitPoints(0, 0).empty());
}

TEST(CompactionSplitPointsTest, BalancesUnequalFiles) {
  // One big file first: it makes a range alone, the small ones share the other.
  auto c = Make(1, {File(1, "k00b", "k00c", 10)}, SortedLevel({300, 50, 50, 50, 50}, 10));
  EXPECT_EQ((std::vector<std::string>{"k00z"}), c->SplitPoints(2, 0));
}

TEST(CompactionSplitPointsTest, NoMoreRangesThanFilesOrBytesAllow) {
  FileList level0 = {File(1, "a", "z", 100)};
  auto two_files = Make(0, level0, SortedLevel({50, 50}, 10));
  EXPECT_EQ((std::vector<std::string>{"k00z"}), two_files->SplitPoints(8, 0));
  // 100 + 8 * 50 = 500 input bytes: at least 200 a range leaves two ranges, 600 none.
  auto eight = Make(0, level0, SortedLevel({50, 50, 50, 50, 50, 50, 50, 50}, 10));
  EXPECT_EQ(1u, eight->SplitPoints(4, 200).size());
  EXPECT_TRUE(eight->SplitPoints(4, 600).empty());
}

TEST(CompactionSplitPointsTest, Level0IntoEmptyLevel1IsNotCut) {
  auto c = Make(0, {File(1, "a", "m", 100), File(2, "n", "z", 100)}, {});
  EXPECT_TRUE(c->SplitPoints(4, 0).empty());
}

TEST(CompactionSplitPointsTest, SortedLevelWithNothingBelowCutsItsOwnFiles) {
  auto c = Make(3, SortedLevel({50, 50, 50, 50}, 10), {});
  EXPECT_EQ((std::vector<std::string>{"k01z"}), c->SplitPoints(2, 0));
}

TEST(GrandparentOverlapTest, EachStreamCountsItsOwnOverlap) {
  // Grandparents of 40 bytes each; a file is cut once it overlaps more than 100 bytes of them.
  FileList grandparents = SortedLevel({40, 40, 40, 40, 40, 40}, 20);
  auto c = Make(1, {File(1, "k00a", "k05z", 10)}, {}, grandparents, 100);
  auto key = [](const std::string& user_key) { return InternalKey(user_key, 5, kTypeValue); };
  GrandparentOverlap first = c->NewGrandparentOverlap();
  EXPECT_FALSE(first.ShouldStopBefore(key("k00b").Encode()));  // the first key counts nothing
  EXPECT_FALSE(first.ShouldStopBefore(key("k01b").Encode()));  // 40 passed
  EXPECT_FALSE(first.ShouldStopBefore(key("k02b").Encode()));  // 80
  EXPECT_TRUE(first.ShouldStopBefore(key("k03b").Encode()));   // 120: cut, and count afresh
  EXPECT_FALSE(first.ShouldStopBefore(key("k04b").Encode()));  // 40
  // A second stream starting in the middle does not inherit the first one's count, nor count
  // the grandparents before its first key.
  GrandparentOverlap second = c->NewGrandparentOverlap();
  EXPECT_FALSE(second.ShouldStopBefore(key("k03c").Encode()));
  EXPECT_FALSE(second.ShouldStopBefore(key("k05c").Encode()));  // 80
}

}  // namespace
}  // namespace sluice
