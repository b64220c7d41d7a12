// Fault-injection tests through the Env seam (tests/support/fault_env.h), over the memory
// components "flodb", "skiplist", "vector", "hash-linklist" and "adaptive".
//
// A matrix of faults (failing create, append, torn append, fsync, rename, directory fsync,
// open-for-read and read of WAL, SST, MANIFEST and CURRENT files) at each phase where the
// engine does that I/O: a write, a background flush or compaction, an explicit flush or
// compaction, and the recovery at open. In every case the failing call (or, for background
// work, the next write) returns the injected IOError naming the file, the database turns
// read-only (later writes fail, reads answer exactly the acknowledged state), and a reopen
// with a healthy Env recovers exactly the acknowledged writes (plus, where the failed write's
// record reached the OS, that one write: the recovered keys are always a prefix).
//
// Also: a failing SST read during Get and iteration is that IOError (never NotFound or an
// older version), a failed creation leaves a directory that opens, failed removals and a
// failed fsync of a WAL already being flushed are harmless, and simulated crashes (the disk frozen
// at an instant, with or without losing unsynced data) keep every acknowledged (resp. synced)
// write.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>
#include <tuple>

#include "support/db_test_util.h"
#include "support/fault_env.h"
#include "support/test_util.h"

namespace sluice::test {

namespace {

using ::testing::HasSubstr;
using Op = FaultEnv::Op;

const char* const kComponents[] = {"flodb", "skiplist", "vector", "hash-linklist", "adaptive"};

// Test-name-safe form of a component name.
std::string Safe(std::string s) {
  for (char& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

class FaultFixture : public DBTestBase {
 public:
  explicit FaultFixture(std::string memtable) : DBTestBase(std::move(memtable)) {}
  // Closes the database before env_, which it may use, goes away.
  ~FaultFixture() override { Close(); }

  Options FaultOptions() {
    Options o = DefaultOptions();
    o.env = &env_;
    // Background work only when a case asks for it: an idle compaction meeting an armed fault
    // would fail a case that tests something else.
    o.level0_idle_compaction_ms = 0;
    return o;
  }
  // Closes (errors expected), disarms, reopens with a healthy Env.
  void RecoverHealthy(const Options& base) {
    if (db_ != nullptr) {
      db_->Close();
      db_.reset();
    }
    env_.Disarm();
    env_.SetTornAppends(false);
    Options o = base;
    o.env = Env::Default();
    Open(o);
  }
  void RecoverHealthy() { RecoverHealthy(DefaultOptions()); }

  // "" if the database holds exactly `model` (by Get of every key and by a full scan), else
  // the first difference.
  std::string Diff(const std::map<std::string, std::string>& model) {
    for (const auto& [k, v] : model) {
      const std::string got = Get(k);
      if (got != v) return k + ": got " + got.substr(0, 80);
    }
    const std::map<std::string, std::string> scan = ContentsMap();
    if (scan != model) {
      return "scan differs: " + std::to_string(scan.size()) + " keys, expected " +
             std::to_string(model.size());
    }
    return "";
  }

  // After a fault: writes fail with an IOError, reads still answer exactly `model`.
  void ExpectReadOnly(const std::map<std::string, std::string>& model) {
    Status s = Put("written-after-the-fault", "x");
    EXPECT_TRUE(s.IsIOError()) << "writes after a fault must fail: " << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr("(injected"));
    WriteBatch batch;
    batch.Put("a", "1");
    batch.Delete("b");
    EXPECT_TRUE(db()->Write(WriteOptions(), &batch).IsIOError());
    EXPECT_TRUE(db()->Flush().IsIOError());
    EXPECT_EQ("", Diff(model));
  }

  FaultEnv env_;
};

// ---- The fault matrix. ----

enum class Phase { kWrite, kBackground, kFlush, kCompaction, kOpen };

struct FaultCase {
  const char* name;
  Phase phase;
  Op op;
  const char* filter;            // which files fail (FaultEnv::Arm)
  int after = 0;                 // this many matching operations succeed first
  bool torn = false;             // a failing append writes half its data first
  const char* expect = nullptr;  // the error names this (default: filter)
  bool sync_writes = false;      // kWrite: writes ask for sync
  int in_doubt = 0;  // kWrite: the failed write's record reached the OS and is recovered
  bool paranoid = true;
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }

const FaultCase kCases[] = {
    // A write: the failing Put gets the error.
    {"WalAppend", Phase::kWrite, Op::kAppend, ".log", 200},
    {"WalTornAppend", Phase::kWrite, Op::kAppend, ".log", 200, true},
    {"WalSync", Phase::kWrite, Op::kSync, ".log", 50, false, nullptr, true, 1},
    {"WalCreateAtSwitch", Phase::kWrite, Op::kCreate, ".log"},
    // Background flush and compaction: the next write gets the error.
    {"BgFlushSstAppend", Phase::kBackground, Op::kAppend, ".sst"},
    {"BgFlushSstSync", Phase::kBackground, Op::kSync, ".sst"},
    {"BgFlushManifestAppend", Phase::kBackground, Op::kAppend, "MANIFEST"},
    {"BgFlushManifestSync", Phase::kBackground, Op::kSync, "MANIFEST"},
    {"BgCompactionInputRead", Phase::kBackground, Op::kRead, ".sst", 0, false, nullptr, false, 0,
     /*paranoid=*/false},
    // DB::Flush.
    {"FlushWalCreate", Phase::kFlush, Op::kCreate, ".log"},
    {"FlushSstCreate", Phase::kFlush, Op::kCreate, ".sst"},
    {"FlushSstAppend", Phase::kFlush, Op::kAppend, ".sst"},
    {"FlushSstTornAppend", Phase::kFlush, Op::kAppend, ".sst", 0, true},
    {"FlushSstSync", Phase::kFlush, Op::kSync, ".sst"},
    {"FlushSstReopen", Phase::kFlush, Op::kOpenRead, ".sst"},
    {"FlushSstVerifyRead", Phase::kFlush, Op::kRead, ".sst"},
    {"FlushManifestAppend", Phase::kFlush, Op::kAppend, "MANIFEST"},
    {"FlushManifestTornAppend", Phase::kFlush, Op::kAppend, "MANIFEST", 0, true},
    {"FlushManifestSync", Phase::kFlush, Op::kSync, "MANIFEST"},
    // DB::CompactRange (the same code as background compactions).
    {"CompactionSstCreate", Phase::kCompaction, Op::kCreate, ".sst"},
    {"CompactionSstAppend", Phase::kCompaction, Op::kAppend, ".sst", 3},
    {"CompactionSstTornAppend", Phase::kCompaction, Op::kAppend, ".sst", 3, true},
    {"CompactionSstSync", Phase::kCompaction, Op::kSync, ".sst"},
    {"CompactionSecondSstSync", Phase::kCompaction, Op::kSync, ".sst", 1},
    {"CompactionSstReopen", Phase::kCompaction, Op::kOpenRead, ".sst"},
    {"CompactionInputRead", Phase::kCompaction, Op::kRead, ".sst", 2},
    {"CompactionManifestAppend", Phase::kCompaction, Op::kAppend, "MANIFEST"},
    {"CompactionManifestSync", Phase::kCompaction, Op::kSync, "MANIFEST"},
    // DB::Open: reading CURRENT, the MANIFEST and the WAL, flushing the recovered writes,
    // writing a new MANIFEST and CURRENT, creating the new WAL.
    {"OpenCurrentRead", Phase::kOpen, Op::kRead, "CURRENT"},
    {"OpenManifestRead", Phase::kOpen, Op::kRead, "MANIFEST"},
    {"OpenSstOpen", Phase::kOpen, Op::kOpenRead, ".sst"},
    {"OpenWalOpen", Phase::kOpen, Op::kOpenRead, ".log"},
    {"OpenWalRead", Phase::kOpen, Op::kRead, ".log"},
    {"OpenWalReadMidFile", Phase::kOpen, Op::kRead, ".log", 1},
    {"OpenSstCreate", Phase::kOpen, Op::kCreate, ".sst"},
    {"OpenSstAppend", Phase::kOpen, Op::kAppend, ".sst"},
    {"OpenSstSync", Phase::kOpen, Op::kSync, ".sst"},
    {"OpenManifestCreate", Phase::kOpen, Op::kCreate, "MANIFEST"},
    {"OpenManifestAppend", Phase::kOpen, Op::kAppend, "MANIFEST"},
    {"OpenManifestSync", Phase::kOpen, Op::kSync, "MANIFEST"},
    {"OpenCurrentTempCreate", Phase::kOpen, Op::kCreate, ".dbtmp"},
    {"OpenCurrentTempSync", Phase::kOpen, Op::kSync, ".dbtmp"},
    {"OpenCurrentRename", Phase::kOpen, Op::kRename, ".dbtmp"},
    {"OpenDirSync", Phase::kOpen, Op::kSyncDir, "", 0, false, "directory fsync"},
    {"OpenWalCreate", Phase::kOpen, Op::kCreate, ".log"},
};

class DBFaultPhaseTest : public FaultFixture,
                         public ::testing::TestWithParam<std::tuple<const char*, FaultCase>> {
 public:
  DBFaultPhaseTest() : FaultFixture(std::get<0>(GetParam())) {}

  const FaultCase& fault() const { return std::get<1>(GetParam()); }
  void TearDown() override { RecordProperty("faults_injected", env_.InjectedFaults()); }

  Options CaseOptions() {
    Options o = FaultOptions();
    o.paranoid_checks = fault().paranoid;
    if (fault().phase == Phase::kBackground) {
      o.write_buffer_size = 32 << 10;
      o.level0_file_num_compaction_trigger = 2;
    } else if (fault().phase != Phase::kWrite) {
      o.write_buffer_size = 8 << 20;  // flushes and compactions only when asked
      o.level0_file_num_compaction_trigger = 100;
      o.level0_slowdown_writes_trigger = 100;
      o.level0_stop_writes_trigger = 100;
      o.target_file_size_base = 16 << 10;  // compactions write several files
    }
    return o;
  }

  // Overwrites, deletes and adds keys (round r), recording the acknowledged state.
  void WriteRound(int r, std::map<std::string, std::string>* model) {
    for (int i = 0; i < 1000; i++) {
      const int k = r * 500 + i;  // half of each round overwrites the previous one
      if (i % 7 == 3) {
        ASSERT_OK(Delete(Key(k)));
        model->erase(Key(k));
      } else {
        ASSERT_OK(Put(Key(k), Value(k + r * 7)));
        (*model)[Key(k)] = Value(k + r * 7);
      }
    }
  }

  void Arm() {
    env_.SetTornAppends(fault().torn);
    env_.Arm(fault().op, fault().filter, fault().after);
  }

  void ExpectInjected(const Status& s) {
    const char* expect = fault().expect != nullptr ? fault().expect : fault().filter;
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr("(injected"));
    EXPECT_THAT(s.ToString(), HasSubstr(expect));
    EXPECT_GE(env_.failures(fault().op), 1) << env_.FaultSummary();
  }

  // Writes Key(i) -> Value(i) in order until one fails (or, for background faults, until a
  // Flush reports the failure). Returns the failing status; *acked: writes acknowledged.
  Status WriteUntilFailure(int* acked) {
    Status s;
    *acked = 0;
    for (int i = 0; i < 20000 && s.ok(); i++) {
      s = Put(Key(i), Value(i), fault().sync_writes);
      if (s.ok()) *acked = i + 1;
    }
    if (s.ok() && fault().phase == Phase::kBackground) s = db()->Flush();
    return s;
  }

  std::map<std::string, std::string> Prefix(int n) {
    std::map<std::string, std::string> m;
    for (int i = 0; i < n; i++) m[Key(i)] = Value(i);
    return m;
  }
};

}  // namespace

TEST_P(DBFaultPhaseTest, ErrorIsReportedAndNothingAcknowledgedIsLost) {
  const FaultCase& c = fault();
  const Options o = CaseOptions();
  std::map<std::string, std::string> model;
  Open(o);
  Status s;
  switch (c.phase) {
    case Phase::kWrite:
    case Phase::kBackground: {
      Arm();
      int acked = 0;
      s = WriteUntilFailure(&acked);
      ExpectInjected(s);
      if (c.phase == Phase::kWrite) {
        EXPECT_LT(acked, 20000) << "the write itself must fail";
      }
      env_.Disarm();
      model = Prefix(acked);
      ExpectReadOnly(model);
      model = Prefix(acked + c.in_doubt);
      break;
    }
    case Phase::kFlush:
      WriteRound(0, &model);
      ASSERT_OK(db()->Flush());
      WriteRound(1, &model);
      Arm();
      s = db()->Flush();
      ExpectInjected(s);
      env_.Disarm();
      ExpectReadOnly(model);
      break;
    case Phase::kCompaction:
      for (int r = 0; r < 3; r++) {
        WriteRound(r, &model);
        ASSERT_OK(db()->Flush());
      }
      Arm();
      s = db()->CompactRange(nullptr, nullptr);
      ExpectInjected(s);
      env_.Disarm();
      ExpectReadOnly(model);
      break;
    case Phase::kOpen:
      WriteRound(0, &model);
      ASSERT_OK(db()->Flush());
      WriteRound(1, &model);  // only in the WAL: recovery flushes it
      Close();
      Arm();
      s = TryOpen(o);
      ExpectInjected(s);
      EXPECT_EQ(nullptr, db());
      break;
  }
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy(o));
  EXPECT_EQ("", Diff(model)) << "after reopening; faults: " << env_.FaultSummary();
  // A normal database again: it writes, flushes, compacts and reopens.
  ASSERT_OK(Put("healthy", "again"));
  model["healthy"] = "again";
  ASSERT_OK(db()->Flush());
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  Options healthy = o;
  healthy.env = Env::Default();
  ASSERT_NO_FATAL_FAILURE(Reopen(healthy));
  EXPECT_EQ("", Diff(model));
  // Whatever the fault left behind (outputs, a MANIFEST, a WAL) is gone once unused.
  EXPECT_TRUE(FilesWithSuffix(dbname(), ".dbtmp").empty());
  EXPECT_EQ(1u, FilesWithSuffix(dbname(), ".log").size());
  EXPECT_EQ(static_cast<size_t>(TotalFiles()), FilesWithSuffix(dbname(), ".sst").size());
  int manifests = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dbname())) {
    manifests += entry.path().filename().string().rfind("MANIFEST-", 0) == 0;
  }
  EXPECT_EQ(1, manifests);
}

INSTANTIATE_TEST_SUITE_P(Matrix, DBFaultPhaseTest,
                         ::testing::Combine(::testing::ValuesIn(kComponents),
                                            ::testing::ValuesIn(kCases)),
                         [](const ::testing::TestParamInfo<DBFaultPhaseTest::ParamType>& info) {
                           return Safe(std::get<0>(info.param)) + "_" +
                                  std::get<1>(info.param).name;
                         });

// ---- Single scenarios, over the memory components. ----

namespace {

class DBFaultTest : public FaultFixture, public ::testing::TestWithParam<const char*> {
 public:
  DBFaultTest() : FaultFixture(GetParam()) {}
  void TearDown() override { RecordProperty("faults_injected", env_.InjectedFaults()); }

  // Keys 0..n-1 with old values in L1, then two newer versions (the newest a value or a
  // deletion) in one L0 file.
  // Returns the L0 file's name; *model: the visible state.
  std::string NewerL0OverOlderL1(int n, std::map<std::string, std::string>* model) {
    Options o = FaultOptions();
    o.level0_file_num_compaction_trigger = 100;
    o.level0_slowdown_writes_trigger = 100;
    o.level0_stop_writes_trigger = 100;
    o.write_buffer_size = 8 << 20;
    o.initial_write_buffer_size = o.write_buffer_size;  // one flush makes one L0 file
    Open(o);
    for (int i = 0; i < n; i++) EXPECT_OK(Put(Key(i), "old" + Value(i)));
    EXPECT_OK(db()->CompactRange(nullptr, nullptr));
    const std::vector<std::string> old_files = FilesWithSuffix(dbname(), ".sst");
    // Two versions of each key in the L0 file (a snapshot keeps the older one; its varying
    // length moves block boundaries), so a boundary may fall between them.
    for (int i = 0; i < n; i++) EXPECT_OK(Put(Key(i), Value(i, 20 + (i * 37) % 150)));
    const Snapshot* snapshot = db()->GetSnapshot();
    for (int i = 0; i < n; i++) {
      if (i % 5 == 0) {
        EXPECT_OK(Delete(Key(i)));
      } else {
        EXPECT_OK(Put(Key(i), Value(i)));
        (*model)[Key(i)] = Value(i);
      }
    }
    EXPECT_OK(db()->Flush());
    db()->ReleaseSnapshot(snapshot);
    EXPECT_EQ(1, NumFilesAtLevel(0));
    for (const std::string& f : FilesWithSuffix(dbname(), ".sst")) {
      if (std::find(old_files.begin(), old_files.end(), f) == old_files.end()) return f;
    }
    ADD_FAILURE() << "no new L0 file";
    return "";
  }
};

}  // namespace

// A Get that must read an SST block it cannot read returns the IOError naming the file: never
// NotFound and never the older version below. The error is not cached: once the device reads
// again, so does the database.
TEST_P(DBFaultTest, GetOfAnUnreadableSstIsTheIOError) {
  std::map<std::string, std::string> model;
  const std::string l0 = NewerL0OverOlderL1(2000, &model);
  env_.Arm(Op::kRead, l0);
  int errors = 0;
  for (int i = 0; i < 2000; i += 37) {
    std::string value;
    Status s = db()->Get(ReadOptions(), Key(i), &value);
    if (s.ok() || s.IsNotFound()) {
      // Only possible when the block is cached already (a previous Get read it).
      ASSERT_EQ(model.count(Key(i)) ? model[Key(i)] : "NOT_FOUND", s.ok() ? value : "NOT_FOUND");
      continue;
    }
    errors++;
    EXPECT_TRUE(s.IsIOError()) << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr(l0));
  }
  EXPECT_GT(errors, 0);
  EXPECT_EQ(errors, env_.failures(Op::kRead));
  // A transient fault: one read fails, the retry succeeds.
  env_.Arm(Op::kRead, l0, 0, /*times=*/1);
  std::string value;
  EXPECT_TRUE(db()->Get(ReadOptions(), Key(1999), &value).IsIOError());
  EXPECT_EQ(Value(1999), Get(Key(1999)));
  env_.Disarm();
  EXPECT_EQ("", Diff(model));
  EXPECT_OK(Put("still", "writable"));  // a read error does not stop writes
}

// An iterator that cannot read a block of the newer file stops with the IOError: it never
// shows the older versions (or deleted keys) of the file below instead, nor, backwards, the
// older of two versions when the block holding the newer one fails.
TEST_P(DBFaultTest, IterationOverAnUnreadableSstStopsWithTheIOError) {
  std::map<std::string, std::string> model;
  const std::string l0 = NewerL0OverOlderL1(3000, &model);
  const std::vector<std::pair<std::string, std::string>> expected(model.begin(), model.end());
  for (int after : {0, 1, 2, 3, 4, 5, 10}) {
    for (bool forward : {true, false}) {
      env_.Arm(Op::kRead, l0, after);
      ReadOptions ro;
      ro.fill_cache = false;  // every block is read from the file
      std::unique_ptr<Iterator> it = db()->NewIterator(ro);
      size_t n = 0;
      for (forward ? it->SeekToFirst() : it->SeekToLast(); it->Valid();
           forward ? it->Next() : it->Prev(), n++) {
        ASSERT_LT(n, expected.size());
        const auto& want = expected[forward ? n : expected.size() - 1 - n];
        ASSERT_EQ(want.first, it->key().ToString()) << "after " << after;
        ASSERT_EQ(want.second, it->value().ToString()) << "after " << after;
      }
      EXPECT_TRUE(it->status().IsIOError()) << after << ": " << it->status().ToString();
      EXPECT_THAT(it->status().ToString(), HasSubstr(l0));
      EXPECT_LT(n, expected.size());
      it.reset();
      env_.Disarm();
    }
  }
  EXPECT_EQ("", Diff(model));
}

// Opening an SST for reading fails (tables are opened lazily without paranoid checks): reads
// that need it return the IOError; once the fault is gone they answer.
TEST_P(DBFaultTest, FailingOpenOfAnSstIsTheIOError) {
  std::map<std::string, std::string> model;
  const std::string l0 = NewerL0OverOlderL1(500, &model);
  Close();
  Options o = FaultOptions();
  o.paranoid_checks = false;  // tables are not opened at DB::Open
  Open(o);
  env_.Arm(Op::kOpenRead, ".sst");
  const std::string got = Get(Key(1));
  EXPECT_THAT(got, HasSubstr("IO error"));
  EXPECT_THAT(got, HasSubstr(".sst"));
  std::unique_ptr<Iterator> it = db()->NewIterator(ReadOptions());
  it->SeekToFirst();
  EXPECT_FALSE(it->Valid());
  EXPECT_TRUE(it->status().IsIOError()) << it->status().ToString();
  it.reset();
  EXPECT_GE(env_.failures(Op::kOpenRead), 2);
  env_.Disarm();
  EXPECT_EQ("", Diff(model));
}

// Creating a database fails at each step of writing its first MANIFEST and CURRENT: Open
// returns the IOError, and the next Open (healthy) works: a MANIFEST that CURRENT may already
// name (the directory sync failed after the rename) is kept.
TEST_P(DBFaultTest, FailedCreationLeavesADatabaseThatOpens) {
  const std::pair<Op, const char*> faults[] = {{Op::kCreate, "MANIFEST"}, {Op::kAppend, "MANIFEST"},
                                               {Op::kSync, "MANIFEST"},   {Op::kCreate, ".dbtmp"},
                                               {Op::kRename, ".dbtmp"},   {Op::kSyncDir, ""}};
  for (const auto& [op, filter] : faults) {
    ASSERT_OK(DestroyDB(dbname(), Options()));
    env_.Arm(op, filter);
    Status s = TryOpen(FaultOptions());
    EXPECT_TRUE(s.IsIOError()) << FaultEnv::OpName(op) << ": " << s.ToString();
    EXPECT_THAT(s.ToString(), HasSubstr("(injected"));
    ASSERT_NO_FATAL_FAILURE(RecoverHealthy()) << FaultEnv::OpName(op) << " " << filter;
    ASSERT_OK(Put("k", "v"));
    ASSERT_NO_FATAL_FAILURE(Reopen(DefaultOptions()));
    EXPECT_EQ("v", Get("k"));
    Close();
  }
  EXPECT_EQ(6, env_.failures());
}

// Failing to delete obsolete files is no error: the database goes on, and the files are
// collected when it is next opened.
TEST_P(DBFaultTest, FailedRemovalsAreHarmless) {
  Options o = FaultOptions();
  o.level0_file_num_compaction_trigger = 2;
  Open(o);
  env_.Arm(Op::kRemove, "");
  std::map<std::string, std::string> model;
  for (int i = 0; i < 4000; i++) {
    ASSERT_OK(Put(Key(i % 1500), Value(i)));
    model[Key(i % 1500)] = Value(i);
  }
  ASSERT_OK(db()->CompactRange(nullptr, nullptr));
  EXPECT_GT(env_.failures(Op::kRemove), 0);
  EXPECT_GT(FilesWithSuffix(dbname(), ".sst").size(), static_cast<size_t>(TotalFiles()));
  EXPECT_EQ("", Diff(model));
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy(o));
  EXPECT_EQ("", Diff(model));
  EXPECT_EQ(FilesWithSuffix(dbname(), ".sst").size(), static_cast<size_t>(TotalFiles()));
  EXPECT_EQ(1u, FilesWithSuffix(dbname(), ".log").size());
}

// The same with another column family holding writes in that WAL: the flush must not make
// the first family's writes durable ahead of the other's (a power loss would then keep newer
// writes and lose older ones), so it fails and the database turns read-only; reopened, both
// families hold everything.
TEST_P(DBFaultTest, FailedFsyncOfAWalAnotherFamilyStillNeedsFailsTheFlush) {
  Open(FaultOptions());
  ColumnFamilyHandle* other = nullptr;
  ColumnFamilyOptions family_options = FaultOptions();
  ASSERT_OK(db()->CreateColumnFamily(family_options, "other", &other));
  for (int i = 0; i < 300; i++) ASSERT_OK(Put(Key(i), Value(i)));
  ASSERT_OK(db()->Put(WriteOptions(), other, "o", "1"));
  env_.Arm(Op::kSync, ".log", 0, /*times=*/1);
  Status s = db()->Flush();
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
  EXPECT_EQ(1, env_.failures(Op::kSync));
  EXPECT_FALSE(db()->Put(WriteOptions(), "after", "x").ok());  // read-only now
  db_->Close();
  db_.reset();
  env_.Disarm();
  DBOptions db_options = DefaultOptions();
  std::vector<ColumnFamilyDescriptor> families = {{kDefaultColumnFamilyName, DefaultOptions()},
                                                  {"other", DefaultOptions()}};
  std::vector<ColumnFamilyHandle*> handles;
  ASSERT_OK(DB::Open(db_options, dbname(), families, &handles, &db_));
  for (int i = 0; i < 300; i++) ASSERT_EQ(Value(i), Get(Key(i)));
  std::string value;
  ASSERT_OK(db()->Get(ReadOptions(), handles[1], "o", &value));
  EXPECT_EQ("1", value);
}

// The fsync of a WAL whose component is being flushed fails: with no other column family
// holding writes there, its writes reach the SST file (synced) and the MANIFEST, so nothing
// depends on that WAL any more and nothing fails.
TEST_P(DBFaultTest, FailedFsyncOfAWalBeingFlushedIsHarmless) {
  Open(FaultOptions());
  for (int i = 0; i < 300; i++) ASSERT_OK(Put(Key(i), Value(i)));
  env_.Arm(Op::kSync, ".log", 0, /*times=*/1);
  ASSERT_OK(db()->Flush());
  EXPECT_EQ(1, env_.failures(Op::kSync));
  ASSERT_OK(Put("after", "flush", /*sync=*/true));
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy());
  for (int i = 0; i < 300; i++) ASSERT_EQ(Value(i), Get(Key(i)));
  EXPECT_EQ("flush", Get("after"));
}

// The WAL fails under concurrent writers: each writer's failing write and every later one
// fail; after reopening each writer's keys are a prefix holding every acknowledged write, plus
// at most the one write whose record was handed to the OS in a batch that then failed.
TEST_P(DBFaultTest, WalFailureUnderConcurrentWriters) {
  Open(FaultOptions());
  constexpr int kThreads = 4;
  std::vector<int> acked(kThreads, 0);
  std::vector<Status> failed(kThreads);
  env_.Arm(Op::kAppend, ".log", /*after=*/3000);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100000; i++) {
        Status s = Put(Key(t * 100000 + i), Value(i));
        if (!s.ok()) {
          failed[t] = s;
          return;
        }
        acked[t] = i + 1;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; t++) {
    EXPECT_TRUE(failed[t].IsIOError()) << t << ": " << failed[t].ToString();
  }
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy());
  for (int t = 0; t < kThreads; t++) {
    int n = 0;
    while (Get(Key(t * 100000 + n)) == Value(n)) n++;
    EXPECT_GE(n, acked[t]) << "writer " << t;
    EXPECT_LE(n, acked[t] + 1) << "writer " << t;
    for (int i = n; i < n + 20; i++) ASSERT_EQ("NOT_FOUND", Get(Key(t * 100000 + i)));
  }
}

// The disk freezes at a random instant under concurrent writers (a crash of the process):
// every write acknowledged before the freeze is recovered.
TEST_P(DBFaultTest, CrashUnderConcurrentWritersKeepsAcknowledgedWrites) {
  Options o = FaultOptions();
  o.write_buffer_size = 32 << 10;  // switches, flushes and compactions happen during the run
  o.level0_file_num_compaction_trigger = 2;
  Open(o);
  constexpr int kThreads = 3;
  std::vector<std::atomic<int>> acked(kThreads);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; !stop.load(); i++) {
        if (!Put(Key(t * 1000000 + i), Value(i)).ok()) break;
        acked[t].store(i + 1);
      }
    });
  }
  while (acked[0].load() + acked[1].load() + acked[2].load() < 6000) std::this_thread::yield();
  std::vector<int> before(kThreads);
  for (int t = 0; t < kThreads; t++) before[t] = acked[t].load();
  env_.Freeze();
  std::vector<int> at_freeze(kThreads);
  for (int t = 0; t < kThreads; t++) at_freeze[t] = acked[t].load();
  stop.store(true);
  for (auto& th : threads) th.join();
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy());
  for (int t = 0; t < kThreads; t++) {
    // Every write acknowledged before the freeze is there; per writer the recovered writes form
    // a prefix (sequence order follows each writer's program order).
    for (int i = 0; i < at_freeze[t]; i++) {
      ASSERT_EQ(Value(i), Get(Key(t * 1000000 + i))) << "writer " << t << " write " << i;
    }
    int n = 0;
    while (Get(Key(t * 1000000 + n)) == Value(n)) n++;
    for (int i = n; i < n + 50; i++) ASSERT_EQ("NOT_FOUND", Get(Key(t * 1000000 + i)));
    EXPECT_GE(n, before[t]);
  }
}

// A power loss: only synced data survives. Every write acknowledged with sync=true is there.
TEST_P(DBFaultTest, PowerLossKeepsSyncedWrites) {
  Options o = FaultOptions();
  o.write_buffer_size = 32 << 10;
  Open(o);
  for (int i = 0; i < 3000; i++) {
    ASSERT_OK(Put(Key(i), Value(i), /*sync=*/i % 10 == 0));
  }
  env_.Freeze();
  env_.DropUnsyncedData();
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy());
  int n = 0;
  while (n < 3000 && Get(Key(n)) == Value(n)) n++;
  EXPECT_GE(n, 2991) << "the last synced write (2990) and everything before it survive";
  for (int i = n; i < 3000; i++) ASSERT_EQ("NOT_FOUND", Get(Key(i))) << "a hole at " << n;
}

// SyncWAL makes every write completed before it durable, across memory-component switches
// (small components: the writes span several WAL files, some not flushed yet).
TEST_P(DBFaultTest, SyncWALMakesEarlierUnsyncedWritesSurviveAPowerLoss) {
  Options o = FaultOptions();
  o.write_buffer_size = 32 << 10;
  Open(o);
  for (int i = 0; i < 3000; i++) {
    ASSERT_OK(Put(Key(i), Value(i)));
    if (i == 2000) {
      ASSERT_OK(db()->SyncWAL());
    }
  }
  ASSERT_OK(db()->SyncWAL());
  for (int i = 3000; i < 3100; i++) ASSERT_OK(Put(Key(i), Value(i)));  // not synced
  env_.Freeze();
  env_.DropUnsyncedData();
  ASSERT_NO_FATAL_FAILURE(RecoverHealthy());
  int n = 0;
  while (n < 3100 && Get(Key(n)) == Value(n)) n++;
  EXPECT_GE(n, 3000) << "every write before the last SyncWAL survives";
  for (int i = n; i < 3100; i++) ASSERT_EQ("NOT_FOUND", Get(Key(i))) << "a hole at " << n;
}

INSTANTIATE_TEST_SUITE_P(Components, DBFaultTest, ::testing::ValuesIn(kComponents),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return Safe(info.param);
                         });

}  // namespace sluice::test
