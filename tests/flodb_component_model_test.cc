// Tests of the "flodb" component on its own: a randomized model check of point reads (latest
// and at snapshots) and scans while the drain thread runs, with tiny buckets so every path
// (bucket full, late writes, freezes) is taken.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "db/snapshot_list.h"
#include "memory/flodb/flodb_component.h"
#include "memory/flodb/flodb_stats.h"
#include "support/test_util.h"
#include "util/epoch.h"
#include "util/random.h"

namespace sluice {

namespace {

using test::Key;

struct Versioned {
  std::map<std::string, std::map<SequenceNumber, std::string>> versions;  // "" = deleted
  // The state at read point `seq`: every key whose newest version <= seq is not a deletion.
  std::map<std::string, std::string> At(SequenceNumber seq) const {
    std::map<std::string, std::string> out;
    for (const auto& [k, vs] : versions) {
      auto it = vs.upper_bound(seq);
      if (it == vs.begin()) continue;
      --it;
      if (!it->second.empty()) out[k] = it->second;
    }
    return out;
  }
};

// What a component sees of its DB: the snapshots and the last sequence number.
struct ComponentEnvironment {
  SnapshotList snapshots;
  std::atomic<SequenceNumber> last{0};
  MemoryComponentContext context;
  ComponentEnvironment() {
    context.keeper = &snapshots;
    context.announced_sequence = [this] { return last.load(); };
  }
};

class FloDBComponentModelTest : public ::testing::TestWithParam<int> {};

}  // namespace

TEST_P(FloDBComponentModelTest, MatchesAModelWithSnapshotsAndScans) {
  ComponentEnvironment env;
  SnapshotList& snapshots = env.snapshots;
  std::atomic<SequenceNumber>& last = env.last;
  FloDBOptions options;
  options.write_buffer_size = 64 << 10;
  options.bucket_slots = GetParam();
  options.partition_bits = 2;
  FloDBComponent c(options, env.context);

  Random rnd(GetParam() * 7 + 1);
  Versioned model;
  std::vector<const Snapshot*> live;
  for (int op = 0; op < 20000; op++) {
    const uint64_t r = rnd.Uniform(100);
    const std::string k = Key(static_cast<int>(rnd.Uniform(200)));
    if (r < 50) {
      const SequenceNumber seq = last.load() + 1;
      const bool del = rnd.OneIn(4);
      std::string v;
      if (!del) v.append("v").append(std::to_string(op));  // GCC 12 -Wrestrict
      c.Add(seq, del ? kTypeDeletion : kTypeValue, k, v, /*keep_older=*/rnd.OneIn(10));
      last.store(seq);
      model.versions[k][seq] = v;
    } else if (r < 80) {
      const bool at_snapshot = !live.empty() && rnd.OneIn(2);
      const SequenceNumber seq =
          at_snapshot ? live[rnd.Uniform(live.size())]->sequence() : kMaxSequenceNumber;
      const auto state = model.At(seq);
      auto want = state.find(k);
      MemoryLookup got;
      epoch::Guard guard;
      const bool found = c.Get(k, seq, &got) && got.type == kTypeValue;
      ASSERT_EQ(want != state.end(), found) << "op " << op << " key " << k << " at " << seq;
      if (found) {
        ASSERT_EQ(want->second, got.value) << "op " << op;
      }
    } else if (r < 90) {
      // A scan at a snapshot (or at a fresh registered read point), compared whole.
      const Snapshot* s;
      if (!live.empty() && rnd.OneIn(2)) {
        s = live[rnd.Uniform(live.size())];
        bool pig;
        c.PrepareScan(true, &pig);
      } else {
        s = snapshots.CreateProtected([&] {
          bool pig;
          return c.PrepareScan(false, &pig);
        });
        live.push_back(s);
      }
      std::map<std::string, std::string> seen;
      auto it = c.NewIterator();
      std::string skip;
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ParsedInternalKey ikey;
        ASSERT_TRUE(ParseInternalKey(it->key(), &ikey));
        if (ikey.sequence > s->sequence()) continue;
        const std::string user = ikey.user_key.ToString();
        if (user == skip) continue;
        skip = user;
        if (ikey.type == kTypeValue) seen[user] = it->value().ToString();
      }
      ASSERT_EQ(model.At(s->sequence()), seen) << "op " << op << " scan at " << s->sequence();
    } else if (r < 95) {
      if (live.size() < 4) {
        live.push_back(snapshots.CreateProtected([&] { return last.load(); }));
      }
    } else if (!live.empty()) {
      const size_t i = rnd.Uniform(live.size());
      snapshots.Release(live[i]);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  for (const Snapshot* s : live) snapshots.Release(s);
}

INSTANTIATE_TEST_SUITE_P(BucketSlots, FloDBComponentModelTest, ::testing::Values(1, 2, 6));

// NumEntries() is how the DB decides whether a component has anything to flush (recovery,
// forced flushes, close with unlogged writes): it must never miss an entry that the drain
// thread is moving from the Membuffer to the Memtable. With distinct keys and no snapshots
// the count only grows, so a reader must always see at least the adds that returned before
// its read. (Reading the Memtable's count before the Membuffer's missed a batch in transit.)
TEST(FloDBComponentTest, NumEntriesNeverMissesEntriesBeingDrained) {
  ComponentEnvironment env;
  std::atomic<SequenceNumber>& last = env.last;
  FloDBOptions options;
  options.write_buffer_size = 4 << 20;
  options.partition_bits = 2;
  FloDBComponent c(options, env.context);
  constexpr int kAdds = 200000;
  std::atomic<int> added{0};
  std::atomic<bool> done{false};
  std::atomic<int64_t> worst{0};  // the largest shortfall seen
  std::thread reader([&] {
    while (!done.load()) {
      const int before = added.load(std::memory_order_acquire);
      const auto n = static_cast<int64_t>(c.NumEntries());
      if (before - n > worst.load()) worst.store(before - n);
    }
  });
  for (int i = 0; i < kAdds; i++) {
    c.Add(static_cast<SequenceNumber>(i + 1), kTypeValue, Key(i), "v", /*keep_older=*/false);
    last.store(static_cast<SequenceNumber>(i + 1));
    added.store(i + 1, std::memory_order_release);
  }
  done.store(true);
  reader.join();
  EXPECT_EQ(0, worst.load()) << "NumEntries() missed entries being drained";
  c.MarkImmutable();
  EXPECT_EQ(static_cast<uint64_t>(kAdds), c.NumEntries());
}

// A key whose bucket has no free slot goes straight to the sorted level. Only a spent byte
// budget makes a writer help the drain: a chunk of the partition rarely holds the entries of
// the full bucket, so after such a help the retry failed again, and a large Membuffer, where a
// few buckets always hold more keys than slots, had its writers move 256 entries for nothing
// on every write to those keys.
TEST(FloDBComponentTest, AFullBucketSendsTheWriteBelowWithoutHelpingTheDrain) {
  ComponentEnvironment env;
  FloDBOptions options;
  options.write_buffer_size = 4 << 20;  // a 1 MiB budget: far more than the writes below
  options.bucket_slots = 1;             // and one slot per bucket: collisions fill buckets
  auto stats = std::make_shared<FloDBStats>();
  FloDBComponent c(options, env.context, stats);
  constexpr int kKeys = 3000;
  for (int i = 0; i < kKeys; i++) {
    c.Add(static_cast<SequenceNumber>(i + 1), kTypeValue, Key(i), "v" + std::to_string(i),
          /*keep_older=*/false);
    env.last.store(static_cast<SequenceNumber>(i + 1));
  }
  EXPECT_GT(stats->memtable_full.Get(), 0u);  // some buckets were full
  EXPECT_EQ(0u, stats->overflow_helps.Get());
  for (int i = 0; i < kKeys; i++) {
    MemoryLookup got;
    epoch::Guard guard;
    ASSERT_TRUE(c.Get(Key(i), kMaxSequenceNumber, &got)) << i;
    EXPECT_EQ("v" + std::to_string(i), got.value) << i;
  }
}

// The drain policy holds the Membuffer's entries (a larger budget, drained late) only while the
// writers and drain threads outnumber the cores and updates find their key in the Membuffer
// often enough: one writer updating a few keys on a machine of one core, but neither with 64
// cores nor when every write is a new key.
TEST(FloDBComponentTest, HoldsEntriesOnlyWhenWritersLackCoresAndUpdatesHit) {
  struct Case {
    int cores;
    bool distinct_keys;
    bool holds;
  };
  for (const Case& t : {Case{1, false, true}, Case{64, false, false}, Case{1, true, false}}) {
    ComponentEnvironment env;
    FloDBOptions options;
    options.write_buffer_size = 64 << 20;
    options.cores = t.cores;
    auto stats = std::make_shared<FloDBStats>();
    FloDBComponent c(options, env.context, stats);
    SequenceNumber seq = 0;
    std::map<int, SequenceNumber> newest;  // the last write of each key
    // Several policy windows of writes, and beyond them until the drain thread has decided a
    // window (one that held, where it holds): the drain thread decides only when it runs, which
    // on a busy machine may be rarely. For at most 60 s.
    const auto decided = [&] {
      return stats->drain_windows.Get() > 0 && (!t.holds || stats->hold_windows.Get() > 0);
    };
    const auto end = std::chrono::steady_clock::now() + 10 * FloDBComponent::kDrainWindow;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < end ||
           (!decided() && std::chrono::steady_clock::now() < deadline)) {
      for (int i = 0; i < 1000; i++) {
        seq++;
        const int key = t.distinct_keys ? static_cast<int>(seq) : i;
        c.Add(seq, kTypeValue, Key(key), std::to_string(seq), /*keep_older=*/false);
        env.last.store(seq);
        newest[key] = seq;
      }
    }
    for (const auto& [key, last] : newest) {  // nothing lost while the budget changed
      MemoryLookup got;
      epoch::Guard guard;
      ASSERT_TRUE(c.Get(Key(key), kMaxSequenceNumber, &got)) << key;
      ASSERT_EQ(std::to_string(last), got.value) << key;
    }
    EXPECT_GT(stats->drain_windows.Get(), 0u) << t.cores;
    if (t.holds) {
      EXPECT_GT(stats->hold_windows.Get(), 0u) << t.cores << " " << t.distinct_keys;
    } else {
      EXPECT_EQ(0u, stats->hold_windows.Get()) << t.cores << " " << t.distinct_keys;
    }
  }
}

// While scans drain the Membuffer, the drain policy sends new keys straight to the sorted level
// (so each scan finds little to drain), and every scan still sees exactly the writes that
// completed before its sequence number. Once the scans stop, new keys fill the Membuffer again.
TEST(FloDBComponentTest, NewKeysGoBelowWhileScansDrainAndScansMissNothing) {
  ComponentEnvironment env;
  FloDBOptions options;
  options.write_buffer_size = 64 << 20;
  auto stats = std::make_shared<FloDBStats>();
  FloDBComponent c(options, env.context, stats);
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::thread writer([&] {
    // Key i is written with sequence i + 1; `last` follows completed writes only.
    for (int i = 0; !stop.load(std::memory_order_relaxed); i++) {
      c.Add(static_cast<SequenceNumber>(i + 1), kTypeValue, Key(i), std::to_string(i),
            /*keep_older=*/false);
      env.last.store(static_cast<SequenceNumber>(i + 1));
      written.store(i + 1, std::memory_order_release);
    }
  });
  // Scans for 20 windows and at least 20 times, and beyond that until the drain thread has
  // decided a window for scans and a new key has gone below in one (both need the drain
  // thread and the writer to run, which on a busy machine may be rarely). For at most 10 s:
  // the writer never stops, and its keys fill memory.
  const auto went_below = [&] {
    return stats->memtable_for_scans.Get() > 0 && stats->scan_windows.Get() > 0;
  };
  int scans = 0;
  const auto end = std::chrono::steady_clock::now() + 20 * FloDBComponent::kDrainWindow;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < end || scans < 20 ||
         (!went_below() && std::chrono::steady_clock::now() < deadline)) {
    bool piggybacked = false;
    const SequenceNumber s = c.PrepareScan(/*allow_piggyback=*/false, &piggybacked);
    auto it = c.NewIterator();
    SequenceNumber visible = 0;  // entries at or below s: keys 0 .. s - 1, one version each
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (ExtractSequence(it->key()) <= s) visible++;
    }
    ASSERT_EQ(s, visible) << "scan " << scans;
    scans++;
  }
  const uint64_t below_while_scanning = stats->memtable_for_scans.Get();
  EXPECT_GT(below_while_scanning, 0u);
  EXPECT_GT(stats->scan_windows.Get(), 0u);
  // No scans: once the drain thread has decided a window without them, new keys stay in the
  // Membuffer again. Waited for (at most 10 s, as above), not assumed to take a few windows.
  const uint64_t adds_before = stats->membuffer_adds.Get();
  const auto adds_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (stats->membuffer_adds.Get() == adds_before &&
         std::chrono::steady_clock::now() < adds_deadline) {
    std::this_thread::sleep_for(FloDBComponent::kDrainWindow);
  }
  EXPECT_GT(stats->membuffer_adds.Get(), adds_before);
  stop.store(true);
  writer.join();
  const int n = written.load();
  epoch::Guard guard;
  for (int i = 0; i < n; i++) {
    MemoryLookup got;
    ASSERT_TRUE(c.Get(Key(i), kMaxSequenceNumber, &got)) << i;
    ASSERT_EQ(std::to_string(i), got.value) << i;
  }
}

}  // namespace sluice
