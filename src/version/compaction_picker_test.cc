// version/compaction_picker_test.cc — the compaction debt estimate (EstimatePendingBytes) on
// hand-built trees: nothing below L0's trigger and within every level's target; L0's bytes once
// it reaches its trigger; a level over its target counts its excess with the share of the next
// level it is merged with, and the excess moves down to overflow the next level in turn.

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

}  // namespace
}  // namespace sluice
