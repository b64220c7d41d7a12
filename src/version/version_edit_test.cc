// Tests of version/version_edit and of MANIFEST recovery (version/version_set): the encoding
// round trip, and that numbers a real database cannot have are Corruption naming the MANIFEST:
// a last sequence number larger than an internal key holds (56 bits), file numbers too large to
// name a file. Both were found with tests/fuzz/manifest_reader_fuzzer: a MANIFEST claiming last
// sequence 2^64 - 1 was accepted, and the first write after opening then spun forever (every
// sequence number the wrapped counter handed out was below the snapshot time).

#include "version/version_edit.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "base/internal_key.h"
#include "sluice/db.h"
#include "support/test_util.h"
#include "version/file_metadata.h"
#include "version/version_set.h"

namespace sluice {

namespace {

VersionEdit FreshEdit(SequenceNumber last_sequence) {
  VersionEdit edit;
  edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(2);
  edit.SetLastSequence(last_sequence);
  return edit;
}

}  // namespace

TEST(VersionEdit, EncodeDecodeRoundTrip) {
  VersionEdit edit = FreshEdit(kMaxSequenceNumber);
  FileMetaData f;
  f.number = 7;
  f.file_size = 1234;
  f.smallest = InternalKey("a", 5, kTypeValue);
  f.largest = InternalKey("z", 9, kTypeDeletion);
  f.smallest_seqno = 5;
  f.largest_seqno = 9;
  edit.AddFile(1, f);
  edit.RemoveFile(0, 3);
  edit.SetCompactPointer(1, InternalKey("m", 7, kTypeValue));
  std::string encoded;
  edit.EncodeTo(&encoded);
  VersionEdit decoded;
  ASSERT_OK(decoded.DecodeFrom(encoded));
  std::string again;
  decoded.EncodeTo(&again);
  EXPECT_EQ(encoded, again);
  EXPECT_EQ(edit.DebugString(), decoded.DebugString());
}

TEST(VersionEdit, LastSequenceBeyondWhatAnInternalKeyHoldsIsCorruption) {
  for (const SequenceNumber seq : {kMaxSequenceNumber + 1, ~SequenceNumber{0}}) {
    std::string encoded;
    FreshEdit(seq).EncodeTo(&encoded);
    VersionEdit decoded;
    Status s = decoded.DecodeFrom(encoded);
    EXPECT_TRUE(s.IsCorruption()) << seq << ": " << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find("last sequence number")) << s.ToString();
  }
}

TEST(VersionSetRecover, LastSequenceBeyondWhatAnInternalKeyHoldsIsCorruptionNamingTheManifest) {
  test::TempDir dir;
  ASSERT_OK(WriteSingleEditManifest(Env::Default(), dir.path(), 1, FreshEdit(~SequenceNumber{0})));
  const std::string manifest = dir.File("MANIFEST-000001");
  Options options;
  options.env = Env::Default();
  {
    VersionSet versions(dir.path(), options, std::make_shared<FileRegistry>());
    std::string report;
    Status s = versions.Recover(&report);
    EXPECT_TRUE(s.IsCorruption()) << s.ToString();
    EXPECT_NE(std::string::npos, s.ToString().find(manifest)) << s.ToString();
  }
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dir.path(), &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(manifest)) << s.ToString();
  EXPECT_EQ(nullptr, db);
}

// Both write paths check: a logged write before it reserves its record, an unlogged one on the
// number it drew.
TEST(VersionSetRecover, WritesAreRefusedBeforeSequenceNumbersRunOut) {
  for (const bool exhausted : {false, true}) {
    for (const bool disable_wal : {false, true}) {
      test::TempDir dir;
      const SequenceNumber last = kMaxSequenceNumber - kSequenceMargin + (exhausted ? 1 : -10);
      ASSERT_OK(WriteSingleEditManifest(Env::Default(), dir.path(), 1, FreshEdit(last)));
      std::unique_ptr<DB> db;
      ASSERT_OK(DB::Open(Options(), dir.path(), &db));
      WriteOptions write_options;
      write_options.disable_wal = disable_wal;
      Status s = db->Put(write_options, "k", "v");
      if (exhausted) {
        EXPECT_TRUE(s.IsNotSupported()) << s.ToString();
        EXPECT_NE(std::string::npos, s.ToString().find(dir.path())) << s.ToString();
        std::string value;
        EXPECT_TRUE(db->Get(ReadOptions(), "k", &value).IsNotFound());  // reads still work
      } else {
        EXPECT_OK(s);
      }
      EXPECT_OK(db->Close());
    }
  }
}

TEST(VersionEdit, FileNumbersTooLargeToNameAFileAreCorruption) {
  constexpr uint64_t kHuge = ~uint64_t{0} - 3;
  VersionEdit next = FreshEdit(0);
  next.SetNextFile(kHuge);
  VersionEdit log = FreshEdit(0);
  log.SetLogNumber(kHuge);
  VersionEdit removed;
  removed.RemoveFile(1, kHuge);
  VersionEdit added;
  FileMetaData f;
  f.number = kHuge;
  f.smallest = InternalKey("a", 1, kTypeValue);
  f.largest = InternalKey("b", 2, kTypeValue);
  added.AddFile(0, f);
  for (const VersionEdit* edit : {&next, &log, &removed, &added}) {
    std::string encoded;
    edit->EncodeTo(&encoded);
    VersionEdit decoded;
    EXPECT_TRUE(decoded.DecodeFrom(encoded).IsCorruption()) << edit->DebugString();
  }
  VersionEdit fine = FreshEdit(0);
  fine.SetNextFile(uint64_t{1} << 62);
  std::string encoded;
  fine.EncodeTo(&encoded);
  VersionEdit decoded;
  EXPECT_OK(decoded.DecodeFrom(encoded));
}

// Found with tests/fuzz/manifest_reader_fuzzer: a MANIFEST whose next file number was near 2^64
// was accepted; the files created next had names of 20 digits, which ParseFileName does not read
// back, so the following open could not find the new MANIFEST (or lost the WAL and with it an
// acknowledged write).
TEST(VersionSetRecover, NextFileNumberTooLargeToNameAFileIsCorruptionNamingTheManifest) {
  test::TempDir dir;
  VersionEdit edit = FreshEdit(0);
  edit.SetNextFile(~uint64_t{0} - 3);
  ASSERT_OK(WriteSingleEditManifest(Env::Default(), dir.path(), 1, edit));
  Options options;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dir.path(), &db);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(dir.File("MANIFEST-000001"))) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("next file number")) << s.ToString();
}

TEST(VersionSetRecover, LargestLastSequenceIsAccepted) {
  test::TempDir dir;
  ASSERT_OK(WriteSingleEditManifest(Env::Default(), dir.path(), 1, FreshEdit(kMaxSequenceNumber)));
  Options options;
  options.env = Env::Default();
  VersionSet versions(dir.path(), options, std::make_shared<FileRegistry>());
  std::string report;
  ASSERT_OK(versions.Recover(&report));
  EXPECT_EQ(kMaxSequenceNumber, versions.LastSequence());
}

}  // namespace sluice
