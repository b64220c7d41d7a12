// sluice_stress/stress_runner.cc — see stress_runner.h.

#include "stress_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>
#include <vector>

#include "db/write_batch_internal.h"
#include "expected_state.h"
#include "family_layout.h"
#include "power_loss_env.h"
#include "sluice/db.h"
#include "sluice/iterator.h"
#include "sluice/options.h"
#include "sluice/write_batch.h"
#include "util/random.h"
#include "value_format.h"

namespace sluice::stress {

namespace {

using Clock = std::chrono::steady_clock;

// Counters shared by the threads; relaxed: they are only summed for reports.
struct Counters {
  std::atomic<uint64_t> ops{0};
  std::atomic<uint64_t> writes{0};
  std::atomic<uint64_t> verifications{0};
};

// What the whole run shares. Per key: a lock serialising its writes and checked reads, and
// (guarded by that lock) what the key holds now and the next base to write.
struct Shared {
  const StressOptions& options;
  DB* db;
  const FamilyLayout& layout;
  std::vector<std::mutex> locks;
  std::vector<KeyState> state;
  Counters counters;
  // The next key a sequential writer takes (sequential_writes); relaxed: only its uniqueness
  // per fetch_add matters, and per-key locks order the writes themselves.
  std::atomic<uint64_t> cursor;
  std::atomic<bool> stop{false};
  std::mutex failures_mu;
  std::vector<std::string> failures;  // guarded by failures_mu

  Shared(const StressOptions& o, DB* d, const FamilyLayout& f, std::vector<KeyState> s)
      : options(o),
        db(d),
        layout(f),
        locks(o.max_key),
        state(std::move(s)),
        cursor(o.seed % o.max_key) {}

  void Fail(std::string message) {
    std::lock_guard<std::mutex> l(failures_mu);
    if (failures.size() < 20) failures.push_back(std::move(message));
    stop.store(true, std::memory_order_relaxed);
  }
};

std::string Describe(const std::optional<uint32_t>& v) {
  return v.has_value() ? fmt::format("value #{}", *v) : std::string("no value");
}

// Reads key through Get and checks the value's form. nullopt in *out: the key has no value.
Status ReadKey(DB* db, const FamilyLayout& layout, const ReadOptions& ro, uint32_t key,
               std::optional<uint32_t>* out) {
  std::string value;
  Status s = db->Get(ro, layout.For(key), KeyString(key), &value);
  if (s.IsNotFound()) {
    out->reset();
    return Status::OK();
  }
  if (!s.ok()) return s;
  uint32_t base = 0;
  s = ParseValue(key, value, &base);
  if (s.ok()) *out = base;
  return s;
}

class Worker {
 public:
  Worker(Shared* shared, int thread)
      : shared_(shared),
        options_(shared->options),
        thread_(thread),
        rnd_(options_.seed * 1000003 + static_cast<uint64_t>(thread) + 1) {}

  void Run() {
    Status s = history_.Open(options_.expected_state, thread_);
    if (!s.ok()) return shared_->Fail(s.ToString());
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(options_.duration));
    for (uint64_t i = 0; !shared_->stop.load(std::memory_order_relaxed); i++) {
      if (options_.ops_per_thread != 0 && i >= options_.ops_per_thread) break;
      if (options_.duration > 0 && (i & 15) == 0 && Clock::now() >= deadline) break;
      OneOperation();
      shared_->counters.ops.fetch_add(1, std::memory_order_relaxed);
    }
  }

 private:
  uint32_t RandomKey() { return static_cast<uint32_t>(rnd_.Uniform(options_.max_key)); }
  // The first of n keys to write: n consecutive ones from the cursor with sequential_writes
  // (wrapping at max_key), else a uniform one.
  uint32_t WriteKey(uint32_t n = 1) {
    if (!options_.sequential_writes) return RandomKey();
    return static_cast<uint32_t>(shared_->cursor.fetch_add(n, std::memory_order_relaxed) %
                                 options_.max_key);
  }
  void Verified(uint64_t n = 1) {
    shared_->counters.verifications.fetch_add(n, std::memory_order_relaxed);
  }

  void OneOperation() {
    int dice = static_cast<int>(rnd_.Uniform(100));
    if ((dice -= options_.put_percent) < 0) return WriteKeys({WriteKey()}, OpKind::kPut);
    if ((dice -= options_.delete_percent) < 0) return WriteKeys({WriteKey()}, OpKind::kDelete);
    if ((dice -= options_.batch_percent) < 0) return WriteBatchOfKeys();
    if ((dice -= options_.rmw_percent) < 0) return ReadModifyWrite();
    if ((dice -= options_.snapshot_percent) < 0) return SnapshotCheck();
    if ((dice -= options_.iterate_percent) < 0) return IterateCheck();
    if ((dice -= options_.delete_range_percent) < 0) return DeleteRangeOfKeys();
    return GetCheck();
  }

  // Writes keys (sorted, distinct) in one batch: all puts or, for one key, possibly a delete.
  // Locks are taken in key order, so threads never deadlock.
  void WriteKeys(std::vector<uint32_t> keys, OpKind single_kind) {
    std::vector<std::unique_lock<std::mutex>> held;
    for (uint32_t k : keys) held.emplace_back(shared_->locks[k]);
    std::vector<HistoryRecord> records;
    WriteBatch batch;
    for (uint32_t k : keys) {
      HistoryRecord r;
      r.key = k;
      r.base = shared_->state[k].next_base;
      r.kind = keys.size() == 1 ? single_kind : (rnd_.OneIn(5) ? OpKind::kDelete : OpKind::kPut);
      if (r.kind == OpKind::kPut) {
        batch.Put(shared_->layout.For(k), KeyString(k), ValueString(k, r.base));
      } else {
        batch.Delete(shared_->layout.For(k), KeyString(k));
      }
      records.push_back(r);
    }
    if (!RecordIntent(records)) return;
    WriteOptions wo;
    wo.sync = options_.sync;
    Status s = shared_->db->Write(wo, &batch);
    if (!s.ok())
      return shared_->Fail(fmt::format("write of {} keys failed: {}", keys.size(), s.ToString()));
    RecordAck(&records, WriteBatchInternal::Sequence(&batch));
  }

  // Deletes keys [k, k + width) with one range tombstone (KeyString keeps key order), in a
  // batch that sometimes puts the range's last key again after it. Recorded as a delete of
  // each key (and that put): the verifier then checks the range deletion is atomic and
  // durable like any batch.
  void DeleteRangeOfKeys() {
    const uint32_t first = WriteKey(8);
    const uint32_t end =
        static_cast<uint32_t>(std::min<uint64_t>(first + 1 + rnd_.Uniform(8), options_.max_key));
    const bool put_last_again = rnd_.OneIn(2);
    std::vector<std::unique_lock<std::mutex>> held;
    for (uint32_t k = first; k < end; k++) held.emplace_back(shared_->locks[k]);
    std::vector<HistoryRecord> records;
    WriteBatch batch;
    // The keys of the range live in every family: one tombstone in each, one batch.
    for (ColumnFamilyHandle* h : shared_->layout.handles()) {
      batch.DeleteRange(h, KeyString(first), KeyString(end));
    }
    for (uint32_t k = first; k < end; k++) {
      HistoryRecord r;
      r.key = k;
      r.base = shared_->state[k].next_base;
      r.kind = put_last_again && k + 1 == end ? OpKind::kPut : OpKind::kDelete;
      if (r.kind == OpKind::kPut) {
        batch.Put(shared_->layout.For(k), KeyString(k), ValueString(k, r.base));
      }
      records.push_back(r);
    }
    if (!RecordIntent(records)) return;
    WriteOptions wo;
    wo.sync = options_.sync;
    Status s = shared_->db->Write(wo, &batch);
    if (!s.ok()) {
      return shared_->Fail(
          fmt::format("range deletion of keys {}..{} failed: {}", first, end, s.ToString()));
    }
    RecordAck(&records, WriteBatchInternal::Sequence(&batch));
  }

  void WriteBatchOfKeys() {
    const size_t n = 2 + rnd_.Uniform(static_cast<uint64_t>(std::max(1, options_.max_batch - 1)));
    std::vector<uint32_t> keys;
    const uint32_t first = WriteKey(static_cast<uint32_t>(n));
    for (size_t i = 0; i < n; i++) {
      keys.push_back(options_.sequential_writes
                         ? static_cast<uint32_t>((first + i) % options_.max_key)
                         : (i == 0 ? first : RandomKey()));
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    WriteKeys(std::move(keys), OpKind::kPut);
  }

  bool RecordIntent(const std::vector<HistoryRecord>& records) {
    Status s = history_.Append(records.data(), records.size());
    if (!s.ok()) shared_->Fail(s.ToString());
    for (const HistoryRecord& r : records) shared_->state[r.key].next_base = r.base + 1;
    return s.ok();
  }

  // REQUIRES: the keys' locks held.
  void RecordAck(std::vector<HistoryRecord>* records, uint64_t seq) {
    for (HistoryRecord& r : *records) {
      r.phase = Phase::kAck;
      r.seq = seq;
      KeyState& k = shared_->state[r.key];
      k.exists = r.kind == OpKind::kPut;
      k.base = r.base;
    }
    Status s = history_.Append(records->data(), records->size());
    if (!s.ok()) shared_->Fail(s.ToString());
    shared_->counters.writes.fetch_add(records->size(), std::memory_order_relaxed);
  }

  // A read-modify-write or a compare-and-swap of one key, checking the value the database
  // hands the function (or compares with) against what the key must hold.
  void ReadModifyWrite() {
    const uint32_t k = WriteKey();
    std::lock_guard<std::mutex> l(shared_->locks[k]);
    const KeyState now = shared_->state[k];
    std::vector<HistoryRecord> records(1);
    records[0].key = k;
    records[0].base = now.next_base;
    const std::string value = ValueString(k, now.next_base);
    if (!RecordIntent(records)) return;
    WriteOptions wo;
    wo.sync = options_.sync;
    Status s;
    std::string expected_value = now.exists ? ValueString(k, now.base) : std::string();
    if (rnd_.OneIn(2)) {
      std::atomic<bool> saw_wrong{false};
      std::string wrong;
      s = shared_->db->ReadModifyWrite(
          wo, shared_->layout.For(k), KeyString(k),
          [&](const std::string* current) -> std::optional<std::string> {
            const bool ok =
                now.exists ? current != nullptr && *current == expected_value : current == nullptr;
            if (!ok) {
              saw_wrong.store(true);
              wrong = current == nullptr ? "no value" : *current;
            }
            return value;
          },
          nullptr);
      if (s.ok() && saw_wrong.load()) {
        return shared_->Fail(fmt::format("{}: read-modify-write saw '{}', expected {}",
                                         KeyString(k), wrong, Describe(Current(now))));
      }
    } else {
      bool swapped = false;
      s = shared_->db->CompareAndSwap(wo, shared_->layout.For(k), KeyString(k),
                                      now.exists ? &expected_value : nullptr, value, &swapped);
      if (s.ok() && !swapped) {
        return shared_->Fail(fmt::format("{}: compare-and-swap against {} did not swap",
                                         KeyString(k), Describe(Current(now))));
      }
    }
    if (!s.ok()) {
      return shared_->Fail(
          fmt::format("{}: read-modify-write failed: {}", KeyString(k), s.ToString()));
    }
    Verified();
    RecordAck(&records, 0);  // its sequence number is not reported
  }

  static std::optional<uint32_t> Current(const KeyState& k) {
    return k.exists ? std::optional<uint32_t>(k.base) : std::nullopt;
  }

  void GetCheck() {
    const uint32_t k = RandomKey();
    std::lock_guard<std::mutex> l(shared_->locks[k]);
    std::optional<uint32_t> got;
    Status s = ReadKey(shared_->db, shared_->layout, ReadOptions(), k, &got);
    if (!s.ok()) return shared_->Fail(fmt::format("get {}: {}", KeyString(k), s.ToString()));
    const std::optional<uint32_t> want = Current(shared_->state[k]);
    if (got != want) {
      return shared_->Fail(
          fmt::format("get {}: {}, expected {}", KeyString(k), Describe(got), Describe(want)));
    }
    Verified();
  }

  // Iterates from key `from` for up to `limit` entries (backwards if reverse), checking order
  // and the values' form. Returns false after reporting a failure.
  bool Collect(Iterator* it, uint32_t from, size_t limit, bool reverse,
               std::vector<std::pair<uint32_t, uint32_t>>* out) {
    out->clear();
    if (reverse) {
      it->SeekForPrev(KeyString(from));
    } else {
      it->Seek(KeyString(from));
    }
    for (; it->Valid() && out->size() < limit; reverse ? it->Prev() : it->Next()) {
      uint32_t key = 0, base = 0;
      if (!ParseKey(it->key(), &key) || key >= options_.max_key) {
        shared_->Fail(fmt::format("iterator returned a key the driver never wrote: '{}'",
                                  it->key().ToString()));
        return false;
      }
      if (!out->empty() && (reverse ? key >= out->back().first : key <= out->back().first)) {
        shared_->Fail(fmt::format("iterator out of order: {} after {}", KeyString(key),
                                  KeyString(out->back().first)));
        return false;
      }
      Status s = ParseValue(key, it->value(), &base);
      if (!s.ok()) {
        shared_->Fail("iterator: " + s.ToString());
        return false;
      }
      out->emplace_back(key, base);
    }
    if (!it->status().ok()) {
      shared_->Fail("iterator: " + it->status().ToString());
      return false;
    }
    Verified(out->size());
    return true;
  }

  void IterateCheck() {
    std::unique_ptr<Iterator> it = shared_->layout.NewIterator(shared_->db, ReadOptions());
    std::vector<std::pair<uint32_t, uint32_t>> entries;
    Collect(it.get(), RandomKey(), 64, rnd_.OneIn(4), &entries);
  }

  // A snapshot's reads agree with each other and do not change while writers go on.
  void SnapshotCheck() {
    const Snapshot* snap = shared_->db->GetSnapshot();
    ReadOptions ro;
    ro.snapshot = snap;
    std::map<uint32_t, std::optional<uint32_t>> seen;
    bool ok = true;
    auto check = [&](uint32_t k, const std::optional<uint32_t>& via, const char* how) {
      std::optional<uint32_t> got;
      Status s = ReadKey(shared_->db, shared_->layout, ro, k, &got);
      if (!s.ok()) {
        shared_->Fail(fmt::format("snapshot get {}: {}", KeyString(k), s.ToString()));
        return false;
      }
      auto [pos, inserted] = seen.emplace(k, got);
      if (got != pos->second || got != via) {
        shared_->Fail(fmt::format("snapshot {}: get gave {}, {} gave {}", KeyString(k),
                                  Describe(got), how, Describe(inserted ? via : pos->second)));
        return false;
      }
      Verified();
      return true;
    };
    for (int i = 0; ok && i < 8; i++) {
      const uint32_t k = RandomKey();
      std::optional<uint32_t> first;
      Status s = ReadKey(shared_->db, shared_->layout, ro, k, &first);
      if (!s.ok()) {
        shared_->Fail(fmt::format("snapshot get {}: {}", KeyString(k), s.ToString()));
        ok = false;
        break;
      }
      seen.emplace(k, first);
    }
    std::unique_ptr<Iterator> it = shared_->layout.NewIterator(shared_->db, ro);
    std::vector<std::pair<uint32_t, uint32_t>> forward, backward;
    const uint32_t from = RandomKey();
    ok = ok && Collect(it.get(), from, 32, false, &forward);
    if (ok && !forward.empty()) {
      // The same range backwards must give the same entries.
      ok = Collect(it.get(), forward.back().first, forward.size(), true, &backward);
      std::reverse(backward.begin(), backward.end());
      if (ok && backward != forward) {
        shared_->Fail(
            fmt::format("snapshot iteration from {}: {} entries forwards, {} "
                        "backwards, or different values",
                        KeyString(from), forward.size(), backward.size()));
        ok = false;
      }
    }
    // Keys between iterated ones are absent at the snapshot; iterated ones hold what was seen.
    for (size_t i = 0; ok && i < forward.size(); i++) {
      ok = check(forward[i].first, forward[i].second, "iteration");
      if (ok && i + 1 < forward.size() && forward[i + 1].first > forward[i].first + 1) {
        ok = check(forward[i].first + 1, std::nullopt, "iteration (skipped it)");
      }
    }
    // Earlier gets still give the same answers.
    std::vector<std::pair<uint32_t, std::optional<uint32_t>>> before(seen.begin(), seen.end());
    for (size_t i = 0; ok && i < before.size(); i++) {
      ok = check(before[i].first, before[i].second, "an earlier get");
    }
    shared_->db->ReleaseSnapshot(snap);
  }

  Shared* shared_;
  const StressOptions& options_;
  const int thread_;
  Random rnd_;
  HistoryWriter history_;
};

// Reads every key with Get and with one full iteration, which must agree. Fails (returning
// non-OK) on an unreadable or malformed entry; mismatches are added to *failures.
Status ReadWholeDatabase(DB* db, const FamilyLayout& layout, uint32_t max_key,
                         std::vector<Recovered>* recovered, std::vector<std::string>* failures) {
  recovered->assign(max_key, std::nullopt);
  for (uint32_t k = 0; k < max_key; k++) {
    Status s = ReadKey(db, layout, ReadOptions(), k, &(*recovered)[k]);
    if (!s.ok()) return s;
  }
  std::unique_ptr<Iterator> it = layout.NewIterator(db, ReadOptions());
  std::vector<bool> iterated(max_key, false);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint32_t key = 0, base = 0;
    if (!ParseKey(it->key(), &key) || key >= max_key) {
      return Status::Corruption("iteration", "unknown key '" + it->key().ToString() + "'");
    }
    Status s = ParseValue(key, it->value(), &base);
    if (!s.ok()) return s;
    iterated[key] = true;
    if ((*recovered)[key] != base) {
      failures->push_back(fmt::format("{}: iteration gives value #{}, get gives {}", KeyString(key),
                                      base, Describe((*recovered)[key])));
    }
  }
  if (!it->status().ok()) return it->status();
  for (uint32_t k = 0; k < max_key; k++) {
    if ((*recovered)[k].has_value() && !iterated[k]) {
      failures->push_back(fmt::format("{}: get gives {}, iteration skips it", KeyString(k),
                                      Describe((*recovered)[k])));
    }
  }
  return Status::OK();
}

// The state just verified must survive a flush of every family, the obsolete-file pass that
// follows it, and a reopen: a file recovery wrongly thought obsolete (one a replayed compaction
// moved down a level, say) is deleted by the first flush after open, which the opening
// verification alone never sees. Reopens *db; differences are added to *failures.
Status FlushReopenAndCompare(const Options& db_options, const StressOptions& options,
                             const std::vector<Recovered>& verified, std::unique_ptr<DB>* db,
                             FamilyLayout* layout, std::vector<std::string>* failures) {
  for (ColumnFamilyHandle* h : layout->handles()) {
    Status s = (*db)->Flush(h);
    if (!s.ok()) return s;
  }
  Status s = (*db)->Close();
  db->reset();
  if (s.ok()) s = FamilyLayout::Open(db_options, options.db, options.column_families, db, layout);
  if (!s.ok()) return s;
  std::vector<Recovered> reread;
  s = ReadWholeDatabase(db->get(), *layout, options.max_key, &reread, failures);
  if (!s.ok()) return s;
  for (uint32_t k = 0; k < options.max_key; k++) {
    if (reread[k] != verified[k]) {
      failures->push_back(fmt::format("{}: held {} when verified, {} after a flush and a reopen",
                                      KeyString(k), Describe(verified[k]), Describe(reread[k])));
    }
  }
  return Status::OK();
}

// Files compactions moved down a level whole since the database was opened (the compaction
// counters of "sluice.stats-json" are the database's, every family's summed).
uint64_t TrivialMoves(DB* db) {
  std::string stats;
  if (!db->GetProperty("sluice.stats-json", &stats)) return 0;
  const nlohmann::json j = nlohmann::json::parse(stats, nullptr, /*allow_exceptions=*/false);
  uint64_t moves = 0;
  if (j.is_object() && j.contains("levels")) {
    for (const auto& level : j["levels"]) moves += level.value("trivial_moves", uint64_t{0});
  }
  return moves;
}

void PrintFailures(const std::vector<std::string>& failures) {
  for (const std::string& f : failures) std::printf("FAILURE: %s\n", f.c_str());
}

}  // namespace

int RunStress(const StressOptions& o) {
  StressOptions options = o;
  if (options.seed == 0) {
    options.seed = static_cast<uint64_t>(Clock::now().time_since_epoch().count()) | 1;
  }
  std::unique_ptr<Env> power_loss_env;
  Options db_options;
  db_options.create_if_missing = true;
  db_options.memtable = options.memtable;
  db_options.write_buffer_size = options.write_buffer_size;
  // Small files and levels, so a short run flushes and compacts many times.
  db_options.target_file_size_base = 256 << 10;
  db_options.max_bytes_for_level_base = 1 << 20;
  db_options.level0_file_num_compaction_trigger = 2;
  db_options.block_cache_size = 1 << 20;
  if (options.simulate_power_loss) {
    power_loss_env = std::make_unique<PowerLossEnv>(Env::Default());
    db_options.env = power_loss_env.get();
  }
  if (options.destroy) {
    Status s = DestroyDB(options.db, db_options);
    if (!s.ok()) return std::printf("error: %s\n", s.ToString().c_str()), 2;
    (void)ClearHistory(options.expected_state);
    std::remove((options.expected_state + "/baseline").c_str());
  }
  std::error_code ec;
  std::filesystem::create_directories(options.expected_state, ec);
  if (!ec) std::filesystem::create_directories(std::filesystem::path(options.db).parent_path(), ec);
  if (ec)
    return std::printf("error: creating %s: %s\n", options.expected_state.c_str(),
                       ec.message().c_str()),
           2;

  const auto open_start = Clock::now();
  std::unique_ptr<DB> db;
  FamilyLayout layout;
  Status s = FamilyLayout::Open(db_options, options.db, options.column_families, &db, &layout);
  if (!s.ok()) return std::printf("FAILURE: open: %s\n", s.ToString().c_str()), 1;
  const double open_seconds = std::chrono::duration<double>(Clock::now() - open_start).count();

  std::vector<KeyState> baseline;
  std::vector<HistoryRecord> history;
  s = LoadBaseline(options.expected_state, options.max_key, &baseline);
  if (s.ok()) s = LoadHistory(options.expected_state, options.max_key, &history);
  if (!s.ok()) return std::printf("error: %s\n", s.ToString().c_str()), 2;

  std::vector<Recovered> recovered;
  std::vector<std::string> read_failures;
  s = ReadWholeDatabase(db.get(), layout, options.max_key, &recovered, &read_failures);
  if (!s.ok()) return std::printf("FAILURE: reading the database: %s\n", s.ToString().c_str()), 1;
  VerifyOptions vo;
  vo.require_acknowledged = options.sync || !options.simulate_power_loss;
  VerifyReport report = Verify(baseline, history, recovered, vo);
  report.failures.insert(report.failures.begin(), read_failures.begin(), read_failures.end());
  std::printf(
      "verify: keys=%llu history_writes=%llu acknowledged=%llu in_flight=%llu "
      "lost_unsynced=%llu open_seconds=%.3f result=%s\n",
      static_cast<unsigned long long>(report.keys), static_cast<unsigned long long>(report.writes),
      static_cast<unsigned long long>(report.acknowledged),
      static_cast<unsigned long long>(report.in_flight),
      static_cast<unsigned long long>(report.lost_acknowledged), open_seconds,
      report.failures.empty() ? "ok" : "FAILED");
  std::fflush(stdout);
  if (!report.failures.empty()) {
    PrintFailures(report.failures);
    return 1;
  }
  s = SaveBaseline(options.expected_state, Rebase(baseline, history, recovered));
  if (s.ok()) s = ClearHistory(options.expected_state);
  if (!s.ok()) return std::printf("error: %s\n", s.ToString().c_str()), 2;
  std::vector<std::string> reopen_failures;
  s = FlushReopenAndCompare(db_options, options, recovered, &db, &layout, &reopen_failures);
  if (!s.ok()) {
    return std::printf("FAILURE: flush and reopen after verifying: %s\n", s.ToString().c_str()), 1;
  }
  std::printf("reverify: after a flush and a reopen result=%s\n",
              reopen_failures.empty() ? "ok" : "FAILED");
  std::fflush(stdout);
  if (!reopen_failures.empty()) {
    PrintFailures(reopen_failures);
    return 1;
  }
  if (options.verify_only) {
    s = db->Close();
    return s.ok() ? 0 : (std::printf("FAILURE: close: %s\n", s.ToString().c_str()), 1);
  }

  std::printf(
      "stress: seed=%llu threads=%d memtable=%s sync=%d power_loss=%d max_key=%u "
      "column_families=%d\n",
      static_cast<unsigned long long>(options.seed), options.threads, options.memtable.c_str(),
      options.sync, options.simulate_power_loss, options.max_key, options.column_families);
  std::fflush(stdout);
  Shared shared(options, db.get(), layout, Rebase(baseline, history, recovered));
  std::vector<std::thread> threads;
  for (int t = 0; t < options.threads; t++) {
    threads.emplace_back([&shared, t] { Worker(&shared, t).Run(); });
  }
  // Progress four times a second, so a killed run still tells how far it got.
  const auto start = Clock::now();
  std::atomic<int> running{options.threads};
  std::thread progress([&] {
    while (running.load() > 0) {
      for (int i = 0; i < 5 && running.load() > 0; i++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      std::printf(
          "progress: seconds=%.1f ops=%llu writes=%llu verifications=%llu trivial_moves=%llu\n",
          std::chrono::duration<double>(Clock::now() - start).count(),
          static_cast<unsigned long long>(shared.counters.ops.load()),
          static_cast<unsigned long long>(shared.counters.writes.load()),
          static_cast<unsigned long long>(shared.counters.verifications.load()),
          static_cast<unsigned long long>(TrivialMoves(db.get())));
      std::fflush(stdout);
    }
  });
  for (std::thread& t : threads) {
    t.join();
    running.fetch_sub(1);
  }
  progress.join();
  const uint64_t moves = TrivialMoves(db.get());
  s = db->Close();
  if (!s.ok()) shared.Fail("close: " + s.ToString());
  std::printf("done: ops=%llu writes=%llu verifications=%llu trivial_moves=%llu failures=%zu\n",
              static_cast<unsigned long long>(shared.counters.ops.load()),
              static_cast<unsigned long long>(shared.counters.writes.load()),
              static_cast<unsigned long long>(shared.counters.verifications.load()),
              static_cast<unsigned long long>(moves), shared.failures.size());
  PrintFailures(shared.failures);
  return shared.failures.empty() ? 0 : 1;
}

}  // namespace sluice::stress
