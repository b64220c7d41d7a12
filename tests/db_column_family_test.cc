// Column families: each family is a keyspace of its own (its own memory component kind,
// options, files), all of them share the WAL (a batch across families is atomic, also through
// recovery), snapshots see one state across them, MultiGet reads across them, and every data
// call takes a handle. Opening names every family or is refused naming the missing ones;
// create and drop write the MANIFEST and survive reopening; a dropped family's handle is
// refused and its files go; bad handles and names are clear errors that apply nothing; a
// family with nothing in memory does not keep old WAL files alive; writers, readers, flushes
// and drops run concurrently (under ThreadSanitizer in that build).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "util/epoch.h"

namespace sluice::test {
namespace {

class ColumnFamilyTest : public ::testing::Test {
 protected:
  ~ColumnFamilyTest() override { Close(); }

  static DBOptions DatabaseOptions() {
    DBOptions o;
    o.create_if_missing = true;
    o.block_cache_size = 1 << 20;
    return o;
  }
  static ColumnFamilyOptions FamilyOptions(const std::string& memtable) {
    ColumnFamilyOptions o;
    o.memtable = memtable;
    o.write_buffer_size = 64 << 10;
    o.target_file_size_base = 64 << 10;
    o.max_bytes_for_level_base = 256 << 10;
    return o;
  }

  // Opens with the named families (the default one first, then the others in order), each
  // with the memory component of `memtables` (cycled).
  Status TryOpen(const std::vector<std::string>& names, const DBOptions& db_options) {
    Close();
    std::vector<ColumnFamilyDescriptor> families;
    for (size_t i = 0; i < names.size(); i++) {
      families.emplace_back(names[i], FamilyOptions(kMemtables[i % kMemtables.size()]));
    }
    handles_.clear();
    return DB::Open(db_options, dir_.path(), families, &handles_, &db_);
  }
  void Open(const std::vector<std::string>& names) {
    ASSERT_OK(TryOpen(names, DatabaseOptions()));
    ASSERT_EQ(names.size(), handles_.size());
    for (size_t i = 0; i < names.size(); i++) ASSERT_EQ(names[i], handles_[i]->GetName());
  }
  void Close() {
    if (db_ != nullptr) {
      ASSERT_OK(db_->Close());
    }
    db_.reset();
    handles_.clear();
  }
  ColumnFamilyHandle* Create(const std::string& name, const std::string& memtable) {
    ColumnFamilyHandle* h = nullptr;
    EXPECT_OK(db_->CreateColumnFamily(FamilyOptions(memtable), name, &h));
    handles_.push_back(h);
    return h;
  }
  std::string Get(ColumnFamilyHandle* family, const std::string& key,
                  const Snapshot* snapshot = nullptr) {
    ReadOptions ro;
    ro.snapshot = snapshot;
    std::string value;
    Status s = db_->Get(ro, family, key, &value);
    if (s.IsNotFound()) return "NOT_FOUND";
    return s.ok() ? value : s.ToString();
  }
  std::string Contents(ColumnFamilyHandle* family) {
    std::string r;
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions(), family);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (!r.empty()) r += ", ";
      r += it->key().ToString() + "->" + it->value().ToString();
    }
    EXPECT_OK(it->status());
    return r;
  }
  std::vector<std::string> List() {
    std::vector<std::string> names;
    EXPECT_OK(DB::ListColumnFamilies(DatabaseOptions(), dir_.path(), &names));
    return names;
  }

  inline static const std::vector<std::string> kMemtables = {"flodb",  "hash-linklist", "skiplist",
                                                             "vector", "hash-skiplist", "adaptive"};
  TempDir dir_;
  std::unique_ptr<DB> db_;
  std::vector<ColumnFamilyHandle*> handles_;
};

TEST_F(ColumnFamilyTest, FamiliesAreSeparateKeyspacesThatSurviveReopening) {
  Open({"default"});
  ColumnFamilyHandle* users = Create("users", "hash-linklist");
  ColumnFamilyHandle* logs = Create("logs", "skiplist");
  EXPECT_NE(users->GetID(), logs->GetID());
  EXPECT_EQ("users", users->GetName());
  const WriteOptions wo;
  ASSERT_OK(db_->Put(wo, "k", "default"));
  ASSERT_OK(db_->Put(wo, users, "k", "users"));
  ASSERT_OK(db_->Put(wo, logs, "k", "logs"));
  ASSERT_OK(db_->Put(wo, users, "only-users", "1"));
  EXPECT_EQ("default", Get(db_->DefaultColumnFamily(), "k"));
  EXPECT_EQ("users", Get(users, "k"));
  EXPECT_EQ("logs", Get(logs, "k"));
  EXPECT_EQ("NOT_FOUND", Get(logs, "only-users"));
  EXPECT_EQ("k->users, only-users->1", Contents(users));
  // Each family's flush writes its own L0 file.
  ASSERT_OK(db_->Flush(users));
  std::string files;
  ASSERT_TRUE(db_->GetProperty(users, "sluice.num-files-at-level0", &files));
  EXPECT_EQ("1", files);
  ASSERT_TRUE(db_->GetProperty(logs, "sluice.num-files-at-level0", &files));
  EXPECT_EQ("0", files);
  ASSERT_OK(db_->Delete(wo, logs, "k"));
  EXPECT_EQ((std::vector<std::string>{"default", "users", "logs"}), List());

  // Reopened: the users family from its SST, the others from the shared WAL.
  Open({"default", "users", "logs"});
  EXPECT_EQ("default", Get(handles_[0], "k"));
  EXPECT_EQ("users", Get(handles_[1], "k"));
  EXPECT_EQ("1", Get(handles_[1], "only-users"));
  EXPECT_EQ("NOT_FOUND", Get(handles_[2], "k"));
  // A family's options are its own: reopened with another memory component, it still reads.
  Close();
  std::vector<ColumnFamilyDescriptor> families = {{"default", FamilyOptions("vector")},
                                                  {"users", FamilyOptions("flodb")},
                                                  {"logs", FamilyOptions("hash-skiplist")}};
  ASSERT_OK(DB::Open(DatabaseOptions(), dir_.path(), families, &handles_, &db_));
  EXPECT_EQ("users", Get(handles_[1], "k"));
}

TEST_F(ColumnFamilyTest, OpeningMustNameEveryFamily) {
  Open({"default"});
  Create("a", "flodb");
  Create("b", "skiplist");
  Close();
  // DB::Open without families, or naming only some: refused, naming the missing ones.
  Options options;
  Status s = DB::Open(options, dir_.path(), &db_);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("a, b")) << s.ToString();
  EXPECT_EQ(nullptr, db_);
  s = TryOpen({"default", "b"}, DatabaseOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find(": a")) << s.ToString();
  // The default family must be among those opened.
  s = TryOpen({"a", "b"}, DatabaseOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("default")) << s.ToString();
  // A family the database lacks: refused, naming it, unless create_missing_column_families.
  s = TryOpen({"default", "a", "b", "c"}, DatabaseOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("named c")) << s.ToString();
  // The same name twice.
  s = TryOpen({"default", "a", "a", "b"}, DatabaseOptions());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("\"a\" is named twice")) << s.ToString();
  DBOptions create = DatabaseOptions();
  create.create_missing_column_families = true;
  ASSERT_OK(TryOpen({"default", "a", "b", "c"}, create));
  ASSERT_EQ(4u, handles_.size());
  EXPECT_EQ("c", handles_[3]->GetName());
  ASSERT_OK(db_->Put(WriteOptions(), handles_[3], "x", "y"));
  EXPECT_EQ((std::vector<std::string>{"default", "a", "b", "c"}), List());
  Open({"default", "c", "a", "b"});  // any order
  EXPECT_EQ("y", Get(handles_[1], "x"));
}

TEST_F(ColumnFamilyTest, BatchAcrossFamiliesIsAtomicAndRecoveredWhole) {
  Open({"default"});
  ColumnFamilyHandle* a = Create("a", "flodb");
  ColumnFamilyHandle* b = Create("b", "hash-linklist");
  const Snapshot* before = db_->GetSnapshot();
  WriteBatch batch;
  batch.Put(a, "k", "in-a");
  batch.Put(b, "k", "in-b");
  batch.Put("k", "in-default");
  batch.Delete(a, "gone");
  batch.DeleteRange(b, "r0", "r9");
  ASSERT_OK(db_->Write(WriteOptions(), &batch));
  EXPECT_EQ("NOT_FOUND", Get(a, "k", before));
  EXPECT_EQ("NOT_FOUND", Get(b, "k", before));
  EXPECT_EQ("in-a", Get(a, "k"));
  EXPECT_EQ("in-b", Get(b, "k"));
  EXPECT_EQ("in-default", Get(db_->DefaultColumnFamily(), "k"));
  db_->ReleaseSnapshot(before);
  // One family flushed, the other not: recovery replays the WAL into the second only.
  ASSERT_OK(db_->Flush(a));
  Open({"default", "a", "b"});
  EXPECT_EQ("in-a", Get(handles_[1], "k"));
  EXPECT_EQ("in-b", Get(handles_[2], "k"));
  EXPECT_EQ("in-default", Get(handles_[0], "k"));
  EXPECT_EQ("k->in-a", Contents(handles_[1]));
}

TEST_F(ColumnFamilyTest, SnapshotsAndMultiGetSeeOneStateAcrossFamilies) {
  Open({"default"});
  ColumnFamilyHandle* a = Create("a", "skiplist");
  ColumnFamilyHandle* b = Create("b", "flodb");
  ASSERT_OK(db_->Put(WriteOptions(), a, "x", "a1"));
  ASSERT_OK(db_->Put(WriteOptions(), b, "x", "b1"));
  const Snapshot* snap = db_->GetSnapshot();
  ASSERT_OK(db_->Put(WriteOptions(), a, "x", "a2"));
  ASSERT_OK(db_->Put(WriteOptions(), b, "x", "b2"));
  ASSERT_OK(db_->Flush(a));
  EXPECT_EQ("a1", Get(a, "x", snap));
  EXPECT_EQ("b1", Get(b, "x", snap));
  std::vector<std::string> values;
  ReadOptions ro;
  ro.snapshot = snap;
  std::vector<Status> st =
      db_->MultiGet(ro, {a, b, db_->DefaultColumnFamily(), a}, {"x", "x", "x", "y"}, &values);
  ASSERT_EQ(4u, st.size());
  EXPECT_OK(st[0]);
  EXPECT_EQ("a1", values[0]);
  EXPECT_OK(st[1]);
  EXPECT_EQ("b1", values[1]);
  EXPECT_TRUE(st[2].IsNotFound());
  EXPECT_TRUE(st[3].IsNotFound());
  st = db_->MultiGet(ReadOptions(), {b, a}, {"x", "x"}, &values);
  EXPECT_EQ("b2", values[0]);
  EXPECT_EQ("a2", values[1]);
  db_->ReleaseSnapshot(snap);
}

TEST_F(ColumnFamilyTest, EveryCallTakesAFamily) {
  Open({"default"});
  ColumnFamilyHandle* f = Create("f", "hash-skiplist");
  const WriteOptions wo;
  bool did = false;
  ASSERT_OK(db_->PutIfAbsent(wo, f, "p", "1", &did));
  EXPECT_TRUE(did);
  ASSERT_OK(db_->CompareAndSwap(wo, f, "p", nullptr, "2", &did));
  EXPECT_FALSE(did);
  const std::string one = "1";
  ASSERT_OK(db_->CompareAndSwap(wo, f, "p", &one, "2", &did));
  EXPECT_TRUE(did);
  int64_t n = 0;
  ASSERT_OK(db_->Increment(wo, f, "n", 5, &n));
  EXPECT_EQ(5, n);
  std::string result;
  ASSERT_OK(db_->ReadModifyWrite(
      wo, f, "p", [](const std::string* v) { return *v + "+"; }, &result));
  EXPECT_EQ("2+", result);
  EXPECT_EQ("NOT_FOUND", Get(db_->DefaultColumnFamily(), "p"));
  for (int i = 0; i < 10; i++) ASSERT_OK(db_->Put(wo, f, "r" + std::to_string(i), "v"));
  ASSERT_OK(db_->DeleteRange(wo, f, "r2", "r8"));
  std::vector<std::pair<std::string, std::string>> scanned;
  ASSERT_OK(db_->Scan(ReadOptions(), f, "r", "s", 100, &scanned));
  ASSERT_EQ(4u, scanned.size());
  EXPECT_EQ("r9", scanned.back().first);
  ASSERT_OK(db_->CompactRange(f, nullptr, nullptr));
  EXPECT_EQ("2+", Get(f, "p"));
  std::string stats;
  ASSERT_TRUE(db_->GetProperty(f, "sluice.stats-json", &stats));
  EXPECT_NE(std::string::npos, stats.find("\"column_family\":\"f\"")) << stats;
}

TEST_F(ColumnFamilyTest, DroppedFamilyIsGoneAndItsHandleRefused) {
  Open({"default"});
  ColumnFamilyHandle* doomed = Create("doomed", "flodb");
  for (int i = 0; i < 2000; i++) ASSERT_OK(db_->Put(WriteOptions(), doomed, Key(i), Value(i)));
  ASSERT_OK(db_->Flush(doomed));
  const size_t ssts = FilesWithSuffix(dir_.path(), ".sst").size();
  ASSERT_GT(ssts, 0u);
  std::unique_ptr<Iterator> open_iter = db_->NewIterator(ReadOptions(), doomed);
  ASSERT_OK(db_->DropColumnFamily(doomed));
  // An iterator opened before keeps reading what it saw.
  open_iter->SeekToFirst();
  ASSERT_TRUE(open_iter->Valid());
  EXPECT_EQ(Key(0), open_iter->key().ToString());
  open_iter.reset();
  std::string value;
  Status s = db_->Get(ReadOptions(), doomed, "k", &value);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("\"doomed\" was dropped")) << s.ToString();
  s = db_->Put(WriteOptions(), doomed, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_TRUE(db_->DropColumnFamily(doomed).IsInvalidArgument());
  WriteBatch batch;
  batch.Put("safe", "1");
  batch.Put(doomed, "k", "v");
  s = db_->Write(WriteOptions(), &batch);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ("NOT_FOUND", Get(db_->DefaultColumnFamily(), "safe"));  // nothing applied
  EXPECT_EQ((std::vector<std::string>{"default"}), List());
  // Its files go (the background thread deletes them; Close at the latest).
  Close();
  EXPECT_EQ(0u, FilesWithSuffix(dir_.path(), ".sst").size());
  // The name is free again, under a new id.
  Open({"default"});
  ColumnFamilyHandle* again = Create("doomed", "skiplist");
  EXPECT_EQ("NOT_FOUND", Get(again, Key(0)));
  EXPECT_GT(again->GetID(), 1u);
}

TEST_F(ColumnFamilyTest, BadInputIsAClearErrorAndAppliesNothing) {
  Open({"default"});
  ColumnFamilyHandle* h = nullptr;
  Status s = db_->CreateColumnFamily(FamilyOptions("flodb"), "", &h);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  Create("taken", "flodb");
  s = db_->CreateColumnFamily(FamilyOptions("flodb"), "taken", &h);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("\"taken\" already exists")) << s.ToString();
  EXPECT_EQ(nullptr, h);
  s = db_->CreateColumnFamily(FamilyOptions("no-such-memtable"), "bad", &h);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("\"bad\"")) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("memtable")) << s.ToString();
  s = db_->DropColumnFamily(db_->DefaultColumnFamily());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  ForeignColumnFamilyHandle foreign;
  s = db_->Put(WriteOptions(), &foreign, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(std::string::npos, s.ToString().find("Put: unknown column family handle"))
      << s.ToString();
  s = db_->Put(WriteOptions(), nullptr, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_FALSE(db_->NewIterator(ReadOptions(), &foreign)->status().ok());
  std::string v;
  EXPECT_FALSE(db_->GetProperty(&foreign, "sluice.stats", &v));
  EXPECT_TRUE(db_->Flush(&foreign).IsInvalidArgument());
  EXPECT_EQ((std::vector<std::string>{"default", "taken"}), List());
}

TEST_F(ColumnFamilyTest, AFamilyWithNothingInMemoryKeepsNoOldWalFiles) {
  Open({"default"});
  Create("idle", "flodb");
  ColumnFamilyHandle* busy = Create("busy", "skiplist");
  for (int round = 0; round < 5; round++) {
    for (int i = 0; i < 100; i++) ASSERT_OK(db_->Put(WriteOptions(), busy, Key(i), Value(round)));
    ASSERT_OK(db_->Flush(busy));
  }
  // The WAL files before the last flush went: neither the idle family nor the default one
  // (empty too) holds them back.
  EXPECT_LE(FilesWithSuffix(dir_.path(), ".log").size(), 2u);
  Open({"default", "idle", "busy"});
  EXPECT_EQ(Value(4), Get(handles_[2], Key(7)));
}

// A family with a trickle of writes holds old WAL files back; past max_total_wal_size it is
// flushed so they go (RocksDB's rule), and nothing of it is lost.
TEST_F(ColumnFamilyTest, ATrickleFamilyIsFlushedPastMaxTotalWalSize) {
  DBOptions o = DatabaseOptions();
  o.max_total_wal_size = 256 << 10;
  ASSERT_OK(TryOpen({"default"}, o));
  ColumnFamilyHandle* cold = Create("cold", "skiplist");
  ColumnFamilyHandle* hot = Create("hot", "skiplist");
  ASSERT_OK(db_->Put(WriteOptions(), cold, "c", "1"));
  // A flush lets WAL files go once it is installed and the retired WAL set is reclaimed (an
  // epoch grace period later): both are waited for before each count, so the count measures
  // the rule, not how far the background threads lag behind this loop (on a loaded machine
  // they lagged by two to five files).
  auto settle = [&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (ColumnFamilyHandle* f : {db_->DefaultColumnFamily(), cold, hot}) {
      std::string pending;
      while (db_->GetProperty(f, "sluice.mem-table-flush-pending", &pending) && pending != "0" &&
             std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    epoch::DrainAll();
  };
  size_t most_logs = 0;
  for (int i = 0; i < 20000; i++) {
    ASSERT_OK(db_->Put(WriteOptions(), hot, Key(i), Value(i)));
    if (i % 1000 == 0) {
      settle();
      most_logs = std::max(most_logs, FilesWithSuffix(dir_.path(), ".log").size());
    }
  }
  // 20000 x ~120 bytes is ~2.4 MB of WAL: without the rule every file since "c" would stay.
  EXPECT_LE(most_logs, 8u);
  std::string files;
  ASSERT_TRUE(db_->GetProperty(cold, "sluice.num-files-at-level0", &files));
  EXPECT_EQ("1", files);  // flushed for the rule
  Open({"default", "cold", "hot"});
  EXPECT_EQ("1", Get(handles_[1], "c"));
  EXPECT_EQ(Value(19999), Get(handles_[2], Key(19999)));
}

TEST_F(ColumnFamilyTest, ManyFamiliesWithMixedComponents) {
  Open({"default"});
  constexpr int kFamilies = 60;
  std::vector<std::string> names = {"default"};
  for (int f = 0; f < kFamilies; f++) {
    names.push_back("f" + std::to_string(f));
    Create(names.back(), kMemtables[f % kMemtables.size()]);
  }
  for (int i = 0; i < 3000; i++) {
    ColumnFamilyHandle* h = handles_[1 + i % kFamilies];
    ASSERT_OK(db_->Put(WriteOptions(), h, Key(i), h->GetName()));
  }
  ASSERT_OK(db_->Flush(handles_[5]));
  Open(names);
  for (int i = 0; i < 3000; i += 7) {
    ColumnFamilyHandle* h = handles_[1 + i % kFamilies];
    ASSERT_EQ(h->GetName(), Get(h, Key(i))) << i;
    ASSERT_EQ("NOT_FOUND", Get(handles_[1 + (i + 1) % kFamilies], Key(i))) << i;
  }
}

// Writers of single-family writes and of cross-family batches, readers that check each batch
// whole through a snapshot, flushes of every family, and a family created and dropped over
// and over, all at once.
TEST_F(ColumnFamilyTest, ConcurrentWritesReadsFlushesAndDrops) {
  Open({"default"});
  ColumnFamilyHandle* a = Create("a", "flodb");
  ColumnFamilyHandle* b = Create("b", "skiplist");
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; !stop.load(); i++) {
        WriteBatch batch;  // the same key and value in both families, atomically
        const std::string key = Key(i % 300);
        const std::string value = std::to_string(t) + ":" + std::to_string(i);
        batch.Put(a, key, value);
        batch.Put(b, key, value);
        if (!db_->Write(WriteOptions(), &batch).ok()) errors++;
        if (!db_->Put(WriteOptions(), Key(i % 50), value).ok()) errors++;
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; !stop.load(); i++) {
      const Snapshot* snap = db_->GetSnapshot();
      const std::string key = Key(i % 300);
      ReadOptions ro;
      ro.snapshot = snap;
      std::string va, vb;
      Status sa = db_->Get(ro, a, key, &va);
      Status sb = db_->Get(ro, b, key, &vb);
      if (sa.ok() != sb.ok() || va != vb) errors++;
      db_->ReleaseSnapshot(snap);
    }
  });
  threads.emplace_back([&] {
    for (int i = 0; !stop.load(); i++) {
      if (!db_->Flush(i % 2 == 0 ? a : b).ok()) errors++;
      ColumnFamilyHandle* temp = nullptr;
      if (!db_->CreateColumnFamily(FamilyOptions("vector"), "temp", &temp).ok()) errors++;
      if (temp != nullptr) {
        if (!db_->Put(WriteOptions(), temp, "k", "v").ok()) errors++;
        if (!db_->DropColumnFamily(temp).ok()) errors++;
      }
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  stop = true;
  for (auto& t : threads) t.join();
  EXPECT_EQ(0, errors.load());
  Open({"default", "a", "b"});
  std::unique_ptr<Iterator> ia = db_->NewIterator(ReadOptions(), handles_[1]);
  std::unique_ptr<Iterator> ib = db_->NewIterator(ReadOptions(), handles_[2]);
  for (ia->SeekToFirst(), ib->SeekToFirst(); ia->Valid() && ib->Valid(); ia->Next(), ib->Next()) {
    ASSERT_EQ(ia->key().ToString(), ib->key().ToString());
    ASSERT_EQ(ia->value().ToString(), ib->value().ToString());
  }
  EXPECT_FALSE(ia->Valid());
  EXPECT_FALSE(ib->Valid());
}

}  // namespace
}  // namespace sluice::test
