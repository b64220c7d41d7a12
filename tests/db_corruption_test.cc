// On-disk corruption through the database: bits flipped and files truncated in every file kind.
// The rule under test: a damaged file never crashes the engine and never yields a wrong
// answer. SST files: every Get and every scan returns the right data or a non-OK Status naming
// the file; a flip anywhere in the file (data, filter, index, properties, metaindex, footer) is
// detected, with or without paranoid_checks and the block cache; a truncated file fails Open;
// checksums are verified by default, and compaction never rewrites a corrupt block into a
// fresh, valid-looking file. MANIFEST and CURRENT: Open returns Corruption naming the file. WAL:
// a truncated log recovers exactly the records before the cut; a flipped bit recovers exactly
// the records before the damaged one, or fails Open with Corruption naming the log when valid
// records follow (paranoid_checks, docs/formats.md); without paranoid_checks the records around
// the damage are recovered and nothing recovered is wrong.

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <set>

#include "support/db_test_util.h"
#include "support/fault_env.h"
#include "support/test_util.h"
#include "wal/log_format.h"

namespace sluice::test {

namespace {

using ::testing::HasSubstr;
using Model = std::map<std::string, std::string>;

std::string Base(const std::string& path) { return path.substr(path.rfind('/') + 1); }

class DBCorruptionTest : public DBTestBase, public ::testing::Test {
 public:
  DBCorruptionTest() : DBTestBase("skiplist") {}
  ~DBCorruptionTest() override { Close(); }
  void TearDown() override { RecordProperty("faults_injected", damage_.InjectedFaults()); }

  Options QuietOptions() {
    Options o = DefaultOptions();
    o.write_buffer_size = 8 << 20;  // flushes and compactions only when asked
    o.initial_write_buffer_size = o.write_buffer_size;
    o.level0_file_num_compaction_trigger = 100;
    o.level0_slowdown_writes_trigger = 100;
    o.level0_stop_writes_trigger = 100;
    o.level0_idle_compaction_ms = 0;  // damaged L0 files stay where the test put them
    return o;
  }

  // Keys 0..n-1 with old values compacted to L1, then new values and deletions in one L0 file.
  // The directory is saved; Restore() brings it back before each damage.
  void BuildTables(const Options& o, int n) {
    Open(o);
    for (int i = 0; i < n; i++) ASSERT_OK(Put(Key(i), "old" + Value(i)));
    ASSERT_OK(db()->CompactRange(nullptr, nullptr));
    for (int i = 0; i < n; i++) {
      if (i % 5 == 0) {
        ASSERT_OK(Delete(Key(i)));
      } else {
        ASSERT_OK(Put(Key(i), Value(i)));
        model_[Key(i)] = Value(i);
      }
    }
    ASSERT_OK(db()->Flush());
    Reopen(o);  // deletes the files compactions made obsolete: every SST left is live
    Save();
  }

  void Save() {
    Close();
    std::filesystem::remove_all(pristine_.File("db"));
    CopyDirOrDie(dbname(), pristine_.File("db"));
  }
  void Restore() {
    Close();
    std::filesystem::remove_all(dbname());
    CopyDirOrDie(pristine_.File("db"), dbname());
  }
  std::string Manifest() {
    std::string current = ReadFileOrDie(dir_.File("CURRENT"));
    if (!current.empty()) current.pop_back();
    return dir_.File(current);
  }

  // Reads everything every way; each answer must be right or a non-OK Status naming `file`.
  // Returns whether any read reported the damage.
  bool CheckReads(const std::string& file, const std::string& context, int key_count) {
    bool detected = false;
    auto check_error = [&](const Status& s, const std::string& what) {
      EXPECT_THAT(s.ToString(), HasSubstr(file)) << context << ", " << what;
      detected = true;
    };
    for (int i = 0; i < key_count + 3; i += 3) {
      std::string value;
      Status s = db()->Get(ReadOptions(), Key(i), &value);
      auto it = model_.find(Key(i));
      if (s.ok()) {
        EXPECT_TRUE(it != model_.end() && it->second == value) << context << ": wrong " << Key(i);
      } else if (s.IsNotFound()) {
        EXPECT_TRUE(it == model_.end()) << context << ": " << Key(i) << " lost";
      } else {
        check_error(s, "Get " + Key(i));
      }
    }
    const std::vector<std::pair<std::string, std::string>> expected(model_.begin(), model_.end());
    for (bool forward : {true, false}) {
      std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
      size_t n = 0;
      for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
           forward ? it->Next() : it->Prev(), n++) {
        const bool in_range = n < expected.size();
        EXPECT_TRUE(in_range) << context;
        if (!in_range) break;
        const auto& want = expected[forward ? n : expected.size() - 1 - n];
        if (want.first != it->key().ToString() || want.second != it->value().ToString()) {
          ADD_FAILURE() << context << ": scan shows " << it->key().ToString() << " for "
                        << want.first;
          break;
        }
      }
      if (it->status().ok()) {
        EXPECT_EQ(expected.size(), n) << context << (forward ? " forward" : " backward");
      } else {
        check_error(it->status(), forward ? "forward scan" : "backward scan");
      }
    }
    return detected;
  }

  // Opens the damaged database: Corruption naming `file` (true), or reads checked (their
  // verdict). The damage must be detected one way or the other.
  void ExpectDetected(const Options& o, const std::string& file, const std::string& context,
                      int key_count) {
    Status s = TryOpen(o);
    if (!s.ok()) {
      EXPECT_TRUE(s.IsCorruption()) << context << ": " << s.ToString();
      EXPECT_THAT(s.ToString(), HasSubstr(file)) << context;
      return;
    }
    EXPECT_TRUE(CheckReads(file, context, key_count)) << context << ": damage not detected";
  }

  TempDir pristine_;
  FaultEnv damage_;  // counts the damage done
  Model model_;
};

}  // namespace

// Bits flipped across every SST file (data blocks, filter, index, properties, metaindex,
// footer), with paranoid checks and a block cache, and without either: always detected, never
// a wrong answer.
TEST_F(DBCorruptionTest, SstBitFlipsAreAlwaysDetected) {
  constexpr int kKeys = 3000;
  Options o = QuietOptions();
  BuildTables(o, kKeys);
  const std::vector<std::string> ssts = FilesWithSuffix(pristine_.File("db"), ".sst");
  ASSERT_GE(ssts.size(), 2u);
  struct Config {
    bool paranoid;
    size_t cache;
  };
  for (const Config& config : {Config{true, 1 << 20}, Config{false, 0}, Config{false, 1 << 20}}) {
    o.paranoid_checks = config.paranoid;
    o.block_cache_size = config.cache;
    for (const std::string& sst : ssts) {
      const uint64_t size = FileSizeOrDie(pristine_.File("db/" + sst));
      std::set<uint64_t> offsets;
      for (uint64_t k = 0; k < 24; k++) offsets.insert(size * k / 24);  // mostly data blocks
      for (uint64_t k = 1; k <= 24; k++) offsets.insert(size - std::min(size, k * 250));  // meta
      for (uint64_t k = 1; k <= 56; k += 5) offsets.insert(size - k);                     // footer
      int bit = 0;
      for (uint64_t offset : offsets) {
        Restore();
        damage_.FlipBit(dir_.File(sst), offset, bit++ % 8);
        ExpectDetected(o, sst,
                       fmt::format("{} offset {} of {} (paranoid {}, cache {})", sst, offset, size,
                                   config.paranoid, config.cache),
                       kKeys);
      }
    }
  }
  EXPECT_GT(damage_.InjectedFaults(), 300);
}

// A truncated SST file fails Open: the MANIFEST records its size.
TEST_F(DBCorruptionTest, TruncatedSstFailsOpenNamingIt) {
  Options o = QuietOptions();
  BuildTables(o, 2000);
  for (const std::string& sst : FilesWithSuffix(pristine_.File("db"), ".sst")) {
    const uint64_t size = FileSizeOrDie(pristine_.File("db/" + sst));
    for (uint64_t len : {uint64_t{0}, uint64_t{1}, uint64_t{55}, size / 3, size / 2, size - 57,
                         size - 56, size - 1}) {
      for (bool paranoid : {true, false}) {
        Restore();
        damage_.TruncateTo(dir_.File(sst), len);
        o.paranoid_checks = paranoid;
        Status s = TryOpen(o);
        EXPECT_TRUE(s.IsCorruption()) << sst << " cut to " << len << ": " << s.ToString();
        EXPECT_THAT(s.ToString(), HasSubstr(sst));
      }
    }
  }
}

// An SST file truncated under an open database (its table already open, no block cache):
// reads of what is gone report it, naming the file; nothing wrong is returned. Through a
// memory mapping (the default) the lost pages fault: the process survives (SIGBUS absorbed by
// util/guarded_mapping.h) and the reads are Corruption, as through pread.
TEST_F(DBCorruptionTest, SstTruncatedWhileOpenNeverMisreads) {
  constexpr int kKeys = 2000;
  Options o = QuietOptions();
  o.block_cache_size = 0;
  BuildTables(o, kKeys);
  for (bool mmap : {true, false}) {
    o.allow_mmap_reads = mmap;
    for (const std::string& sst : FilesWithSuffix(pristine_.File("db"), ".sst")) {
      const uint64_t size = FileSizeOrDie(pristine_.File("db/" + sst));
      for (uint64_t len : {uint64_t{0}, size / 4, size / 2, size - 1000, size - 56}) {
        Restore();
        Open(o);  // paranoid: the tables are open (footer, index and filter read)
        damage_.TruncateTo(dir_.File(sst), len);
        const std::string what =
            sst + " cut to " + std::to_string(len) + (mmap ? ", mapped" : ", pread");
        const bool detected = CheckReads(sst, what, kKeys);
        if (len <= size / 2) {
          EXPECT_TRUE(detected) << what;  // data blocks are gone
        }
      }
    }
  }
}

// Reads verify block checksums by default (ReadOptions::verify_checksums): without paranoid
// checks and without a block cache, a flipped bit in a value is Corruption naming the file,
// not a wrong value. Turning the option off is the caller's explicit choice.
TEST_F(DBCorruptionTest, DefaultReadsNeverServeACorruptValue) {
  Options o = QuietOptions();
  o.compression = CompressionType::kNone;  // values are stored as they are
  o.paranoid_checks = false;
  BuildTables(o, 500);
  const std::vector<std::string> ssts = FilesWithSuffix(pristine_.File("db"), ".sst");
  const std::string newest = ssts.back();  // the L0 file: the newest values
  const std::string data = ReadFileOrDie(pristine_.File("db/" + newest));
  const size_t pos = data.find(Value(7));
  ASSERT_NE(std::string::npos, pos);
  // Mapped reads (uncompressed blocks read in place, never cached) verify the same way.
  for (bool mmap : {false, true}) {
    for (size_t cache : {size_t{0}, size_t{1} << 20}) {
      for (bool fill_cache : {true, false}) {
        if (cache == 0 && !fill_cache) continue;
        SCOPED_TRACE(testing::Message() << "mmap " << mmap << " cache " << cache);
        Restore();
        damage_.FlipBit(dir_.File(newest), pos + 50, 2);
        o.block_cache_size = cache;
        o.allow_mmap_reads = mmap;
        Open(o);
        ReadOptions ro;
        ro.fill_cache = fill_cache;
        std::string value;
        Status s = db()->Get(ro, Key(7), &value);
        EXPECT_TRUE(s.IsCorruption()) << s.ToString() << " value " << value.substr(0, 60);
        EXPECT_THAT(s.ToString(), HasSubstr(newest));
        EXPECT_THAT(s.ToString(), HasSubstr("checksum"));
      }
    }
  }
  // Explicitly unverified (no cache to fill): the damaged bytes come back.
  ReadOptions unverified;
  unverified.verify_checksums = false;
  unverified.fill_cache = false;
  std::string value;
  ASSERT_OK(db()->Get(unverified, Key(7), &value));
  EXPECT_NE(Value(7), value);
}

// A compaction reading a corrupt block fails with Corruption naming the file, even without
// paranoid checks: it never writes the damaged data into a new file with valid checksums.
TEST_F(DBCorruptionTest, CompactionNeverLaundersACorruptBlock) {
  Options o = QuietOptions();
  o.compression = CompressionType::kNone;
  o.paranoid_checks = false;
  o.block_cache_size = 0;
  BuildTables(o, 500);
  const std::string newest = FilesWithSuffix(pristine_.File("db"), ".sst").back();
  const size_t pos = ReadFileOrDie(pristine_.File("db/" + newest)).find(Value(7));
  ASSERT_NE(std::string::npos, pos);
  damage_.FlipBit(pristine_.File("db/" + newest), pos + 50, 2);
  Restore();
  Open(o);
  Status s = db()->CompactRange(nullptr, nullptr);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();
  EXPECT_THAT(s.ToString(), HasSubstr(newest));
  const std::string got = Get(Key(7));
  EXPECT_THAT(got, HasSubstr("Corruption"));
  EXPECT_THAT(got, HasSubstr(newest));
  Close();
  Open(o);
  EXPECT_THAT(Get(Key(7)), HasSubstr("Corruption"));
  EXPECT_EQ(model_[Key(401)], Get(Key(401)));  // in another block
}

// A damaged MANIFEST (bit flips and truncations everywhere) fails Open with Corruption naming
// it. The one exception is damage confined to the last edit, which recovery treats as a torn
// write and ignores (docs/formats.md): that is only accepted when every file the previous
// version needs still exists (here the inputs of the last compaction, which had not been
// deleted yet), and then the database holds exactly the acknowledged data.
TEST_F(DBCorruptionTest, DamagedManifestFailsOpenNamingIt) {
  Options o = QuietOptions();
  BuildTables(o, 1000);
  Open(o);  // a MANIFEST with several edits: the open, a flush, a compaction
  for (int i = 0; i < 200; i++) {
    ASSERT_OK(Put(Key(i), "newest"));
    model_[Key(i)] = "newest";
  }
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  Save();
  const std::string manifest = Base(Manifest());
  const uint64_t size = FileSizeOrDie(dir_.File(manifest));
  ASSERT_GT(size, 100u);
  int ignored_last_edit = 0;
  auto check = [&](const std::string& context) {
    Status s = TryOpen(o);
    if (s.ok()) {
      ignored_last_edit++;
      EXPECT_EQ(model_, ContentsMap()) << context;
      return;
    }
    EXPECT_TRUE(s.IsCorruption()) << context << ": " << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr(manifest)) << context;
  };
  for (uint64_t offset = 0; offset < size; offset += std::max<uint64_t>(1, size / 150)) {
    Restore();
    damage_.FlipBit(dir_.File(manifest), offset, static_cast<int>(offset % 8));
    check("flip at " + std::to_string(offset));
  }
  for (uint64_t len = 0; len < size; len += std::max<uint64_t>(1, size / 100)) {
    Restore();
    damage_.TruncateTo(dir_.File(manifest), len);
    check("cut to " + std::to_string(len));
  }
  EXPECT_LT(ignored_last_edit, 100) << "only damage in the last edit may be ignored";
  // Without the compaction's inputs, ignoring its edit would lose data: Corruption.
  Restore();
  Open(o);  // deletes the inputs
  Save();
  const std::string reopened = Base(Manifest());
  const uint64_t reopened_size = FileSizeOrDie(dir_.File(reopened));
  for (uint64_t len = 0; len < reopened_size; len += 7) {
    Restore();
    damage_.TruncateTo(dir_.File(reopened), len);
    Status s = TryOpen(o);
    EXPECT_TRUE(s.IsCorruption()) << "cut to " << len << ": " << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr(reopened)) << "cut to " << len;
  }
  Restore();
  Open(o);
  EXPECT_EQ(model_, ContentsMap());
}

// Every bit flip and every truncation of CURRENT fails Open with Corruption naming CURRENT.
TEST_F(DBCorruptionTest, DamagedCurrentFailsOpenNamingIt) {
  Options o = QuietOptions();
  BuildTables(o, 100);
  const uint64_t size = FileSizeOrDie(pristine_.File("db/CURRENT"));
  for (uint64_t offset = 0; offset < size; offset++) {
    for (int bit = 0; bit < 8; bit++) {
      Restore();
      damage_.FlipBit(dir_.File("CURRENT"), offset, bit);
      Status s = TryOpen(o);
      EXPECT_TRUE(s.IsCorruption()) << offset << "/" << bit << ": " << s.ToString();
      EXPECT_THAT(s.ToString(), HasSubstr("CURRENT")) << offset << "/" << bit;
    }
  }
  for (uint64_t len = 0; len < size; len++) {
    Restore();
    damage_.TruncateTo(dir_.File("CURRENT"), len);
    Status s = TryOpen(o);
    EXPECT_TRUE(s.IsCorruption()) << "cut to " << len << ": " << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr("CURRENT")) << "cut to " << len;
  }
}

namespace {

// A database whose only data is one WAL of kRecords writes (every 40th value spans blocks),
// with the file offset where each record ends.
class DBWalCorruptionTest : public DBCorruptionTest {
 public:
  static constexpr int kRecords = 800;
  static constexpr uint64_t kBlock = log::kBlockSize;

  static std::string WalValue(int i) { return i % 40 == 39 ? Value(i, 45000) : Value(i); }

  void BuildWal() {
    Open(QuietOptions());
    const std::vector<std::string> logs = FilesWithSuffix(dbname(), ".log");
    ASSERT_EQ(1u, logs.size());
    wal_ = logs[0];
    for (int i = 0; i < kRecords; i++) {
      ASSERT_OK(Put(Key(i), WalValue(i)));
      ends_.push_back(FileSizeOrDie(dir_.File(wal_)));
    }
    ASSERT_GT(ends_.back(), 8 * kBlock);
    Save();
  }
  uint64_t Start(int r) const { return r == 0 ? 0 : ends_[static_cast<size_t>(r - 1)]; }
  // Where record r's first fragment starts (after the zero trailer of a full block).
  uint64_t FirstFragment(int r) const {
    const uint64_t s = Start(r);
    return kBlock - s % kBlock < log::kHeaderSize ? s + (kBlock - s % kBlock) : s;
  }
  // The record whose bytes (trailer included) hold offset.
  int RecordAt(uint64_t offset) const {
    int r = 0;
    while (ends_[static_cast<size_t>(r)] <= offset) r++;
    return r;
  }
  // "" if the database holds exactly the records in `keep` (by index), else what differs.
  std::string DiffRecords(const std::function<bool(int)>& keep) {
    Model expected;
    for (int i = 0; i < kRecords; i++) {
      if (keep(i)) expected[Key(i)] = WalValue(i);
    }
    const Model got = ContentsMap();
    if (got == expected) return "";
    for (int i = 0; i < kRecords; i++) {
      auto g = got.find(Key(i));
      const bool want = keep(i);
      if (want != (g != got.end())) return Key(i) + (want ? " missing" : " present");
      if (want && g->second != WalValue(i)) return Key(i) + " has a wrong value";
    }
    return "extra keys";
  }

  std::string wal_;
  std::vector<uint64_t> ends_;
};

}  // namespace

// A WAL cut anywhere recovers exactly the records that end before the cut (a torn tail), with
// or without paranoid checks.
TEST_F(DBWalCorruptionTest, TruncatedWalRecoversThePrefixBeforeTheCut) {
  BuildWal();
  std::set<uint64_t> cuts = {0, 1, 6, 7, ends_[0] - 1, ends_[0], ends_[0] + 1};
  for (uint64_t b = 1; b * kBlock < ends_.back(); b += 2) {
    for (uint64_t d : {kBlock * b - 1, kBlock * b, kBlock * b + 1, kBlock * b + 7}) cuts.insert(d);
  }
  for (uint64_t k = 0; k < 40; k++) cuts.insert(ends_.back() * k / 40 + k);
  for (uint64_t cut : cuts) {
    for (bool paranoid : {true, false}) {
      Restore();
      damage_.TruncateTo(dir_.File(wal_), cut);
      Options o = QuietOptions();
      o.paranoid_checks = paranoid;
      Status s = TryOpen(o);
      ASSERT_OK(s) << "cut at " << cut;
      EXPECT_EQ("", DiffRecords([&](int i) { return ends_[static_cast<size_t>(i)] <= cut; }))
          << "cut at " << cut << " (paranoid " << paranoid << ")";
    }
  }
}

// A flipped bit in a WAL (paranoid_checks): damage followed by valid records is Corruption
// naming the log; damage in the last block read (nothing valid after it) is a torn tail and
// the records before the damaged one are recovered exactly; a flip in a block's zero trailer
// changes nothing. Without paranoid checks the damaged block is skipped: the records before it
// and the records after it are recovered, each with its right value.
TEST_F(DBWalCorruptionTest, FlippedBitInWalRecoversAPrefixOrIsCorruptionNamingIt) {
  BuildWal();
  const uint64_t size = ends_.back();
  int corruption = 0, prefix = 0;  // outcomes with paranoid checks
  for (uint64_t k = 0; k < 48; k++) {
    const uint64_t offset = std::min(size - 1, size * k / 48 + k * 13);
    const int r = RecordAt(offset);
    const uint64_t block_end = (offset / kBlock + 1) * kBlock;
    const bool in_trailer = offset < FirstFragment(r);
    bool valid_after = false;  // a record read intact after the damaged block
    for (int j = r + 1; j < kRecords; j++) valid_after |= FirstFragment(j) >= block_end;
    const std::string context = fmt::format("flip at {} in record {}", offset, r);
    for (bool paranoid : {true, false}) {
      Restore();
      damage_.FlipBit(dir_.File(wal_), offset, static_cast<int>(k % 8));
      Options o = QuietOptions();
      o.paranoid_checks = paranoid;
      Status s = TryOpen(o);
      if (in_trailer) {
        ASSERT_OK(s) << context;
        EXPECT_EQ("", DiffRecords([](int) { return true; })) << context;
      } else if (paranoid && valid_after) {
        corruption++;
        EXPECT_TRUE(s.IsCorruption()) << context << ": " << s.ToString();
        EXPECT_THAT(s.ToString(), HasSubstr(wal_)) << context;
      } else if (paranoid) {
        prefix++;
        ASSERT_OK(s) << context;
        EXPECT_EQ("", DiffRecords([&](int i) { return i < r; })) << context;
      } else {
        ASSERT_OK(s) << context;
        EXPECT_EQ("", DiffRecords([&](int i) { return i < r || FirstFragment(i) >= block_end; }))
            << context << " (paranoid off)";
      }
    }
  }
  EXPECT_GT(corruption, 30);
  EXPECT_GT(prefix, 0);
}

}  // namespace sluice::test
