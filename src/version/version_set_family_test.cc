// Tests of column families in the version layer (version/version_set, version/version_edit):
// the MANIFEST records that create and drop families round-trip; each family keeps its own
// files, compaction pointers and log number across a reopen; VersionSet::LogNumber() is the
// smallest family log number; a reopen that does not name every family is refused, naming the
// missing ones; names are unique and ids are never reused.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "sluice/db.h"
#include "support/test_util.h"
#include "version/file_metadata.h"
#include "version/version_edit.h"
#include "version/version_set.h"
#include "version/version_test_util.h"

namespace sluice {
namespace {

using test::TableFile;

class VersionSetFamilies : public testing::Test {
 protected:
  VersionSetFamilies() { options_.env = Env::Default(); }

  std::unique_ptr<VersionSet> NewVersionSet() {
    return std::make_unique<VersionSet>(dir_.path(), options_, std::make_shared<FileRegistry>());
  }

  test::TempDir dir_;
  Options options_;
};

TEST(VersionEditFamilies, AddDropAndFamilyTagsRoundTrip) {
  VersionEdit edit;
  edit.SetColumnFamily(7);
  edit.AddColumnFamily("users");
  edit.SetMaxColumnFamily(7);
  edit.SetLogNumber(12);
  edit.AddFile(0, TableFile(9, "a", "b"));
  std::string encoded;
  edit.EncodeTo(&encoded);
  VersionEdit decoded;
  ASSERT_OK(decoded.DecodeFrom(encoded));
  EXPECT_EQ(7u, decoded.column_family());
  EXPECT_TRUE(decoded.is_column_family_add());
  EXPECT_FALSE(decoded.is_column_family_drop());
  EXPECT_EQ("users", decoded.column_family_name());
  EXPECT_EQ(edit.DebugString(), decoded.DebugString());

  VersionEdit drop;
  drop.SetColumnFamily(7);
  drop.DropColumnFamily();
  encoded.clear();
  drop.EncodeTo(&encoded);
  ASSERT_OK(decoded.DecodeFrom(encoded));
  EXPECT_TRUE(decoded.is_column_family_drop());
  EXPECT_EQ(7u, decoded.column_family());

  // An edit of the default family carries no family tag: old MANIFESTs read the same.
  VersionEdit plain;
  plain.SetLogNumber(3);
  std::string a, b;
  plain.EncodeTo(&a);
  plain.SetColumnFamily(0);
  plain.EncodeTo(&b);
  EXPECT_EQ(a, b);
}

TEST(VersionEditFamilies, EmptyNameIsCorruption) {
  VersionEdit edit;
  edit.SetColumnFamily(1);
  edit.AddColumnFamily("x");
  std::string encoded;
  edit.EncodeTo(&encoded);
  // The name "x" is the last byte: make it empty (length 0, byte dropped).
  encoded.resize(encoded.size() - 2);
  encoded.push_back('\0');
  VersionEdit decoded;
  Status s = decoded.DecodeFrom(encoded);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("column family name")) << s.ToString();
}

TEST_F(VersionSetFamilies, FamiliesKeepTheirFilesAndLogNumbersAcrossAReopen) {
  {
    auto versions = NewVersionSet();
    ASSERT_OK(versions->CreateNew());
    std::string report;
    ASSERT_OK(versions->Recover(&report));
    Options small = options_;
    small.num_levels = 3;
    FamilyVersions* users = nullptr;
    ASSERT_OK(versions->CreateColumnFamily("users", small, 5, &users));
    EXPECT_EQ(1u, users->id);
    EXPECT_EQ(3, users->current->num_levels());
    Status s = versions->CreateColumnFamily("users", options_, 5, &users);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("\"users\" already exists")) << s.ToString();
    FamilyVersions* logs = nullptr;
    ASSERT_OK(versions->CreateColumnFamily("logs", options_, 5, &logs));
    EXPECT_EQ(2u, logs->id);

    VersionEdit edit;
    edit.SetColumnFamily(1);
    edit.AddFile(2, TableFile(20, "k", "m"));
    edit.SetLogNumber(8);
    versions->MarkFileNumberUsed(20);
    ASSERT_OK(versions->LogAndApply(&edit));
    VersionEdit default_edit;
    default_edit.AddFile(0, TableFile(21, "a", "c"));
    default_edit.SetLogNumber(9);
    versions->MarkFileNumberUsed(21);
    ASSERT_OK(versions->LogAndApply(&default_edit));
    // The smallest log number of any family: "logs" never flushed (5).
    EXPECT_EQ(5u, versions->LogNumber());
    ASSERT_OK(versions->DropColumnFamily(2));
    EXPECT_EQ(8u, versions->LogNumber());
    EXPECT_TRUE(versions->DropColumnFamily(0).IsInvalidArgument());
    EXPECT_TRUE(versions->DropColumnFamily(2).IsInvalidArgument());
  }
  std::vector<std::string> names;
  ASSERT_OK(ListColumnFamiliesInManifest(Env::Default(), dir_.path(), &names));
  EXPECT_EQ((std::vector<std::string>{"default", "users"}), names);

  // Reopened without naming "users": refused, naming it.
  {
    auto versions = NewVersionSet();
    std::string report;
    Status s = versions->Recover(&report);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("users")) << s.ToString();
  }
  Options users_options = options_;
  users_options.num_levels = 3;
  auto versions = NewVersionSet();
  std::string report;
  ASSERT_OK(versions->Recover(
      [&](const std::string& name) { return name == "users" ? &users_options : nullptr; },
      &report));
  FamilyVersions* users = versions->family(1);
  ASSERT_NE(nullptr, users);
  EXPECT_EQ("users", users->name);
  EXPECT_EQ(3, users->current->num_levels());
  EXPECT_EQ(1, users->current->NumFiles(2));
  EXPECT_EQ(8u, users->log_number);
  EXPECT_EQ(1, versions->current()->NumFiles(0));
  EXPECT_EQ(9u, versions->default_family()->log_number);
  EXPECT_EQ(8u, versions->LogNumber());
  EXPECT_EQ(nullptr, versions->family(2));  // dropped
  // Ids are never reused: the next family is 3, and survives a MANIFEST rewrite.
  FamilyVersions* next = nullptr;
  ASSERT_OK(versions->CreateColumnFamily("logs", options_, 10, &next));
  EXPECT_EQ(3u, next->id);
}

TEST_F(VersionSetFamilies, EditOfAnUnknownFamilyIsRefused) {
  auto versions = NewVersionSet();
  ASSERT_OK(versions->CreateNew());
  std::string report;
  ASSERT_OK(versions->Recover(&report));
  VersionEdit edit;
  edit.SetColumnFamily(4);
  Status s = versions->LogAndApply(&edit);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

}  // namespace
}  // namespace sluice
