// Tests of version/version_builder and the FileRegistry's counts under it: replaying edits as
// recovery does (a builder over an empty version holds the only object of each file), a file
// moved to another level by one edit stays live and is never queued as obsolete, while a file
// an edit only removes is; and a number queued obsolete but made again is taken off the queue.

#include "version/version_builder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "support/test_util.h"
#include "version/version_test_util.h"

namespace sluice {
namespace {

using test::TableFile;

class VersionBuilderTest : public ::testing::Test {
 protected:
  std::shared_ptr<FileRegistry> registry_ = std::make_shared<FileRegistry>();
  Version empty_{7};
};

TEST_F(VersionBuilderTest, AFileMovedByOneEditIsNeverQueuedAsObsolete) {
  VersionBuilder builder(empty_, registry_.get());
  VersionEdit add;
  add.AddFile(1, TableFile(7, "a", "f"));
  add.AddFile(1, TableFile(8, "g", "m"));
  ASSERT_OK(builder.Apply(add));
  // A trivial move: 7 leaves L1 for L2 in one edit.
  VersionEdit move;
  move.RemoveFile(1, 7);
  move.AddFile(2, TableFile(7, "a", "f"));
  ASSERT_OK(builder.Apply(move));
  EXPECT_FALSE(registry_->HasObsolete());
  EXPECT_TRUE(registry_->IsLive(7));

  std::shared_ptr<Version> v;
  ASSERT_OK(builder.Build(&v));
  ASSERT_EQ(1u, v->files(1).size());
  EXPECT_EQ(8u, v->files(1)[0]->number);
  ASSERT_EQ(1u, v->files(2).size());
  EXPECT_EQ(7u, v->files(2)[0]->number);
  EXPECT_TRUE(registry_->TakeObsolete().empty());
}

TEST_F(VersionBuilderTest, AFileAnEditOnlyRemovesIsQueuedOnce) {
  VersionBuilder builder(empty_, registry_.get());
  VersionEdit add;
  add.AddFile(1, TableFile(7, "a", "f"));
  ASSERT_OK(builder.Apply(add));
  VersionEdit compacted;  // 7 compacted into 9 one level down
  compacted.RemoveFile(1, 7);
  compacted.AddFile(2, TableFile(9, "a", "f"));
  ASSERT_OK(builder.Apply(compacted));
  EXPECT_FALSE(registry_->IsLive(7));
  EXPECT_EQ(std::vector<uint64_t>{7}, registry_->TakeObsolete());
  EXPECT_TRUE(registry_->IsLive(9));
}

TEST_F(VersionBuilderTest, ANumberMadeAgainBeforeItIsTakenLeavesTheQueue) {
  auto first = registry_->Make(TableFile(7, "a", "f"));
  first.reset();  // 7 queued
  ASSERT_TRUE(registry_->HasObsolete());
  auto again = registry_->Make(TableFile(7, "a", "f"));
  EXPECT_FALSE(registry_->HasObsolete());
  EXPECT_TRUE(registry_->TakeObsolete().empty());
  again.reset();
  EXPECT_EQ(std::vector<uint64_t>{7}, registry_->TakeObsolete());
}

}  // namespace
}  // namespace sluice
