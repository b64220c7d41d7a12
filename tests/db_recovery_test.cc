// Recovery tests: a copy of the directory taken mid-run (a crash image) reopens with every
// write acknowledged before the copy; torn WAL tails are dropped and reported; damage in the
// middle of a WAL, a zero-filled WAL, a foreign or missing SST, a truncated or missing
// MANIFEST are Corruption naming the file; paranoid_checks=false and RepairDB salvage what
// they can.

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "sluice/env.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "wal/log_format.h"

namespace sluice::test {

namespace {

class DBRecoveryTest : public DBTestBase, public ::testing::Test {
 public:
  DBRecoveryTest() : DBTestBase("skiplist") {}

  std::string OnlyFile(const std::string& suffix) {
    std::vector<std::string> files = FilesWithSuffix(dbname(), suffix);
    EXPECT_EQ(1u, files.size()) << suffix;
    return files.empty() ? "" : dir_.File(files.back());
  }
  std::string Manifest() {
    std::string current = ReadFileOrDie(dir_.File("CURRENT"));
    current.pop_back();
    return dir_.File(current);
  }
  Status OpenExpectingError(bool paranoid = true) {
    Options o = DefaultOptions();
    o.write_buffer_size = 8 << 20;
    o.paranoid_checks = paranoid;
    return TryOpen(o);
  }
};

}  // namespace

TEST_F(DBRecoveryTest, CopyTakenMidRunHoldsEveryWriteAcknowledgedBeforeIt) {
  Options o = DefaultOptions();
  o.write_buffer_size = 64 << 20;  // only the WAL changes while we copy: the copy is a crash image
  Open(o);
  std::atomic<int> acknowledged{0};
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); i++) {
      ASSERT_OK(Put(Key(i), Value(i)));
      acknowledged.store(i + 1);
    }
  });
  while (acknowledged.load() < 2000) std::this_thread::yield();
  const int before_copy = acknowledged.load();
  TempDir copy_parent;
  const std::string copy = copy_parent.File("copy");
  CopyDirOrDie(dbname(), copy);
  stop.store(true);
  writer.join();

  std::unique_ptr<DB> db;
  Status s = DB::Open(o, copy, &db);
  ASSERT_OK(s);
  // One writer: the recovered keys are a prefix of the write sequence, covering every write
  // acknowledged before the copy started.
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  int n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), n++) {
    ASSERT_EQ(Key(n), it->key().ToString());
    ASSERT_EQ(Value(n), it->value().ToString());
  }
  EXPECT_GE(n, before_copy);
}

TEST_F(DBRecoveryTest, TornWalTailIsDroppedAndReported) {
  Open();
  for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), Value(i)));
  Close();
  const std::string wal = OnlyFile(".log");
  TruncateFileOrDie(wal, FileSizeOrDie(wal) - 30);  // cut into the last record
  Open();
  for (int i = 0; i < 99; i++) ASSERT_EQ(Value(i), Get(Key(i)));
  EXPECT_EQ("NOT_FOUND", Get(Key(99)));
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &stats));
  EXPECT_EQ(std::string::npos, stats.find("Recovery: 0 torn-tail bytes")) << stats;
  EXPECT_NE(std::string::npos, ReadFileOrDie(dir_.File("LOG")).find("dropped torn tail"));
}

TEST_F(DBRecoveryTest, DamageInTheMiddleOfAWalIsCorruptionNamingTheFile) {
  Options o = DefaultOptions();
  o.write_buffer_size = 8 << 20;  // keep everything in the one WAL
  o.initial_write_buffer_size = o.write_buffer_size;
  Open(o);
  for (int i = 0; i < 2000; i++) ASSERT_OK(Put(Key(i), Value(i)));
  Close();
  const std::string wal = OnlyFile(".log");
  ASSERT_GT(FileSizeOrDie(wal), 3 * log::kBlockSize);
  FlipByte(wal, log::kBlockSize + 100);
  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(wal)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("paranoid_checks")) << s.ToString();
  // Without paranoid checks the damaged block is skipped and everything else recovered.
  ASSERT_OK(OpenExpectingError(/*paranoid=*/false));
  const size_t recovered = ContentsMap().size();
  EXPECT_LT(recovered, 2000u);
  EXPECT_GT(recovered, 1500u);
  EXPECT_EQ(Value(1999), Get(Key(1999)));
}

// The writer logs records in sequence order; a record that repeats an earlier sequence number
// (here the first record, copied to the end of the WAL: a valid checksum, an old number) is
// damage. Replaying it would add a second version of "k" under one sequence number.
TEST_F(DBRecoveryTest, WalRecordRepeatingASequenceNumberIsCorruption) {
  Open();
  ASSERT_OK(Put("k", "first"));
  ASSERT_OK(Put("other", "x"));
  Close();
  const std::string wal = OnlyFile(".log");
  std::string contents = ReadFileOrDie(wal);
  ASSERT_GT(contents.size(), log::kHeaderSize);
  const size_t first_length = static_cast<uint8_t>(contents[4]) |
                              static_cast<size_t>(static_cast<uint8_t>(contents[5])) << 8;
  ASSERT_LE(log::kHeaderSize + first_length, contents.size());
  contents += contents.substr(0, log::kHeaderSize + first_length);
  ASSERT_LT(contents.size(), log::kBlockSize);  // still one block: the copy is a whole record
  WriteFileOrDie(wal, contents);

  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(wal)) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("sequence")) << s.ToString();
  // Without paranoid checks the copy is skipped: both writes are there, once.
  ASSERT_OK(OpenExpectingError(/*paranoid=*/false));
  EXPECT_EQ("first", Get("k"));
  EXPECT_EQ("x", Get("other"));
}

TEST_F(DBRecoveryTest, ZeroFilledWalIsCorruption) {
  Open();
  for (int i = 0; i < 10; i++) ASSERT_OK(Put(Key(i), Value(i)));
  Close();
  const std::string wal = OnlyFile(".log");
  ZeroBytes(wal, 0, FileSizeOrDie(wal));
  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(wal));
  EXPECT_NE(std::string::npos, s.ToString().find("zero"));
  ASSERT_OK(OpenExpectingError(/*paranoid=*/false));
  EXPECT_EQ("", Contents());
}

TEST_F(DBRecoveryTest, AFileThatIsNotAnSstIsCorruptionNamingIt) {
  Open();
  for (int i = 0; i < 100; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Flush());
  Close();
  const std::string sst = OnlyFile(".sst");
  WriteFileOrDie(sst, std::string(FileSizeOrDie(sst), 'x'));  // same size, not an SST
  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(sst)) << s.ToString();
  // Without paranoid checks the DB opens, and reading the file reports the same.
  ASSERT_OK(OpenExpectingError(/*paranoid=*/false));
  const std::string got = Get(Key(5));
  EXPECT_NE(std::string::npos, got.find("Corruption")) << got;
  EXPECT_NE(std::string::npos, got.find(sst)) << got;
}

TEST_F(DBRecoveryTest, MissingOrResizedSstIsCorruptionNamingIt) {
  Open();
  ASSERT_OK(Put("a", "1"));
  ASSERT_OK(db()->Flush());
  Close();
  const std::string sst = OnlyFile(".sst");
  const std::string data = ReadFileOrDie(sst);
  WriteFileOrDie(sst, data + "extra");
  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(sst));
  ASSERT_EQ(0, std::remove(sst.c_str()));
  s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("missing"));
  WriteFileOrDie(sst, data);
  Open();
  EXPECT_EQ("1", Get("a"));
}

TEST_F(DBRecoveryTest, TruncatedManifestIsCorruptionNamingIt) {
  Open();
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < 50; i++) ASSERT_OK(Put(Key(round * 50 + i), Value(i)));
    ASSERT_OK(db()->Flush());
  }
  Close();
  const std::string manifest = Manifest();
  const std::string full = ReadFileOrDie(manifest);
  // Cut in half: the older version it describes needs WAL files that are gone.
  WriteFileOrDie(manifest, full.substr(0, full.size() / 2));
  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("MANIFEST")) << s.ToString();
  // Cut before its first complete record.
  WriteFileOrDie(manifest, full.substr(0, 5));
  s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(manifest)) << s.ToString();
  WriteFileOrDie(manifest, full);
  Open();
  EXPECT_EQ(250u, ContentsMap().size());
}

TEST_F(DBRecoveryTest, CurrentNamingAMissingManifestIsCorruption) {
  Open();
  ASSERT_OK(Put("a", "1"));
  Close();
  ASSERT_EQ(0, std::remove(Manifest().c_str()));
  Status s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("MANIFEST"));
  WriteFileOrDie(dir_.File("CURRENT"), "garbage");
  s = OpenExpectingError();
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("CURRENT"));
}

TEST_F(DBRecoveryTest, RepairRecoversFromALostManifestAndADamagedSst) {
  Options o = DefaultOptions();
  // No compaction: the SST files are the same in every run, so the damage below costs one block
  // of one flushed file (with compactions, what the damaged file held depended on timing).
  o.level0_file_num_compaction_trigger = 1000;
  o.level0_slowdown_writes_trigger = 1000;
  o.level0_stop_writes_trigger = 1000;
  o.level0_idle_compaction_ms = 0;
  Open(o);
  for (int i = 0; i < 3000; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Flush());
  for (int i = 3000; i < 3100; i++) ASSERT_OK(Put(Key(i), Value(i)));  // only in the WAL
  Close();
  ASSERT_EQ(0, std::remove(Manifest().c_str()));
  std::vector<std::string> ssts = FilesWithSuffix(dbname(), ".sst");
  ASSERT_FALSE(ssts.empty());
  const std::string damaged = dir_.File(ssts.front());
  FlipByte(damaged, FileSizeOrDie(damaged) / 2);

  ASSERT_OK(RepairDB(dbname(), o));
  Open(o);
  std::map<std::string, std::string> contents = ContentsMap();
  EXPECT_GT(contents.size(), 2500u);
  for (const auto& [k, v] : contents) {
    const int i = std::stoi(k.substr(3));
    ASSERT_EQ(Value(i), v) << k;  // whatever was kept is right
  }
  for (int i = 3000; i < 3100; i++) ASSERT_EQ(Value(i), Get(Key(i)));  // from the WAL
  EXPECT_TRUE(Env::Default()->FileExists(dir_.File("lost")));
  // The repaired database is a normal one: it compacts and reopens.
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  Reopen();
  EXPECT_EQ(contents, ContentsMap());
}

TEST_F(DBRecoveryTest, RepairOfADirectoryWithoutADatabaseIsAnError) {
  EXPECT_TRUE(RepairDB(dir_.File("nothing"), Options()).IsInvalidArgument());
  EXPECT_TRUE(RepairDB(dbname(), Options()).IsInvalidArgument());
}

}  // namespace sluice::test
