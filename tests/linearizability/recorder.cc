// tests/linearizability/recorder.cc — records concurrent histories of sluice operations for the
// linearizability checker (checker.go, built on Porcupine).
//
//   sluice_lin_recorder --memtable=NAME --dir=DIR [--histories=N] [--threads=T] [--ops=M]
//                       [--keys=K] [--seed=S] [--broken]
//
// Each history: T threads run M random operations each on K keys of their own prefix (so every
// history starts from an empty store): put, get, delete, increment, compare-and-swap,
// put-if-absent, read-modify-write (doubling), a write batch of two keys, an iterator scan of
// every key and reads of every key at one snapshot, with values drawn from a few small
// integers so operations really interfere. A churn thread writes unrelated keys
// meanwhile, so memory components switch, flush and compact under the histories. Every operation is
// printed with its invocation and response times (steady clock, ns):
//
//   history <n>
//   <thread> <call> <return> <op> <key> <arg1> <arg2> <output>
//   end
//
// Values are 8-byte little-endian integers in the store, decimal in the history; "-" means no
// value; a scan or snapshot read prints the values of keys 0..K-1 as one field, comma-separated.
// --broken turns off the read-modify-write conflict detection (see
// DBImpl::SetRmwConflictDetectionForTesting), and --serializable sets
// Options::linearizable_snapshots = false (snapshots and iterators of a non-FloDB component may
// then miss writes completed just before): the checker must then find violations.

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "db/db_impl.h"
#include "sluice/db.h"
#include "util/coding.h"
#include "util/random.h"

namespace {

using sluice::DB;
using sluice::Status;

struct Op {
  int thread;
  int64_t call;
  int64_t ret;
  std::string text;  // "<op> <key> <arg1> <arg2> <output>"
};

int64_t Now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string Encode(int64_t v) {
  std::string s;
  sluice::PutFixed64(&s, static_cast<uint64_t>(v));
  return s;
}

bool Decode(const std::string& s, int64_t* v) {
  if (s.size() != 8) return false;
  *v = static_cast<int64_t>(sluice::DecodeFixed64(s.data()));
  return true;
}

// Appends "v0,v1,...,v(keys-1)" ("-" for an absent key) to *out, from the (key index, value)
// pairs found; fails if an index repeats or is out of range.
Status FormatAll(const std::vector<std::pair<int, std::string>>& found, int keys,
                 std::string* out) {
  std::vector<std::string> cells(static_cast<size_t>(keys), "-");
  for (const auto& [k, v] : found) {
    int64_t n = 0;
    if (k < 0 || k >= keys || cells[k] != "-" || !Decode(v, &n)) {
      return Status::Corruption("a scan returned an unexpected key or value");
    }
    cells[k] = std::to_string(n);
  }
  for (int k = 0; k < keys; k++) {
    if (k > 0) out->push_back(',');
    out->append(cells[k]);
  }
  return Status::OK();
}

// Runs one operation; returns false (with *error set) if the engine failed.
bool RunOne(DB* db, const sluice::WriteOptions& wo, sluice::Random* rnd, const std::string& prefix,
            int keys, bool rmw_heavy, const std::vector<int>& kinds, int thread, Op* op,
            std::string* error) {
  const int k = static_cast<int>(rnd->Uniform(static_cast<uint32_t>(keys)));
  const std::string key = prefix + std::to_string(k);
  const int64_t a = static_cast<int64_t>(rnd->Uniform(5));
  const int64_t b = static_cast<int64_t>(rnd->Uniform(5));
  // Without conflict detection most operations are increments, to make lost updates likely.
  uint32_t kind = rmw_heavy ? (rnd->OneIn(4) ? rnd->Uniform(8) : 3) : rnd->Uniform(10);
  if (!kinds.empty()) kind = static_cast<uint32_t>(kinds[rnd->Uniform(kinds.size())]);
  op->thread = thread;
  char buf[160];
  Status s;
  op->call = Now();
  switch (kind) {
    case 0: {
      s = db->Put(wo, key, Encode(a));
      op->ret = Now();
      std::snprintf(buf, sizeof(buf), "put %d %lld - ok", k, static_cast<long long>(a));
      break;
    }
    case 1: {
      std::string v;
      s = db->Get(sluice::ReadOptions(), key, &v);
      op->ret = Now();
      int64_t n = 0;
      if (s.IsNotFound()) {
        s = Status::OK();
        std::snprintf(buf, sizeof(buf), "get %d - - -", k);
      } else if (s.ok() && Decode(v, &n)) {
        std::snprintf(buf, sizeof(buf), "get %d - - %lld", k, static_cast<long long>(n));
      } else if (s.ok()) {
        s = Status::Corruption("get returned a value that is not 8 bytes", key);
      }
      break;
    }
    case 2: {
      s = db->Delete(wo, key);
      op->ret = Now();
      std::snprintf(buf, sizeof(buf), "del %d - - ok", k);
      break;
    }
    case 3: {
      int64_t result = 0;
      const int64_t delta = a + 1;
      s = db->Increment(wo, key, delta, &result);
      op->ret = Now();
      std::snprintf(buf, sizeof(buf), "inc %d %lld - %lld", k, static_cast<long long>(delta),
                    static_cast<long long>(result));
      break;
    }
    case 4: {
      // Expected "no value" one time in five.
      const bool expect_absent = b == 0;
      const std::string expected = Encode(a);
      bool swapped = false;
      s = db->CompareAndSwap(wo, key, expect_absent ? nullptr : &expected, Encode(b + 10),
                             &swapped);
      op->ret = Now();
      if (expect_absent) {
        std::snprintf(buf, sizeof(buf), "cas %d - %lld %d", k, static_cast<long long>(b + 10),
                      swapped ? 1 : 0);
      } else {
        std::snprintf(buf, sizeof(buf), "cas %d %lld %lld %d", k, static_cast<long long>(a),
                      static_cast<long long>(b + 10), swapped ? 1 : 0);
      }
      break;
    }
    case 5: {
      bool inserted = false;
      s = db->PutIfAbsent(wo, key, Encode(a + 20), &inserted);
      op->ret = Now();
      std::snprintf(buf, sizeof(buf), "pia %d %lld - %d", k, static_cast<long long>(a + 20),
                    inserted ? 1 : 0);
      break;
    }
    case 7: {
      // An atomic batch writing one value to this key and the next one.
      const int k2 = (k + 1) % keys;
      sluice::WriteBatch batch;
      batch.Put(key, Encode(a + 30));
      batch.Put(prefix + std::to_string(k2), Encode(a + 30));
      s = db->Write(wo, &batch);
      op->ret = Now();
      std::snprintf(buf, sizeof(buf), "bat %d %lld %d ok", k, static_cast<long long>(a + 30), k2);
      break;
    }
    case 8: {
      // An iterator over the history's keys: one consistent state of all of them.
      std::vector<std::pair<int, std::string>> found;
      {
        std::unique_ptr<sluice::Iterator> it = db->NewIterator(sluice::ReadOptions());
        for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
          found.emplace_back(std::atoi(it->key().ToString().substr(prefix.size()).c_str()),
                             it->value().ToString());
        }
        s = it->status();
      }
      op->ret = Now();
      std::string all;
      if (s.ok()) s = FormatAll(found, keys, &all);
      std::snprintf(buf, sizeof(buf), "scn 0 - - %s", all.c_str());
      break;
    }
    case 9: {
      // Point reads of every key at one snapshot.
      const sluice::Snapshot* snapshot = db->GetSnapshot();
      sluice::ReadOptions at;
      at.snapshot = snapshot;
      std::vector<std::pair<int, std::string>> found;
      for (int i = 0; i < keys && s.ok(); i++) {
        std::string v;
        s = db->Get(at, prefix + std::to_string(i), &v);
        if (s.ok()) found.emplace_back(i, std::move(v));
        if (s.IsNotFound()) s = Status::OK();
      }
      db->ReleaseSnapshot(snapshot);
      op->ret = Now();
      std::string all;
      if (s.ok()) s = FormatAll(found, keys, &all);
      std::snprintf(buf, sizeof(buf), "snp 0 - - %s", all.c_str());
      break;
    }
    default: {
      // Doubling (absent counts as 1); a general function through ReadModifyWrite.
      std::string result;
      s = db->ReadModifyWrite(
          wo, key,
          [](const std::string* cur) -> std::optional<std::string> {
            int64_t n = 1;
            if (cur != nullptr && !Decode(*cur, &n)) n = 1;
            return Encode((n * 2) % 1000);
          },
          &result);
      op->ret = Now();
      int64_t n = 0;
      Decode(result, &n);
      std::snprintf(buf, sizeof(buf), "dbl %d - - %lld", k, static_cast<long long>(n));
      break;
    }
  }
  if (!s.ok()) {
    *error = s.ToString();
    return false;
  }
  op->text = buf;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Records concurrent histories of sluice operations for checker.go"};
  std::string memtable = "flodb", dir;
  int histories = 500, threads = 4, ops = 25, keys = 3;
  uint32_t seed = 1;
  bool broken = false, disable_wal = false, serializable = false;
  std::vector<int> kinds;
  app.add_option("--memtable", memtable, "memory component");
  app.add_option("--dir", dir, "database directory (created, then destroyed)")->required();
  app.add_option("--histories", histories, "number of histories")->check(CLI::PositiveNumber);
  app.add_option("--threads", threads, "threads per history")->check(CLI::PositiveNumber);
  app.add_option("--ops", ops, "operations per thread per history")->check(CLI::PositiveNumber);
  app.add_option("--keys", keys, "keys per history")->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "random seed");
  app.add_flag("--broken", broken, "disable read-modify-write conflict detection");
  app.add_flag("--disable_wal", disable_wal, "every write skips the WAL");
  app.add_flag("--serializable", serializable,
               "Options::linearizable_snapshots = false (snapshots may miss completed writes)");
  app.add_option(
         "--kinds", kinds,
         "only these operations (0 put, 1 get, 2 delete, 3 increment, 4 CAS, "
         "5 put-if-absent, 6 read-modify-write, 7 batch, 8 scan, 9 snapshot reads); default all")
      ->delimiter(',')
      ->check(CLI::Range(0, 9));
  CLI11_PARSE(app, argc, argv);

  sluice::Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  options.memtable = memtable;
  options.linearizable_snapshots = !serializable;
  options.write_buffer_size = 64 << 10;  // switches and flushes during the histories
  options.level0_file_num_compaction_trigger = 2;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dir, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "recorder: cannot open %s: %s\n", dir.c_str(), s.ToString().c_str());
    return 1;
  }
  if (broken) static_cast<sluice::DBImpl*>(db.get())->SetRmwConflictDetectionForTesting(false);

  sluice::WriteOptions write_options;
  write_options.disable_wal = disable_wal;
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    sluice::Random rnd(seed * 7 + 3);
    const std::string filler(300, 'f');
    for (uint32_t i = 0; !stop.load(std::memory_order_relaxed); i++) {
      db->Put(write_options, "churn" + std::to_string(rnd.Uniform(20000)), filler);
      if (i % 64 == 0) std::this_thread::yield();
    }
  });

  int status = 0;
  for (int h = 0; h < histories && status == 0; h++) {
    const std::string prefix = "h" + std::to_string(h) + "k";
    std::vector<std::vector<Op>> per_thread(static_cast<size_t>(threads));
    std::vector<std::string> errors(static_cast<size_t>(threads));
    std::vector<std::thread> workers;
    std::atomic<int> ready{0};
    for (int t = 0; t < threads; t++) {
      workers.emplace_back([&, t] {
        // Start together, so the threads' operations overlap.
        ready.fetch_add(1);
        while (ready.load() < threads) std::this_thread::yield();
        sluice::Random rnd(seed * 1000003u + static_cast<uint32_t>(h) * 131u +
                           static_cast<uint32_t>(t));
        for (int i = 0; i < ops; i++) {
          Op op;
          if (!RunOne(db.get(), write_options, &rnd, prefix, keys, broken, kinds, t, &op,
                      &errors[t])) {
            return;
          }
          per_thread[t].push_back(std::move(op));
        }
      });
    }
    for (auto& w : workers) w.join();
    std::printf("history %d\n", h);
    for (int t = 0; t < threads; t++) {
      if (!errors[t].empty()) {
        std::fprintf(stderr, "recorder: operation failed: %s\n", errors[t].c_str());
        status = 1;
      }
      for (const Op& op : per_thread[t]) {
        std::printf("%d %lld %lld %s\n", op.thread, static_cast<long long>(op.call),
                    static_cast<long long>(op.ret), op.text.c_str());
      }
    }
    std::printf("end\n");
  }
  stop.store(true);
  churn.join();
  s = db->Close();
  db.reset();
  if (!s.ok()) {
    std::fprintf(stderr, "recorder: close: %s\n", s.ToString().c_str());
    status = 1;
  }
  sluice::DestroyDB(dir, options);
  return status;
}
