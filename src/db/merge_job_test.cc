// db/merge_job_test.cc — a merge job limited to a range of user keys (a subcompaction's part):
// it reads exactly the versions of the keys above keys_after and up to keys_upto, all versions
// of a boundary key on one side, and writes files that lie inside the range; three adjacent
// ranges together read every entry once.

#include "db/merge_job.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "support/test_util.h"
#include "support/vector_iterator.h"

namespace sluice {
namespace {

using test::IKey;

// Keys a..e, several versions of the boundary keys b and d (newest first, as sorted).
std::vector<std::pair<std::string, std::string>> Entries() {
  return {
      {IKey("a", 4, kTypeValue), "a4"},  {IKey("b", 9, kTypeValue), "b9"},
      {IKey("b", 5, kTypeDeletion), ""}, {IKey("b", 2, kTypeValue), "b2"},
      {IKey("c", 7, kTypeValue), "c7"},  {IKey("d", 8, kTypeValue), "d8"},
      {IKey("d", 1, kTypeValue), "d1"},  {IKey("e", 6, kTypeValue), "e6"},
  };
}

class MergeJobRangeTest : public ::testing::Test {
 protected:
  // Runs a job over Entries() limited to (after, upto]; null: open on that side. Every version
  // is kept (a snapshot at each sequence number).
  MergeJobResult Run(const std::string* after, const std::string* upto) {
    MergeJobOptions options;
    options.dbname = dir_.path();
    options.env = Env::Default();
    options.new_file_number = [this] { return next_file_++; };
    options.keys_after = after;
    options.keys_upto = upto;
    test::VectorIterator input(Entries());
    VersionPruner pruner({1, 2, 3, 4, 5, 6, 7, 8, 9}, nullptr);
    MergeJobResult result;
    EXPECT_OK(RunMergeJob(options, &input, &pruner, &result));
    return result;
  }

  test::TempDir dir_;
  uint64_t next_file_ = 1;
};

TEST_F(MergeJobRangeTest, AdjacentRangesSplitBetweenUserKeys) {
  const std::string b = "b", d = "d";
  const MergeJobResult low = Run(nullptr, &b);
  const MergeJobResult mid = Run(&b, &d);
  const MergeJobResult high = Run(&d, nullptr);
  EXPECT_EQ(4u, low.entries_read);   // a, and all three versions of b
  EXPECT_EQ(3u, mid.entries_read);   // c, and both versions of d
  EXPECT_EQ(1u, high.entries_read);  // e
  EXPECT_EQ(Entries().size(), low.entries_read + mid.entries_read + high.entries_read);

  ASSERT_EQ(1u, low.outputs.size());
  EXPECT_EQ("a", low.outputs[0].smallest.user_key().ToString());
  EXPECT_EQ("b", low.outputs[0].largest.user_key().ToString());
  ASSERT_EQ(1u, mid.outputs.size());
  EXPECT_EQ("c", mid.outputs[0].smallest.user_key().ToString());
  EXPECT_EQ("d", mid.outputs[0].largest.user_key().ToString());
  ASSERT_EQ(1u, high.outputs.size());
  EXPECT_EQ("e", high.outputs[0].smallest.user_key().ToString());
}

TEST_F(MergeJobRangeTest, RangesBetweenOrBeyondTheKeys) {
  // Bounds that are not keys of the input: "bb" lies between b and c, "z" past everything.
  const std::string bb = "bb", z = "z";
  EXPECT_EQ(4u, Run(nullptr, &bb).entries_read);
  EXPECT_EQ(4u, Run(&bb, nullptr).entries_read);
  const MergeJobResult empty = Run(&z, nullptr);
  EXPECT_EQ(0u, empty.entries_read);
  EXPECT_TRUE(empty.outputs.empty());  // nothing in range: no file at all
}

}  // namespace
}  // namespace sluice
