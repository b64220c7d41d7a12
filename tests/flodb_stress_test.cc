// Concurrent stress of the FloDB memory component through the DB: writers, point readers,
// drain threads and bounded scanners at once, with one-slot buckets, a tiny Membuffer and tiny
// memory components, so every path runs (bucket full, late writes, help-drain, scan restarts
// and fallbacks, component switches mid-scan). Every scan is checked against the writes that
// completed before it started and those that overlapped it; afterwards the store must match
// the writers' final state.
//
// Each key belongs to one writer, which writes counters 1, 2, 3, ... to it: a put of the
// counter, except every fifth counter, which deletes the key. Every seventh value is larger than
// the records of the entries' pools (util/epoch_pool.h), so heap records mix with pooled ones.
//
// Two shapes: tiny components (every path above), and one large component over a few keys, where
// nearly every write replaces an entry in place, so retired entries and versions are recycled
// through the pools thousands of times while readers copy values out of them: a record reused
// before its grace period ends shows up as a wrong counter (and, under ASan, as a read of
// poisoned memory).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "support/db_test_util.h"
#include "util/coding.h"
#include "util/random.h"

namespace sluice::test {

namespace {

constexpr int kWriters = 3;
constexpr int kKeysPerWriter = 60;
constexpr int kKeys = kWriters * kKeysPerWriter;

bool IsDelete(uint64_t counter) { return counter % 5 == 0; }

std::string Encode(uint64_t counter) {
  std::string v;
  PutFixed64(&v, counter);
  v.append(counter % 7 == 0 ? 3000 : 24, 'x');
  return v;
}
uint64_t Decode(const std::string& v) { return v.size() >= 8 ? DecodeFixed64(v.data()) : 0; }

struct KeyState {
  std::atomic<uint64_t> started{0};    // counter of the newest operation started
  std::atomic<uint64_t> completed{0};  // counter of the newest operation acknowledged
};

}  // namespace

enum class Shape { kTinyComponents, kRecycling };

class FloDBStressTest : public DBTestBase, public ::testing::TestWithParam<Shape> {
 public:
  FloDBStressTest() : DBTestBase("flodb") {}
};

TEST_P(FloDBStressTest, ScansSeeEveryCompletedWriteAndNothingStale) {
  Options o = DefaultOptions();
  if (GetParam() == Shape::kTinyComponents) {
    o.write_buffer_size = 48 << 10;  // switches every few hundred writes, also mid-scan
    o.membuffer_fraction = 0.05;     // a tiny Membuffer
    o.membuffer_bucket_slots = 1;    // buckets fill at once
    o.membuffer_partition_bits = 2;
  } else {
    o.write_buffer_size = 64 << 20;  // one component: every key stays in it, replaced in place
  }
  o.flodb_scan_max_restarts = 1;  // fall back quickly
  o.level0_file_num_compaction_trigger = 2;
  Open(o);

  std::vector<KeyState> keys(kKeys);
  std::atomic<bool> stop{false};
  std::atomic<int> errors{0};
  // Counts an error and reports the first few with what the check saw.
  const auto report = [&errors](const char* what, int k, uint64_t got, uint64_t before,
                                uint64_t after) {
    if (errors.fetch_add(1) < 5) {
      ADD_FAILURE() << what << ": key " << k << " got " << got << " before " << before << " after "
                    << after;
    }
  };
  std::atomic<uint64_t> scans{0}, scanned_pairs{0};
  std::vector<std::thread> threads;

  // Writers run for 40000 operations each and, beyond that, until the scanners have completed
  // kMinScans scans beside them (a scan restarted by concurrent writes can take long on a
  // loaded machine), for at most 30 seconds.
  constexpr uint64_t kMinScans = 60;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (int w = 0; w < kWriters; w++) {
    threads.emplace_back([&, w] {
      Random rnd(w + 1);
      for (int i = 0;
           i < 40000 || (scans.load() < kMinScans && std::chrono::steady_clock::now() < deadline);
           i++) {
        const int k = w * kKeysPerWriter + static_cast<int>(rnd.Uniform(kKeysPerWriter));
        const uint64_t c = keys[k].started.load() + 1;
        keys[k].started.store(c);
        const Status s = IsDelete(c) ? db()->Delete(WriteOptions(), Key(k))
                                     : db()->Put(WriteOptions(), Key(k), Encode(c));
        if (!s.ok()) report(s.ToString().c_str(), k, c, 0, 0);
        keys[k].completed.store(c);
      }
    });
  }
  // Point readers: a key's counter never goes backwards, and never below a completed write.
  threads.emplace_back([&] {
    Random rnd(100);
    std::vector<uint64_t> seen(kKeys, 0);
    while (!stop.load()) {
      const int k = static_cast<int>(rnd.Uniform(kKeys));
      const uint64_t before = keys[k].completed.load();
      std::string v;
      const Status s = db()->Get(ReadOptions(), Key(k), &v);
      const uint64_t after = keys[k].started.load();
      uint64_t got = 0;
      if (s.ok()) {
        got = Decode(v);
        if (got < before || got > after || IsDelete(got)) {
          report("get: counter out of bounds", k, got, before, after);
        }
      } else if (!s.IsNotFound()) {
        report(s.ToString().c_str(), k, 0, before, after);
      } else if (!IsDelete(before) && after == before) {
        // a completed put with nothing overlapping must be visible
        report("get: completed put not found", k, 0, before, after);
      }
      if (got != 0 && got < seen[k]) report("get: counter went back", k, got, seen[k], after);
      if (got != 0) seen[k] = got;
    }
  });
  // Scanners.
  for (int sc = 0; sc < 2; sc++) {
    threads.emplace_back([&, sc] {
      Random rnd(200 + sc);
      std::vector<uint64_t> seen(kKeys, 0);
      while (!stop.load()) {
        const int lo = static_cast<int>(rnd.Uniform(kKeys));
        const int hi = std::min(kKeys, lo + 1 + static_cast<int>(rnd.Uniform(60)));
        const size_t limit = 1 + rnd.Uniform(80);
        std::vector<uint64_t> before(kKeys);
        for (int k = lo; k < hi; k++) before[k] = keys[k].completed.load();
        std::vector<std::pair<std::string, std::string>> out;
        const Status s = db()->Scan(ReadOptions(), Key(lo), Key(hi), limit, &out);
        if (!s.ok()) {
          report(s.ToString().c_str(), lo, 0, 0, 0);
          continue;
        }
        scans++;
        scanned_pairs += out.size();
        // Sorted, distinct, in range, within the limit.
        if (out.size() > limit) report("scan: over the limit", lo, out.size(), limit, 0);
        for (size_t i = 0; i < out.size(); i++) {
          if (out[i].first < Key(lo) || out[i].first >= Key(hi)) {
            report("scan: key out of range", lo, i, 0, 0);
          }
          if (i > 0 && out[i - 1].first >= out[i].first) report("scan: unsorted", lo, i, 0, 0);
        }
        // Every key of the range read: present iff its state allows it.
        const int last = out.size() == limit ? std::stoi(out.back().first.substr(3)) : hi - 1;
        size_t j = 0;
        for (int k = lo; k <= last; k++) {
          const uint64_t after = keys[k].started.load();
          const bool present = j < out.size() && out[j].first == Key(k);
          if (present) {
            const uint64_t got = Decode(out[j].second);
            j++;
            if (got < before[k] || got > after || IsDelete(got) || got < seen[k]) {
              report("scan: counter out of bounds or back", k, got, before[k], after);
            }
            seen[k] = got;
          } else {
            // Absent: the newest completed op was a delete (or none), or a delete overlapped.
            bool delete_possible = before[k] == 0 || IsDelete(before[k]);
            for (uint64_t c = before[k] + 1; c <= after && !delete_possible; c++) {
              delete_possible = IsDelete(c);
            }
            if (!delete_possible) report("scan: key missing", k, 0, before[k], after);
          }
        }
      }
    });
  }
  for (int w = 0; w < kWriters; w++) threads[w].join();
  stop.store(true);
  for (size_t t = kWriters; t < threads.size(); t++) threads[t].join();
  EXPECT_EQ(0, errors.load());
  EXPECT_GT(scans.load(), 50u);

  // The final state is the writers' last operation on each key, also after reopening.
  for (int round = 0; round < 2; round++) {
    for (int k = 0; k < kKeys; k++) {
      const uint64_t c = keys[k].completed.load();
      if (c == 0 || IsDelete(c)) {
        ASSERT_EQ("NOT_FOUND", Get(Key(k))) << k;
      } else {
        ASSERT_EQ(Encode(c), Get(Key(k))) << k;
      }
    }
    if (round == 0) {
      std::string stats;
      ASSERT_TRUE(db()->GetProperty("sluice.flodb-stats", &stats));
      std::printf("%s", stats.c_str());
      Reopen();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, FloDBStressTest,
                         ::testing::Values(Shape::kTinyComponents, Shape::kRecycling),
                         [](const ::testing::TestParamInfo<Shape>& info) {
                           return info.param == Shape::kTinyComponents ? "TinyComponents"
                                                                       : "Recycling";
                         });

}  // namespace sluice::test
