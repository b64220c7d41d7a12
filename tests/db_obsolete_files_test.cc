// Obsolete SST files leave the disk as soon as nothing needs them: a compaction's inputs stay
// while an iterator still reads them, and go when it is released — without waiting for the
// next flush or compaction — and files that became obsolete just before Close go at Close,
// not at the next open. The files on disk are compared with the live set ("sluice.sstables")
// plus what the test's iterators pin.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <thread>

#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

using FileSet = std::set<uint64_t>;

class DBObsoleteFilesTest : public DBTestBase, public ::testing::Test {
 public:
  DBObsoleteFilesTest() : DBTestBase("flodb") {}
  ~DBObsoleteFilesTest() override { Close(); }

  Options TestOptions() {
    Options o = DefaultOptions();
    o.level0_idle_compaction_ms = 0;  // only the compactions the test asks for
    o.write_buffer_size = 4 << 20;    // flushes only when asked
    o.initial_write_buffer_size = o.write_buffer_size;
    o.level0_file_num_compaction_trigger = 8;  // no automatic compaction either
    o.level0_slowdown_writes_trigger = 20;
    o.level0_stop_writes_trigger = 36;
    return o;
  }

  // The SST files of the current version.
  FileSet LiveTables() {
    std::string text;
    EXPECT_TRUE(db()->GetProperty("sluice.sstables", &text));
    return NumbersIn(text, std::regex(R"(#(\d+))"));
  }

  // The SST files in the directory.
  FileSet TablesOnDisk() {
    std::string names;
    for (const auto& entry : std::filesystem::directory_iterator(dbname())) {
      names += entry.path().filename().string() + "\n";
    }
    return NumbersIn(names, std::regex(R"((\d+)\.sst)"));
  }

  // Waits (up to 60 s: the background thread deletes, whenever a busy machine runs it) until
  // the directory holds exactly `expected`; returns what it holds.
  FileSet WaitForTablesOnDisk(const FileSet& expected) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    FileSet on_disk = TablesOnDisk();
    while (on_disk != expected && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      on_disk = TablesOnDisk();
    }
    return on_disk;
  }

  // Keys 0..n-1 flushed, then every other key overwritten and flushed: two L0 files.
  void TwoLevel0Files(int n, int round) {
    for (int i = 0; i < n; i++) ASSERT_OK(Put(Key(i), Value(i + round)));
    ASSERT_OK(db()->Flush());
    for (int i = 0; i < n; i += 2) ASSERT_OK(Put(Key(i), Value(i + round + 1)));
    ASSERT_OK(db()->Flush());
  }

 private:
  static FileSet NumbersIn(const std::string& text, const std::regex& pattern) {
    FileSet numbers;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern);
         it != std::sregex_iterator(); ++it) {
      numbers.insert(std::stoull((*it)[1].str()));
    }
    return numbers;
  }
};

TEST_F(DBObsoleteFilesTest, AnIteratorKeepsCompactionInputsUntilReleasedThenTheyGoAtOnce) {
  Open(TestOptions());
  constexpr int kKeys = 2000;
  TwoLevel0Files(kKeys, 0);
  const FileSet before = LiveTables();
  ASSERT_EQ(2u, before.size());
  EXPECT_EQ(before, TablesOnDisk());

  std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
  const std::map<std::string, std::string> expected = ContentsMap();
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  const FileSet after = LiveTables();
  ASSERT_FALSE(after.empty());
  for (uint64_t n : after) EXPECT_EQ(0u, before.count(n)) << "#" << n << " survived compaction";

  // The iterator's version still names the inputs: they stay, and it reads them whole.
  FileSet pinned = after;
  pinned.insert(before.begin(), before.end());
  EXPECT_EQ(pinned, TablesOnDisk());
  std::map<std::string, std::string> read;
  for (it->SeekToFirst(); it->Valid(); it->Next())
    read[it->key().ToString()] = it->value().ToString();
  ASSERT_OK(it->status());
  EXPECT_EQ(expected, read);

  // Released with no flush or compaction to follow: the inputs must still go.
  it.reset();
  EXPECT_EQ(after, WaitForTablesOnDisk(after));
  EXPECT_EQ(after, LiveTables());
}

TEST_F(DBObsoleteFilesTest, ASnapshotDoesNotPinFilesAndSeveralIteratorsReleaseInAnyOrder) {
  Open(TestOptions());
  constexpr int kKeys = 1000;
  TwoLevel0Files(kKeys, 0);
  const FileSet first = LiveTables();
  const Snapshot* snapshot = db()->GetSnapshot();
  std::unique_ptr<Iterator> old_it = db()->NewIterator(ReadOptions());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));

  TwoLevel0Files(kKeys, 7);
  std::unique_ptr<Iterator> new_it = db()->NewIterator(ReadOptions());
  const FileSet third_inputs = LiveTables();  // second plus the two new L0 files
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  const FileSet final_set = LiveTables();

  FileSet all = final_set;
  all.insert(first.begin(), first.end());
  all.insert(third_inputs.begin(), third_inputs.end());
  EXPECT_EQ(all, TablesOnDisk());

  // The newer iterator goes first: the files only it pinned go, the older one's (`first`) stay.
  new_it.reset();
  FileSet still = final_set;
  still.insert(first.begin(), first.end());
  EXPECT_EQ(still, WaitForTablesOnDisk(still));

  old_it.reset();
  EXPECT_EQ(final_set, WaitForTablesOnDisk(final_set));
  // The snapshot still reads what it saw, from the compacted files.
  EXPECT_EQ(Value(1), Get(Key(1), snapshot));
  EXPECT_EQ(Value(8), Get(Key(1)));
  db()->ReleaseSnapshot(snapshot);
}

TEST_F(DBObsoleteFilesTest, CloseDeletesWhatBecameObsoleteAndReopenFindsNothingToRemove) {
  Open(TestOptions());
  TwoLevel0Files(1000, 0);
  std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  const FileSet live = LiveTables();
  // Released right before Close: whether or not a background thread gets to the files first,
  // none may be left behind.
  it.reset();
  Close();
  EXPECT_EQ(live, TablesOnDisk());
  Open(TestOptions());
  EXPECT_EQ(live, LiveTables());
  EXPECT_EQ(1000, static_cast<int>(ContentsMap().size()));
}

// A file moved down a level without rewriting it (a trivial move) is removed from one level and
// added to the next by one MANIFEST edit. Replaying that edit at open once dropped the file's
// only metadata object before making the new one, which queued a live file as obsolete: the
// next deletion pass (after any flush) removed it, and its keys were gone.
TEST_F(DBObsoleteFilesTest, AFileMovedDownALevelSurvivesReopenAndTheNextDeletionPass) {
  Options o = TestOptions();
  o.level0_file_num_compaction_trigger = 1;  // one L0 file is compacted: moved to the empty L1
  Open(o);
  constexpr int kKeys = 1000;
  for (int i = 0; i < kKeys; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Flush());
  // The background compaction moves it (waited for up to 60 s).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (NumFilesAtLevel(0) != 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(0, NumFilesAtLevel(0));
  ASSERT_EQ(1, NumFilesAtLevel(1));
  const FileSet moved = LiveTables();
  Close();

  Open(o);
  EXPECT_EQ(moved, LiveTables());
  // A flush runs the deletion pass; its file lies after the moved one's keys.
  ASSERT_OK(Put("zzz", "last"));
  ASSERT_OK(db()->Flush());
  const FileSet live = LiveTables();
  for (uint64_t n : moved) EXPECT_EQ(1u, live.count(n)) << "#" << n;
  EXPECT_EQ(live, WaitForTablesOnDisk(live));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // a late pass would show here
  EXPECT_EQ(LiveTables(), TablesOnDisk());
  for (int i = 0; i < kKeys; i++) ASSERT_EQ(Value(i), Get(Key(i))) << i;
}

}  // namespace
}  // namespace sluice::test
