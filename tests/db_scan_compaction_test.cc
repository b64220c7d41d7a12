// The scan-paid L0 compaction (Options::level0_scan_compaction): while scans dominate writes,
// level 0 is compacted into level 1 below its file-count trigger once the iterators have been
// charged (one per L0 file each merges) at least max((L0 + L1 bytes) / 1 KiB, 65,536) since L0
// or L1 last changed. Gets are never charged; writes outnumbering scans, or the option off,
// keep L0 as it is. Counts, not timing, decide each side: the background thread looks at least
// once a second, and the tests wait for that.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "sluice/db.h"
#include "sluice/iterator.h"
#include "support/db_test_util.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

constexpr int kKeys = 400;
// The floor of charges (DBImpl::PickScanCompaction), over two L0 files: two charges per iterator.
constexpr int kIteratorsBelowTheFloor = 65536 / 2 - 1000;

class DBScanCompactionTest : public DBTestBase, public ::testing::Test {
 public:
  DBScanCompactionTest() : DBTestBase("flodb") {}
  ~DBScanCompactionTest() override { Close(); }

  Options ScanOptions(bool enabled) {
    Options o = DefaultOptions();
    o.level0_scan_compaction = enabled;
    o.level0_idle_compaction_ms = 0;           // only scans may compact L0 below its trigger
    o.write_buffer_size = 64 << 20;            // flushes only when asked:
    o.initial_write_buffer_size = 64 << 20;    // full size from the start
    o.level0_file_num_compaction_trigger = 4;  // two flushes stay below it
    return o;
  }

  // Two L0 files: keys 0..kKeys-1, then every other key overwritten.
  void TwoLevel0Files() {
    for (int i = 0; i < kKeys; i++) ASSERT_OK(Put(Key(i), Value(i)));
    ASSERT_OK(db()->Flush());
    for (int i = 0; i < kKeys; i += 2) ASSERT_OK(Put(Key(i), Value(i + kKeys)));
    ASSERT_OK(db()->Flush());
    ASSERT_EQ(2, NumFilesAtLevel(0));
  }

  // One short scan: an iterator, a seek, two entries.
  void ShortScan(int i) {
    std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
    it->Seek(Key(i % kKeys));
    for (int n = 0; n < 2 && it->Valid(); n++) it->Next();
    ASSERT_OK(it->status());
  }

  uint64_t ScanCompactions() {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.stats-json", &v));
    return nlohmann::json::parse(v)["compactions"]["scan_level0"].get<uint64_t>();
  }

  // Long enough for the background thread to look twice (it looks at least once a second).
  static void LetTheBackgroundLook() {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  }

  void ExpectContents() {
    for (int i = 0; i < kKeys; i++) {
      ASSERT_EQ(i % 2 == 0 ? Value(i + kKeys) : Value(i), Get(Key(i))) << i;
    }
  }
};

TEST_F(DBScanCompactionTest, ScansThatPaidForL0CompactItIntoL1) {
  Open(ScanOptions(true));
  TwoLevel0Files();
  for (int i = 0; i < kIteratorsBelowTheFloor; i++) ASSERT_NO_FATAL_FAILURE(ShortScan(i));
  LetTheBackgroundLook();
  EXPECT_EQ(2, NumFilesAtLevel(0)) << "compacted before the scans paid the floor";
  EXPECT_EQ(0u, ScanCompactions());

  // More scans: past the floor, L0 goes down (however the background's looks fall).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int i = 0; NumFilesAtLevel(0) != 0 && std::chrono::steady_clock::now() < deadline; i++) {
    ASSERT_NO_FATAL_FAILURE(ShortScan(i));
    if (i % 1000 == 999) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(0, NumFilesAtLevel(0)) << "scans kept paying for L0";
  EXPECT_GE(NumFilesAtLevel(1), 1);
  EXPECT_EQ(1u, ScanCompactions());
  std::string stats;
  ASSERT_TRUE(db()->GetProperty("sluice.stats", &stats));
  EXPECT_NE(std::string::npos, stats.find("0 of L0 into L1 once writes stopped, 1 once scans"))
      << stats;
  ExpectContents();
  Reopen();
  EXPECT_EQ(static_cast<size_t>(kKeys), ContentsMap().size());
}

TEST_F(DBScanCompactionTest, WritesOutnumberingScansKeepL0) {
  Open(ScanOptions(true));
  TwoLevel0Files();
  // Twice the floor's charges, but three writes per scan.
  for (int i = 0; i < 2 * kIteratorsBelowTheFloor; i++) {
    ASSERT_NO_FATAL_FAILURE(ShortScan(i));
    for (int w = 0; w < 3; w++) ASSERT_OK(Put("w" + std::to_string(w), Value(i)));
  }
  LetTheBackgroundLook();
  EXPECT_EQ(2, NumFilesAtLevel(0));
  EXPECT_EQ(0u, ScanCompactions());
}

TEST_F(DBScanCompactionTest, GetsAreNeverChargedAndTheOptionTurnsItOff) {
  Open(ScanOptions(true));
  TwoLevel0Files();
  for (int i = 0; i < 4 * kIteratorsBelowTheFloor; i++) ASSERT_EQ(Value(1), Get(Key(1)));
  LetTheBackgroundLook();
  EXPECT_EQ(2, NumFilesAtLevel(0)) << "Gets paid for a compaction";

  Close();
  ASSERT_OK(DestroyDB(dbname(), ScanOptions(false)));
  Open(ScanOptions(false));
  TwoLevel0Files();
  for (int i = 0; i < 2 * kIteratorsBelowTheFloor; i++) ASSERT_NO_FATAL_FAILURE(ShortScan(i));
  LetTheBackgroundLook();
  EXPECT_EQ(2, NumFilesAtLevel(0)) << "compacted with level0_scan_compaction off";
  EXPECT_EQ(0u, ScanCompactions());
  ExpectContents();
}

}  // namespace
}  // namespace sluice::test
