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

namespace sluice {
namespace {

// A handle to a column family by id alone (the batch records only the id).
class IdHandle final : public ColumnFamilyHandle {
 public:
  explicit IdHandle(uint32_t id) : id_(id) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }

 private:
  const uint32_t id_;
  const std::string name_ = "by-id";
};

// Records what Iterate passes, one line per update.
class Recorder final : public WriteBatch::Handler {
 public:
  void Put(const Slice& k, const Slice& v) override {
    log += "put " + k.ToString() + "=" + v.ToString() + "\n";
  }
  void Delete(const Slice& k) override { log += "del " + k.ToString() + "\n"; }
  void DeleteRange(const Slice& b, const Slice& e) override {
    log += "range " + b.ToString() + ".." + e.ToString() + "\n";
  }
  void PutCF(uint32_t f, const Slice& k, const Slice& v) override {
    log += std::to_string(f) + ": put " + k.ToString() + "=" + v.ToString() + "\n";
  }
  void DeleteCF(uint32_t f, const Slice& k) override {
    log += std::to_string(f) + ": del " + k.ToString() + "\n";
  }
  void DeleteRangeCF(uint32_t f, const Slice& b, const Slice& e) override {
    log += std::to_string(f) + ": range " + b.ToString() + ".." + e.ToString() + "\n";
  }
  std::string log;
};

}  // namespace

TEST(WriteBatchFamilies, UpdatesKeepTheirFamilyThroughTheEncoding) {
  IdHandle users(3), big(300);
  WriteBatch b;
  b.Put("a", "1");
  b.Put(&users, "b", "2");
  b.Delete(&big, "c");
  b.DeleteRange(&users, "d", "f");
  b.Put(nullptr, "g", "3");  // nullptr: the default family
  EXPECT_EQ(5u, b.Count());
  WriteBatch copy;
  ASSERT_OK(WriteBatchInternal::SetContents(&copy, WriteBatchInternal::Contents(&b)));
  Recorder r;
  ASSERT_OK(copy.Iterate(&r));
  EXPECT_EQ("put a=1\n3: put b=2\n300: del c\n3: range d..f\nput g=3\n", r.log);
  size_t max_key = 0, max_value = 0;
  std::vector<uint32_t> families;
  ASSERT_OK(WriteBatchInternal::CheckUpdates(&copy, &max_key, &max_value, &families));
  EXPECT_EQ((std::vector<uint32_t>{0, 3, 300}), families);
  Slice key;
  WriteBatch single;
  single.Put(&users, "only", "x");
  ASSERT_TRUE(WriteBatchInternal::SingleKey(&single, &key));
  EXPECT_EQ("only", key.ToString());
  // A batch of the default family encodes as before column families.
  WriteBatch plain, via_default;
  plain.Put("k", "v");
  via_default.Put(nullptr, "k", "v");
  EXPECT_EQ(WriteBatchInternal::Contents(&plain), WriteBatchInternal::Contents(&via_default));
}

TEST(WriteBatchFamilies, FamilyBitWithIdZeroIsCorruption) {
  WriteBatch b;
  std::string rep = WriteBatchInternal::Contents(&b).ToString();
  rep[8] = 1;  // count
  rep.push_back(static_cast<char>(WriteBatchInternal::kFamilyBit | kTypeDeletion));
  rep.push_back(0);  // family 0
  rep.push_back(1);
  rep.push_back('k');
  Status s = WriteBatchInternal::SetContents(&b, rep);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("column family")) << s.ToString();
}

TEST(WriteBatchFamilies, DBRefusesABatchOfAFamilyItDoesNotHaveAndAppliesNothing) {
  test::TempDir dir;
  Options options;
  options.create_if_missing = true;
  std::unique_ptr<DB> db;
  ASSERT_OK(DB::Open(options, dir.path(), &db));
  IdHandle other(5);
  WriteBatch b;
  b.Put("a", "1");
  b.Put(&other, "b", "2");
  Status s = db->Write(WriteOptions(), &b);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("column family 5")) << s.ToString();
  std::string value;
  EXPECT_TRUE(db->Get(ReadOptions(), "a", &value).IsNotFound());
}

}  // namespace sluice
