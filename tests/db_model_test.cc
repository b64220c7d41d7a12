// A randomized model test: thousands of random operations (puts, deletes, range deletions,
// batches mixing them) applied to the DB and to a std::map, with reopen, flush and compaction
// interleaved, checked through gets, MultiGet, iterators moving both ways from random seeks
// (with and without iteration bounds), and live snapshots (each with a frozen copy of the
// model). Runs over every memory component and several seeds.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "memory/memory_component.h"
#include "support/db_test_util.h"
#include "support/test_util.h"
#include "util/random.h"

namespace sluice::test {

namespace {

using Model = std::map<std::string, std::string>;

struct Params {
  std::string memtable;
  uint64_t seed;
};

void PrintTo(const Params& p, std::ostream* os) {
  *os << p.memtable << " seed " << p.seed << (p.seed % 2 == 0 ? " (mmap reads)" : "");
}

class DBModelTest : public DBTestBase, public ::testing::TestWithParam<Params> {
 public:
  DBModelTest() : DBTestBase(GetParam().memtable), rnd_(GetParam().seed) {}

 protected:
  std::string RandomKey() {
    // Mostly a small key space (many overwrites), sometimes a wider one.
    const int k =
        rnd_.OneIn(10) ? static_cast<int>(rnd_.Uniform(5000)) : static_cast<int>(rnd_.Uniform(300));
    return Key(k);
  }
  std::string RandomValue() {
    const size_t len = rnd_.OneIn(20) ? 1000 + rnd_.Uniform(4000) : rnd_.Uniform(120);
    return Value(static_cast<int>(rnd_.Uniform(1 << 20)), len);
  }

  // An iteration bound: mostly a key of the key space, sometimes a proper prefix of one, a key
  // extended by a byte, the empty string or "\xff" (bounds that compare differently from keys
  // of the stored length).
  std::string RandomBound() {
    std::string k = RandomKey();
    switch (rnd_.Uniform(8)) {
      case 0: return k.substr(0, rnd_.Uniform(k.size()));
      case 1: return k + std::string(1, static_cast<char>(rnd_.Uniform(256)));
      case 2: return rnd_.OneIn(2) ? std::string() : std::string("\xff");
      default: return k;
    }
  }

  // Walks an iterator and a model cursor together from a random starting operation, often with
  // random iterate_lower_bound / iterate_upper_bound (the model is then cut to [lower, upper)).
  void CheckIterator(const Model& full_model, const Snapshot* snap) {
    ReadOptions ro;
    ro.snapshot = snap;
    std::string lower, upper;
    Slice lower_slice, upper_slice;
    if (rnd_.OneIn(3)) {
      lower = RandomBound();
      lower_slice = lower;
      ro.iterate_lower_bound = &lower_slice;
    }
    if (rnd_.OneIn(3)) {
      upper = RandomBound();
      upper_slice = upper;
      ro.iterate_upper_bound = &upper_slice;
    }
    Model model;
    for (auto i = ro.iterate_lower_bound ? full_model.lower_bound(lower) : full_model.begin();
         i != full_model.end() && (!ro.iterate_upper_bound || i->first < upper); ++i) {
      model.insert(*i);
    }
    std::unique_ptr<Iterator> it = db()->NewIterator(ro);
    // The model position: model.end() means invalid.
    auto pos = model.end();
    const std::string target = RandomKey();
    const uint64_t how = rnd_.Uniform(4);
    SCOPED_TRACE("iterator " + std::string(snap != nullptr ? "at a snapshot" : "latest") +
                 ", start " + std::to_string(how) + " target " + target + " bounds [" +
                 (ro.iterate_lower_bound ? lower : "-") + ", " +
                 (ro.iterate_upper_bound ? upper : "-") + ")");
    switch (how) {
      case 0:
        it->SeekToFirst();
        pos = model.begin();
        break;
      case 1:
        it->SeekToLast();
        pos = model.empty() ? model.end() : std::prev(model.end());
        break;
      case 2:
        it->Seek(target);
        pos = model.lower_bound(target);
        break;
      default: {
        it->SeekForPrev(target);
        auto ub = model.upper_bound(target);
        pos = ub == model.begin() ? model.end() : std::prev(ub);
        break;
      }
    }
    std::string moves;  // the moves made so far, for the failure message
    for (int step = 0; step < 20; step++) {
      ASSERT_EQ(pos != model.end(), it->Valid()) << "after moves '" << moves << "'";
      if (!it->Valid()) break;
      ASSERT_EQ(pos->first, it->key().ToString()) << "after moves '" << moves << "'";
      ASSERT_EQ(pos->second, it->value().ToString()) << "after moves '" << moves << "'";
      if (rnd_.OneIn(3)) {
        moves += 'P';
        it->Prev();
        pos = pos == model.begin() ? model.end() : std::prev(pos);
      } else {
        moves += 'N';
        it->Next();
        ++pos;
      }
    }
    ASSERT_OK(it->status());
  }

  // A random range [*begin, *end) of the key space: mostly a few keys wide, sometimes wide.
  void RandomRange(std::string* begin, std::string* end) {
    const int first =
        rnd_.OneIn(10) ? static_cast<int>(rnd_.Uniform(5000)) : static_cast<int>(rnd_.Uniform(300));
    const int width =
        rnd_.OneIn(8) ? static_cast<int>(rnd_.Uniform(400)) : static_cast<int>(rnd_.Uniform(12));
    *begin = Key(first);
    *end = rnd_.OneIn(10) ? Key(first) + "\x01" : Key(first + width);
  }
  static void EraseRange(Model* m, const std::string& begin, const std::string& end) {
    if (begin >= end) return;
    m->erase(m->lower_bound(begin), m->lower_bound(end));
  }

  Random rnd_;
};

}  // namespace

TEST_P(DBModelTest, RandomOperationsMatchTheModel) {
  Options o = DefaultOptions();
  o.write_buffer_size = 32 << 10;
  o.level0_file_num_compaction_trigger = 2;
  o.target_file_size_base = 32 << 10;
  o.max_bytes_for_level_base = 128 << 10;
  // Even seeds read the tables through memory mappings (views of uncompressed blocks).
  o.allow_mmap_reads = GetParam().seed % 2 == 0;
  Open(o);
  Model model;
  std::vector<std::pair<const Snapshot*, Model>> snapshots;
  constexpr int kOps = 15000;
  for (int op = 0; op < kOps; op++) {
    const uint64_t r = rnd_.Uniform(1000);
    if (r < 380) {
      const std::string k = RandomKey(), v = RandomValue();
      ASSERT_OK(Put(k, v));
      model[k] = v;
    } else if (r < 500) {
      const std::string k = RandomKey();
      ASSERT_OK(Delete(k));
      model.erase(k);
    } else if (r < 530) {
      std::string begin, end;
      RandomRange(&begin, &end);
      ASSERT_OK(db()->DeleteRange(WriteOptions(), begin, end));
      EraseRange(&model, begin, end);
    } else if (r < 630) {
      WriteBatch batch;
      Model after = model;
      const int n = 1 + static_cast<int>(rnd_.Uniform(8));
      for (int i = 0; i < n; i++) {
        const std::string k = RandomKey();
        if (rnd_.OneIn(8)) {
          std::string begin, end;
          RandomRange(&begin, &end);
          batch.DeleteRange(begin, end);
          EraseRange(&after, begin, end);
        } else if (rnd_.OneIn(3)) {
          batch.Delete(k);
          after.erase(k);
        } else {
          const std::string v = RandomValue();
          batch.Put(k, v);
          after[k] = v;
        }
      }
      ASSERT_OK(db()->Write(WriteOptions(), &batch));
      model = std::move(after);
    } else if (r < 650) {
      // MultiGet: the model's answer for each key, at a snapshot too.
      std::vector<std::string> keys;
      const int n = 1 + static_cast<int>(rnd_.Uniform(20));
      for (int i = 0; i < n; i++) keys.push_back(RandomKey());
      ReadOptions ro;
      const Model* m = &model;
      if (!snapshots.empty() && rnd_.OneIn(2)) {
        const auto& entry = snapshots[rnd_.Uniform(snapshots.size())];
        ro.snapshot = entry.first;
        m = &entry.second;
      }
      std::vector<Slice> slices(keys.begin(), keys.end());
      std::vector<std::string> values;
      std::vector<Status> statuses = db()->MultiGet(ro, slices, &values);
      for (size_t i = 0; i < keys.size(); i++) {
        auto it = m->find(keys[i]);
        const std::string got = statuses[i].ok()           ? values[i]
                                : statuses[i].IsNotFound() ? "NOT_FOUND"
                                                           : statuses[i].ToString();
        ASSERT_EQ(it == m->end() ? "NOT_FOUND" : it->second, got)
            << "op " << op << " key " << keys[i];
      }
    } else if (r < 800) {
      const std::string k = RandomKey();
      auto it = model.find(k);
      ASSERT_EQ(it == model.end() ? "NOT_FOUND" : it->second, Get(k)) << "op " << op;
      if (!snapshots.empty()) {
        const auto& [snap, frozen] = snapshots[rnd_.Uniform(snapshots.size())];
        auto fit = frozen.find(k);
        ASSERT_EQ(fit == frozen.end() ? "NOT_FOUND" : fit->second, Get(k, snap)) << "op " << op;
      }
    } else if (r < 900) {
      if (!snapshots.empty() && rnd_.OneIn(2)) {
        const auto& [snap, frozen] = snapshots[rnd_.Uniform(snapshots.size())];
        CheckIterator(frozen, snap);
      } else {
        CheckIterator(model, nullptr);
      }
      if (HasFatalFailure()) return;
    } else if (r < 940) {
      if (snapshots.size() < 5) snapshots.emplace_back(db()->GetSnapshot(), model);
    } else if (r < 970) {
      if (!snapshots.empty()) {
        const size_t i = rnd_.Uniform(snapshots.size());
        db()->ReleaseSnapshot(snapshots[i].first);
        snapshots.erase(snapshots.begin() + static_cast<std::ptrdiff_t>(i));
      }
    } else if (r < 985) {
      ASSERT_OK(db()->Flush());
    } else if (r < 993) {
      std::string a = RandomKey(), b = RandomKey();
      if (b < a) std::swap(a, b);
      Slice sa(a), sb(b);
      ASSERT_OK(db()->CompactRange(rnd_.OneIn(4) ? nullptr : &sa, &sb));
    } else {
      for (auto& [snap, frozen] : snapshots) db()->ReleaseSnapshot(snap);
      snapshots.clear();
      // A clean close and reopen loses nothing (this caught FloDB components that looked
      // empty while their drain thread moved entries, so recovery skipped flushing them).
      Reopen();
      ASSERT_EQ(model, ContentsMap()) << "after reopen at op " << op;
    }
  }
  ASSERT_EQ(model, ContentsMap());
  for (auto& [snap, frozen] : snapshots) {
    ASSERT_EQ(frozen, ContentsMap(snap));
    db()->ReleaseSnapshot(snap);
  }
  Reopen();
  ASSERT_EQ(model, ContentsMap());
}

std::vector<Params> AllParams() {
  std::vector<Params> params;
  for (const std::string& m : MemoryComponentNames()) {
    for (uint64_t seed : {1, 2, 3, 4}) params.push_back({m, seed});
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(Seeds, DBModelTest, ::testing::ValuesIn(AllParams()),
                         [](const auto& info) {
                           std::string n = info.param.memtable;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n + "_seed" + std::to_string(info.param.seed);
                         });

}  // namespace sluice::test
