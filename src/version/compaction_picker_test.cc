// version/compaction_picker_test.cc — the compaction debt estimate (EstimatePendingBytes) on
// hand-built trees: nothing below L0's trigger and within every level's target; L0's bytes once
// it reaches its trigger; a level over its target counts its excess with the share of the next
// level it is merged with, and the excess moves down to overflow the next level in turn. And
// which file of a level n >= 1 Pick takes under each compaction_pri.

#include "version/compaction_picker.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/test_util.h"
#include "version/version_builder.h"

namespace sluice {
namespace {

struct FileSpec {
  int level;
  uint64_t bytes;
};

class EstimatePendingBytesTest : public ::testing::Test {
 protected:
  EstimatePendingBytesTest() {
    options_.num_levels = 5;
    options_.level0_file_num_compaction_trigger = 4;
    options_.max_bytes_for_level_base = 100;  // L1 100, L2 1000, L3 10000
    options_.max_bytes_for_level_multiplier = 10;
  }

  // A version with the given files; files of one level get disjoint key ranges.
  uint64_t Estimate(const std::vector<FileSpec>& files) {
    VersionEdit edit;
    uint64_t number = 1;
    for (const FileSpec& spec : files) {
      FileMetaData f;
      f.number = number;
      f.file_size = spec.bytes;
      const std::string lo = "k" + std::to_string(100 + number) + "a";
      const std::string hi = "k" + std::to_string(100 + number) + "z";
      f.smallest = InternalKey(lo, number, kTypeValue);
      f.largest = InternalKey(hi, number, kTypeValue);
      f.smallest_seqno = f.largest_seqno = number;
      edit.AddFile(spec.level, f);
      number++;
    }
    Version empty(options_.num_levels);
    VersionBuilder builder(empty, registry_.get());
    EXPECT_OK(builder.Apply(edit));
    std::shared_ptr<Version> v;
    EXPECT_OK(builder.Build(&v));
    return CompactionPicker(options_).EstimatePendingBytes(*v);
  }

  Options options_;
  std::shared_ptr<FileRegistry> registry_ = std::make_shared<FileRegistry>();
};

TEST_F(EstimatePendingBytesTest, NoDebtBelowTheTriggers) {
  EXPECT_EQ(Estimate({}), 0u);
  EXPECT_EQ(Estimate({{0, 10}, {0, 10}, {0, 10}, {1, 100}, {2, 1000}}), 0u);
}

TEST_F(EstimatePendingBytesTest, Level0AtItsTriggerCountsAllItsBytes) {
  // The 40 bytes move into an empty L1, where they fit: nothing more.
  EXPECT_EQ(Estimate({{0, 10}, {0, 10}, {0, 10}, {0, 10}}), 40u);
}

TEST_F(EstimatePendingBytesTest, TheOverflowOfL1CountsWithTheShareOfL2ItMeets) {
  // L0's 40 bytes land on L1's 80: 20 over the target of 100, merged with 500 bytes of L2 in
  // proportion 500 / 120.
  EXPECT_EQ(Estimate({{0, 10}, {0, 10}, {0, 10}, {0, 10}, {1, 80}, {2, 500}}),
            static_cast<uint64_t>(40 + 20 * (1 + 500.0 / 120)));
}

TEST_F(EstimatePendingBytesTest, AnExcessMovesDownAndOverflowsTheNextLevel) {
  // L1: 300 (200 over, next level 900): 200 * (1 + 900 / 300) = 800. L2: 900 + 200 = 1100, 100
  // over its 1000 (next level 5000): 100 * (1 + 5000 / 1100). L3: 5100 fits in 10000.
  EXPECT_EQ(Estimate({{1, 300}, {2, 900}, {3, 5000}}),
            static_cast<uint64_t>(800 + 100 * (1 + 5000.0 / 1100)));
}

TEST_F(EstimatePendingBytesTest, TheLastLevelHasNoTarget) {
  EXPECT_EQ(Estimate({{4, uint64_t{1} << 40}}), 0u);
}

// Which file of L1 a compaction into L2 takes (Options::compaction_pri). L1 holds A [a1, a9],
// B [b1, b9], C [c1, c9] of 100 bytes each (L1 over its 100-byte target); L2 holds 500 bytes
// under A, 50 under B alone, 100 under C alone, and a 100-byte file W [b8, c2] that overlaps
// both B and C. Overlap ratios: A 5.0, B 1.5, C 2.0.
class PickLevelFileTest : public ::testing::Test {
 protected:
  PickLevelFileTest() {
    options_.num_levels = 4;
    options_.max_bytes_for_level_base = 100;
    VersionEdit edit;
    uint64_t number = 1;
    auto add = [&](int level, const char* lo, const char* hi, uint64_t bytes) {
      FileMetaData f;
      f.number = number;
      f.file_size = bytes;
      f.smallest = InternalKey(lo, number, kTypeValue);
      f.largest = InternalKey(hi, number, kTypeValue);
      f.smallest_seqno = f.largest_seqno = number;
      edit.AddFile(level, f);
      number++;
    };
    add(1, "a1", "a9", 100);
    add(1, "b1", "b9", 100);
    add(1, "c1", "c9", 100);
    add(2, "a0", "a5", 300);
    add(2, "a6", "a9", 200);
    add(2, "b2", "b3", 50);
    add(2, "b8", "c2", 100);  // W
    add(2, "c5", "c6", 100);
    Version empty(options_.num_levels);
    VersionBuilder builder(empty, registry_.get());
    EXPECT_OK(builder.Apply(edit));
    EXPECT_OK(builder.Build(&version_));
  }

  // The L1 file the next compaction takes ("" if none), and its L2 inputs' smallest keys.
  std::string Pick(CompactionPri pri, std::string* next = nullptr) {
    options_.compaction_pri = pri;
    const std::vector<std::string> pointers(static_cast<size_t>(options_.num_levels));
    std::unique_ptr<Compaction> c = CompactionPicker(options_).Pick(version_, pointers);
    if (c == nullptr) return "";
    EXPECT_EQ(c->level(), 1);
    if (next != nullptr) {
      for (const auto& f : c->inputs(1)) *next += f->smallest.user_key().ToString() + " ";
    }
    const std::string picked = c->inputs(0)[0]->smallest.user_key().ToString();
    c->ReleaseInputs();
    return picked;
  }

  Options options_;
  std::shared_ptr<FileRegistry> registry_ = std::make_shared<FileRegistry>();
  std::shared_ptr<Version> version_;
};

TEST_F(PickLevelFileTest, MinOverlappingRatioTakesTheFileThatRewritesLeastBelowIt) {
  std::string next;
  EXPECT_EQ(Pick(CompactionPri::kMinOverlappingRatio, &next), "b1");
  EXPECT_EQ(next, "b2 b8 ");  // W counts for B as well as for C
}

TEST_F(PickLevelFileTest, ABusyFileBelowMovesTheChoiceToTheNextRatio) {
  // W is being compacted: neither B nor C can go, so A (the highest ratio) does.
  version_->files(2)[3]->being_compacted = true;
  EXPECT_EQ(Pick(CompactionPri::kMinOverlappingRatio), "a1");
  version_->files(2)[3]->being_compacted = false;
  // Only the file under A busy: B, the lowest ratio, as before.
  version_->files(2)[0]->being_compacted = true;
  EXPECT_EQ(Pick(CompactionPri::kMinOverlappingRatio), "b1");
  version_->files(2)[0]->being_compacted = false;
}

TEST_F(PickLevelFileTest, RoundRobinStartsAtTheFirstFileWithoutAPointer) {
  EXPECT_EQ(Pick(CompactionPri::kRoundRobin), "a1");
}

}  // namespace
}  // namespace sluice
