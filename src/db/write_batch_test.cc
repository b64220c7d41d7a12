// Tests of the write batch encoding as read back from a WAL record
// (WriteBatchInternal::SetContents) and of WAL recovery of such records. Found with
// tests/fuzz/wal_reader_fuzzer: a record whose sequence number does not fit the 56 bits of an
// internal key was replayed with the number wrapped around (a batch at 2^56 sorted as if written
// at 0, below the older versions of its keys), and the sequence counter resumed from a number
// no internal key can hold.

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "base/internal_key.h"
#include "db/write_batch_internal.h"
#include "sluice/db.h"
#include "support/test_util.h"
#include "version/version_edit.h"
#include "version/version_set.h"
#include "wal/log_writer.h"

namespace sluice {

namespace {

std::string Encoded(SequenceNumber seq, const std::string& key, const std::string& value) {
  WriteBatch b;
  b.Put(key, value);
  WriteBatchInternal::SetSequence(&b, seq);
  return WriteBatchInternal::Contents(&b).ToString();
}

}  // namespace

TEST(WriteBatchInternal, SetContentsRejectsASequenceAnInternalKeyCannotHold) {
  WriteBatch b;
  EXPECT_OK(WriteBatchInternal::SetContents(&b, Encoded(kMaxSequenceNumber, "k", "v")));
  EXPECT_EQ(kMaxSequenceNumber, WriteBatchInternal::Sequence(&b));
  for (const SequenceNumber seq : {kMaxSequenceNumber + 1, ~SequenceNumber{0}}) {
    Status s = WriteBatchInternal::SetContents(&b, Encoded(seq, "k", "v"));
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("sequence number")) << s.ToString();
  }
}

TEST(WriteBatchRecovery, WalRecordWithASequenceTooLargeIsCorruptionNamingTheWal) {
  test::TempDir dir;
  VersionEdit edit;  // a new database's MANIFEST (VersionSet::CreateNew)
  edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(2);
  edit.SetLastSequence(0);
  ASSERT_OK(WriteSingleEditManifest(Env::Default(), dir.path(), 1, edit));
  const std::string wal = dir.File("000003.log");
  {
    std::unique_ptr<WritableFile> file;
    ASSERT_OK(Env::Default()->NewWritableFile(wal, &file));
    log::Writer writer(std::move(file), wal);
    ASSERT_OK(writer.AddRecord(Encoded(1, "a", "1"), false));
    ASSERT_OK(writer.AddRecord(Encoded(kMaxSequenceNumber + 2, "b", "2"), false));
    ASSERT_OK(writer.Close());
  }

  Options options;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dir.path(), &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(wal)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("sequence number")) << s.ToString();

  // Without paranoid checks the record is skipped like any malformed one.
  options.paranoid_checks = false;
  ASSERT_OK(DB::Open(options, dir.path(), &db));
  std::string value;
  ASSERT_OK(db->Get(ReadOptions(), "a", &value));
  EXPECT_EQ("1", value);
  EXPECT_TRUE(db->Get(ReadOptions(), "b", &value).IsNotFound());
  ASSERT_OK(db->Put(WriteOptions(), "a", "after"));
  ASSERT_OK(db->Close());
  db.reset();
  ASSERT_OK(DB::Open(options, dir.path(), &db));
  ASSERT_OK(db->Get(ReadOptions(), "a", &value));
  EXPECT_EQ("after", value);
}

}  // namespace sluice
