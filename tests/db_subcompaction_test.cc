// Subcompactions (Options::max_subcompactions): a compaction into a level that already holds
// several files is merged as key ranges in parallel, and the result is the one a single merge
// gives: every key's newest value, every version a snapshot needs, deletions dropped only where
// nothing older lies below; the output level sorted with no two files overlapping; the stats
// count the split. A range that fails takes the whole compaction with it: the error is
// reported, no file any range wrote is left on disk, and the data reads back after reopening.

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/fault_env.h"
#include "support/test_util.h"

namespace sluice::test {
namespace {

class DBSubcompactionTest : public DBTestBase, public ::testing::Test {
 public:
  DBSubcompactionTest() : DBTestBase("flodb") {}
  ~DBSubcompactionTest() override { Close(); }

  Options TestOptions(int max_subcompactions) {
    Options o = DefaultOptions();
    o.level0_idle_compaction_ms = 0;  // only the compactions the test asks for
    o.write_buffer_size = 8 << 20;    // flushes only when asked
    o.level0_file_num_compaction_trigger = 100;
    o.level0_slowdown_writes_trigger = 100;
    o.level0_stop_writes_trigger = 100;
    o.target_file_size_base = 4 << 10;  // many files per level: ranges to cut
    o.max_subcompactions = max_subcompactions;
    return o;
  }

  // Round r: overwrites every third key of [0, n), deletes every seventh, adds n/4 new keys.
  void WriteRound(int r, int n, std::map<std::string, std::string>* model) {
    for (int i = 0; i < n; i++) {
      if (i % 7 == r % 7) {
        ASSERT_OK(Delete(Key(i)));
        model->erase(Key(i));
      } else if (i % 3 == r % 3) {
        ASSERT_OK(Put(Key(i), Value(i + 1000 * r)));
        (*model)[Key(i)] = Value(i + 1000 * r);
      }
    }
    for (int i = n + r * n / 4; i < n + (r + 1) * n / 4; i++) {
      ASSERT_OK(Put(Key(i), Value(i)));
      (*model)[Key(i)] = Value(i);
    }
  }

  nlohmann::json Compactions() {
    std::string v;
    EXPECT_TRUE(db()->GetProperty("sluice.stats-json", &v));
    return nlohmann::json::parse(v)["compactions"];
  }

  // The files of `level`, as (smallest user key, largest user key), in the version's order.
  std::vector<std::pair<std::string, std::string>> FilesAt(int level) {
    std::string text;
    EXPECT_TRUE(db()->GetProperty("sluice.sstables", &text));
    std::vector<std::pair<std::string, std::string>> files;
    const std::regex line(R"(L(\d+) #\d+ .*\['([^']*)' @ .*\.\. '([^']*)' @)");
    for (std::sregex_iterator it(text.begin(), text.end(), line), end; it != end; ++it) {
      if (std::stoi((*it)[1]) == level) files.emplace_back((*it)[2], (*it)[3]);
    }
    return files;
  }

  void ExpectSortedAndDisjoint(int level) {
    const auto files = FilesAt(level);
    for (size_t i = 0; i < files.size(); i++) {
      EXPECT_LE(files[i].first, files[i].second) << "L" << level << " file " << i;
      if (i > 0) {
        EXPECT_LT(files[i - 1].second, files[i].first) << "L" << level << " file " << i;
      }
    }
  }

  // File numbers of the SSTs in the directory, and of the live version's.
  std::set<uint64_t> TablesOnDisk() {
    std::set<uint64_t> numbers;
    for (const auto& entry : std::filesystem::directory_iterator(dbname())) {
      const std::string name = entry.path().filename().string();
      if (name.ends_with(".sst")) numbers.insert(std::stoull(name));
    }
    return numbers;
  }
  std::set<uint64_t> LiveTables() {
    std::string text;
    EXPECT_TRUE(db()->GetProperty("sluice.sstables", &text));
    std::set<uint64_t> numbers;
    const std::regex number(R"(#(\d+))");
    for (std::sregex_iterator it(text.begin(), text.end(), number), end; it != end; ++it) {
      numbers.insert(std::stoull((*it)[1]));
    }
    return numbers;
  }
  // Waits (up to 60 s: the background thread deletes, whenever a busy machine runs it) for the
  // obsolete files of earlier compactions to be deleted.
  void WaitUntilOnlyLiveTablesOnDisk() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (TablesOnDisk() != LiveTables() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_EQ(LiveTables(), TablesOnDisk());
  }
};

TEST_F(DBSubcompactionTest, SplitMergeEqualsTheModelAndKeepsSnapshots) {
  constexpr int kKeys = 6000;
  Open(TestOptions(4));
  std::map<std::string, std::string> model;
  WriteRound(0, kKeys, &model);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));  // L0 into an empty L1: one range
  ASSERT_GE(NumFilesAtLevel(1), 8);
  EXPECT_EQ(0u, Compactions()["split"].get<uint64_t>());

  const Snapshot* snapshot = db()->GetSnapshot();
  const std::map<std::string, std::string> at_snapshot = model;
  for (int r = 1; r <= 3; r++) {
    WriteRound(r, kKeys, &model);
    ASSERT_OK(db()->Flush());
  }
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));  // three L0 files into a populated L1
  const nlohmann::json c = Compactions();
  EXPECT_GE(c["split"].get<uint64_t>(), 1u) << c.dump();
  EXPECT_GE(c["split_ranges"].get<uint64_t>(), 2 * c["split"].get<uint64_t>()) << c.dump();
  EXPECT_LE(c["split_ranges"].get<uint64_t>(), 4 * c["split"].get<uint64_t>()) << c.dump();
  EXPECT_EQ(0, NumFilesAtLevel(0));
  for (int level = 1; level < options().num_levels; level++) ExpectSortedAndDisjoint(level);

  EXPECT_EQ(model, ContentsMap());
  EXPECT_EQ(at_snapshot, ContentsMap(snapshot));
  for (int i = 0; i < kKeys; i += 97) {
    const auto it = model.find(Key(i));
    EXPECT_EQ(it == model.end() ? "NOT_FOUND" : it->second, Get(Key(i))) << i;
  }
  db()->ReleaseSnapshot(snapshot);

  // Once no snapshot needs them, the old versions go in the next full compaction, split too.
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  EXPECT_EQ(model, ContentsMap());
  Reopen();
  EXPECT_EQ(model, ContentsMap());
}

TEST_F(DBSubcompactionTest, OneRangeWhenAskedForOne) {
  Open(TestOptions(1));
  std::map<std::string, std::string> model;
  WriteRound(0, 4000, &model);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  WriteRound(1, 4000, &model);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  EXPECT_EQ(0u, Compactions()["split"].get<uint64_t>());
  EXPECT_EQ(model, ContentsMap());
}

TEST_F(DBSubcompactionTest, AFailedRangeLeavesNoFileBehind) {
  FaultEnv env;
  Options o = TestOptions(4);
  o.env = &env;
  Open(o);
  std::map<std::string, std::string> model;
  WriteRound(0, 6000, &model);
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  WriteRound(1, 6000, &model);
  ASSERT_OK(db()->Flush());
  WaitUntilOnlyLiveTablesOnDisk();
  const std::set<uint64_t> before = TablesOnDisk();

  // Every range creates files; the fourth creation fails, so at least one range fails after
  // others have written files.
  env.Arm(FaultEnv::Op::kCreate, ".sst", 3);
  Status s = db()->CompactRange(nullptr, nullptr);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_GE(env.failures(FaultEnv::Op::kCreate), 1);
  env.Disarm();
  EXPECT_EQ(before, LiveTables());    // the compaction did not happen...
  EXPECT_EQ(before, TablesOnDisk());  // ...and left nothing behind

  db()->Close();
  db_.reset();
  o.env = Env::Default();
  Open(o);
  EXPECT_EQ(model, ContentsMap());
}

}  // namespace
}  // namespace sluice::test
