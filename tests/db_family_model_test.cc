// A randomized model test of column families: several families, each on a different memory
// component, driven by thousands of random operations (puts, deletes, range deletions, batches
// across families, MultiGet across families, flushes and compactions of one family, families
// created and dropped, reopening) applied to the DB and to one std::map per family, checked
// through gets, MultiGet, iterators from random seeks, and live snapshots (each with frozen
// copies of every family's model: one state across families).

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/db.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "util/random.h"

namespace sluice::test {
namespace {

using Model = std::map<std::string, std::string>;

class DBFamilyModelTest : public ::testing::TestWithParam<uint64_t> {
 protected:
  DBFamilyModelTest() : rnd_(GetParam()) {}
  ~DBFamilyModelTest() override {
    for (auto& s : snapshots_) db_->ReleaseSnapshot(s.snapshot);
    if (db_ != nullptr) {
      EXPECT_OK(db_->Close());
    }
  }

  struct Family {
    std::string name;
    std::string memtable;
    ColumnFamilyHandle* handle = nullptr;
    Model model;
  };
  struct SnapshotCopy {
    const Snapshot* snapshot;
    std::map<std::string, Model> models;  // by family name, as they were when it was taken
  };

  static ColumnFamilyOptions FamilyOptions(const std::string& memtable) {
    ColumnFamilyOptions o;
    o.memtable = memtable;
    o.write_buffer_size = 32 << 10;
    o.level0_file_num_compaction_trigger = 2;
    o.target_file_size_base = 32 << 10;
    o.max_bytes_for_level_base = 128 << 10;
    return o;
  }

  void OpenAll() {
    std::vector<ColumnFamilyDescriptor> descriptors;
    for (const Family& f : families_) descriptors.emplace_back(f.name, FamilyOptions(f.memtable));
    DBOptions o;
    o.create_if_missing = true;
    o.block_cache_size = 1 << 20;
    std::vector<ColumnFamilyHandle*> handles;
    ASSERT_OK(DB::Open(o, dir_.path(), descriptors, &handles, &db_));
    for (size_t i = 0; i < families_.size(); i++) families_[i].handle = handles[i];
  }
  void Reopen() {
    for (auto& s : snapshots_) db_->ReleaseSnapshot(s.snapshot);
    snapshots_.clear();
    ASSERT_OK(db_->Close());
    db_.reset();
    OpenAll();
  }
  void CreateFamily(const std::string& memtable) {
    Family f;
    f.name = "f" + std::to_string(next_family_++);
    f.memtable = memtable;
    ASSERT_OK(db_->CreateColumnFamily(FamilyOptions(memtable), f.name, &f.handle));
    families_.push_back(std::move(f));
  }

  Family& RandomFamily() { return families_[rnd_.Uniform(families_.size())]; }
  std::string RandomKey() {
    const int k =
        rnd_.OneIn(10) ? static_cast<int>(rnd_.Uniform(3000)) : static_cast<int>(rnd_.Uniform(200));
    return Key(k);
  }
  std::string RandomValue() {
    return Value(static_cast<int>(rnd_.Uniform(1 << 20)),
                 rnd_.OneIn(20) ? 1000 + rnd_.Uniform(3000) : rnd_.Uniform(100));
  }
  void RandomRange(std::string* begin, std::string* end) {
    const int first = static_cast<int>(rnd_.Uniform(rnd_.OneIn(10) ? 3000 : 200));
    *begin = Key(first);
    *end = Key(first + static_cast<int>(rnd_.Uniform(rnd_.OneIn(8) ? 300 : 10)));
  }
  static void EraseRange(Model* m, const std::string& begin, const std::string& end) {
    if (begin < end) m->erase(m->lower_bound(begin), m->lower_bound(end));
  }
  std::string Get(const Family& f, const std::string& key, const Snapshot* snapshot) {
    ReadOptions ro;
    ro.snapshot = snapshot;
    std::string value;
    Status s = db_->Get(ro, f.handle, key, &value);
    return s.ok() ? value : s.IsNotFound() ? "NOT_FOUND" : s.ToString();
  }
  static std::string Expected(const Model& m, const std::string& key) {
    auto it = m.find(key);
    return it == m.end() ? "NOT_FOUND" : it->second;
  }
  Model Contents(const Family& f, const Snapshot* snapshot) {
    ReadOptions ro;
    ro.snapshot = snapshot;
    Model m;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro, f.handle);
    for (it->SeekToFirst(); it->Valid(); it->Next())
      m[it->key().ToString()] = it->value().ToString();
    EXPECT_OK(it->status());
    return m;
  }
  // A seek then a few steps both ways, against the model.
  void CheckSeek(const Family& f, const Model& model, const Snapshot* snapshot) {
    ReadOptions ro;
    ro.snapshot = snapshot;
    std::unique_ptr<Iterator> it = db_->NewIterator(ro, f.handle);
    const std::string target = RandomKey();
    it->Seek(target);
    auto pos = model.lower_bound(target);
    for (int step = 0; step < 10; step++) {
      ASSERT_EQ(pos != model.end(), it->Valid()) << f.name << " seek " << target;
      if (!it->Valid()) break;
      ASSERT_EQ(pos->first, it->key().ToString()) << f.name;
      ASSERT_EQ(pos->second, it->value().ToString()) << f.name;
      if (rnd_.OneIn(3)) {
        it->Prev();
        pos = pos == model.begin() ? model.end() : std::prev(pos);
      } else {
        it->Next();
        ++pos;
      }
    }
    ASSERT_OK(it->status());
  }

  TempDir dir_;
  Random rnd_;
  std::unique_ptr<DB> db_;
  std::vector<Family> families_;
  std::vector<SnapshotCopy> snapshots_;
  int next_family_ = 0;
};

TEST_P(DBFamilyModelTest, RandomOperationsAcrossFamiliesMatchTheModels) {
  const std::vector<std::string> memtables = {"flodb",  "hash-linklist", "skiplist",
                                              "vector", "hash-skiplist", "adaptive"};
  families_.push_back({kDefaultColumnFamilyName, memtables[GetParam() % memtables.size()]});
  OpenAll();
  for (int i = 1; i <= 3; i++) CreateFamily(memtables[(GetParam() + i) % memtables.size()]);
  constexpr int kOps = 8000;
  for (int op = 0; op < kOps; op++) {
    SCOPED_TRACE("op " + std::to_string(op));
    const uint64_t r = rnd_.Uniform(1000);
    if (r < 330) {
      Family& f = RandomFamily();
      const std::string k = RandomKey(), v = RandomValue();
      ASSERT_OK(db_->Put(WriteOptions(), f.handle, k, v));
      f.model[k] = v;
    } else if (r < 430) {
      Family& f = RandomFamily();
      const std::string k = RandomKey();
      ASSERT_OK(db_->Delete(WriteOptions(), f.handle, k));
      f.model.erase(k);
    } else if (r < 450) {
      Family& f = RandomFamily();
      std::string begin, end;
      RandomRange(&begin, &end);
      ASSERT_OK(db_->DeleteRange(WriteOptions(), f.handle, begin, end));
      EraseRange(&f.model, begin, end);
    } else if (r < 570) {
      // A batch across families: applied to copies, which replace the models once written.
      WriteBatch batch;
      std::vector<Model> after;
      for (const Family& f : families_) after.push_back(f.model);
      const int n = 1 + static_cast<int>(rnd_.Uniform(8));
      for (int i = 0; i < n; i++) {
        const size_t fi = rnd_.Uniform(families_.size());
        const std::string k = RandomKey();
        if (rnd_.OneIn(8)) {
          std::string begin, end;
          RandomRange(&begin, &end);
          batch.DeleteRange(families_[fi].handle, begin, end);
          EraseRange(&after[fi], begin, end);
        } else if (rnd_.OneIn(3)) {
          batch.Delete(families_[fi].handle, k);
          after[fi].erase(k);
        } else {
          const std::string v = RandomValue();
          batch.Put(families_[fi].handle, k, v);
          after[fi][k] = v;
        }
      }
      ASSERT_OK(db_->Write(WriteOptions(), &batch));
      for (size_t i = 0; i < families_.size(); i++) families_[i].model = std::move(after[i]);
    } else if (r < 600) {
      // MultiGet with each key in a random family, at a snapshot or latest.
      const SnapshotCopy* snap = !snapshots_.empty() && rnd_.OneIn(2)
                                     ? &snapshots_[rnd_.Uniform(snapshots_.size())]
                                     : nullptr;
      std::vector<ColumnFamilyHandle*> handles;
      std::vector<std::string> keys, want;
      const int n = 1 + static_cast<int>(rnd_.Uniform(20));
      for (int i = 0; i < n; i++) {
        const Family& f = RandomFamily();
        if (snap != nullptr && snap->models.count(f.name) == 0) continue;  // created since
        handles.push_back(f.handle);
        keys.push_back(RandomKey());
        want.push_back(Expected(snap != nullptr ? snap->models.at(f.name) : f.model, keys.back()));
      }
      ReadOptions ro;
      ro.snapshot = snap != nullptr ? snap->snapshot : nullptr;
      std::vector<Slice> slices(keys.begin(), keys.end());
      std::vector<std::string> values;
      std::vector<Status> statuses = db_->MultiGet(ro, handles, slices, &values);
      for (size_t i = 0; i < keys.size(); i++) {
        const std::string got = statuses[i].ok()           ? values[i]
                                : statuses[i].IsNotFound() ? "NOT_FOUND"
                                                           : statuses[i].ToString();
        ASSERT_EQ(want[i], got) << "key " << keys[i];
      }
    } else if (r < 760) {
      const Family& f = RandomFamily();
      const std::string k = RandomKey();
      ASSERT_EQ(Expected(f.model, k), Get(f, k, nullptr)) << f.name;
      if (!snapshots_.empty()) {
        const SnapshotCopy& s = snapshots_[rnd_.Uniform(snapshots_.size())];
        if (s.models.count(f.name) > 0) {
          ASSERT_EQ(Expected(s.models.at(f.name), k), Get(f, k, s.snapshot)) << f.name;
        }
      }
    } else if (r < 860) {
      const Family& f = RandomFamily();
      if (!snapshots_.empty() && rnd_.OneIn(2)) {
        const SnapshotCopy& s = snapshots_[rnd_.Uniform(snapshots_.size())];
        if (s.models.count(f.name) > 0) CheckSeek(f, s.models.at(f.name), s.snapshot);
      } else {
        CheckSeek(f, f.model, nullptr);
      }
      if (HasFatalFailure()) return;
    } else if (r < 900) {
      if (snapshots_.size() < 4) {
        SnapshotCopy s{db_->GetSnapshot(), {}};
        for (const Family& f : families_) s.models[f.name] = f.model;
        snapshots_.push_back(std::move(s));
      }
    } else if (r < 930) {
      if (!snapshots_.empty()) {
        const size_t i = rnd_.Uniform(snapshots_.size());
        // Every family at once: one state across them.
        for (const Family& f : families_) {
          if (snapshots_[i].models.count(f.name) > 0) {
            ASSERT_EQ(snapshots_[i].models.at(f.name), Contents(f, snapshots_[i].snapshot))
                << f.name;
          }
        }
        db_->ReleaseSnapshot(snapshots_[i].snapshot);
        snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    } else if (r < 960) {
      ASSERT_OK(db_->Flush(RandomFamily().handle));
    } else if (r < 975) {
      ASSERT_OK(db_->CompactRange(RandomFamily().handle, nullptr, nullptr));
    } else if (r < 985) {
      // Drop a family (never the default one) or create one, keeping 2..6 families.
      if (families_.size() > 2 && (families_.size() >= 6 || rnd_.OneIn(2))) {
        const size_t i = 1 + rnd_.Uniform(families_.size() - 1);
        ASSERT_OK(db_->DropColumnFamily(families_[i].handle));
        for (auto& s : snapshots_) s.models.erase(families_[i].name);
        families_.erase(families_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        CreateFamily(memtables[rnd_.Uniform(memtables.size())]);
      }
    } else {
      Reopen();
      for (const Family& f : families_) {
        ASSERT_EQ(f.model, Contents(f, nullptr)) << f.name << " after reopen";
      }
    }
  }
  for (const Family& f : families_) ASSERT_EQ(f.model, Contents(f, nullptr)) << f.name;
  Reopen();
  for (const Family& f : families_) ASSERT_EQ(f.model, Contents(f, nullptr)) << f.name;
  std::vector<std::string> names;
  ASSERT_OK(DB::ListColumnFamilies(DBOptions(), dir_.path(), &names));
  ASSERT_EQ(families_.size(), names.size());
}

INSTANTIATE_TEST_SUITE_P(Seeds, DBFamilyModelTest, ::testing::Values(1, 2, 3, 4, 5, 6),
                         [](const auto& info) { return "seed" + std::to_string(info.param); });

}  // namespace
}  // namespace sluice::test
