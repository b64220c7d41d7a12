// tests/fuzz/db_api_fuzzer.cc — libFuzzer target: the public DB API against a std::map model.
//
// The input is a small program for a real sluice::DB in a scratch directory on tmpfs:
//   byte 0   memory component (flodb, skiplist, vector, vector-prealloc, hash-skiplist,
//            hash-linklist, adaptive)
//   byte 1   option bits: compression, bloom filter, paranoid_checks, restart interval, block
//            cache, linearizable_snapshots, write buffer size (16 or 64 KiB, so flushes happen)
//   then up to kMaxOps operations, one opcode byte each (low nibble: the operation; high
//   nibble: sync / disable_wal for writes; 0x80 turns a delete into a range deletion and ends a
//   write batch with one) followed by its arguments: put, delete, write batch,
//   get, iterator walk (seeks, next/prev), snapshot take/read/release, flush, compact range,
//   ReadModifyWrite, Increment, PutIfAbsent / CompareAndSwap, Scan, close-and-reopen (possibly
//   with another memory component; at most kMaxReopens per input), properties.
// Keys come mostly from a small space (many overwrites), sometimes from the input's bytes.
//
// Asserts: every operation returns OK (except Increment of a value that is not 8 bytes, which
// must be InvalidArgument, and Get of a missing key, NotFound); every read — Get, iterator
// positions in both directions, Scan, reads at live snapshots, read-modify-write results —
// agrees with the model; after each reopen and at the end the whole database equals the model.
// Any disagreement aborts with a description (libFuzzer saves the input).

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "sluice/db.h"
#include "sluice/options.h"
#include "util/coding.h"

namespace sluice::fuzz {
namespace {

using Model = std::map<std::string, std::string>;

constexpr int kMaxOps = 200;
// Opening costs milliseconds (threads, files, recovery): later reopen operations are no-ops.
constexpr int kMaxReopens = 3;
constexpr size_t kMaxSnapshots = 4;
const char* const kComponents[] = {"flodb",         "skiplist",      "vector",  "vector-prealloc",
                                   "hash-skiplist", "hash-linklist", "adaptive"};
constexpr size_t kNumComponents = sizeof(kComponents) / sizeof(kComponents[0]);

// Reads the input front to back; past the end every read yields 0.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::string Bytes(size_t n) {
    const size_t k = std::min(n, size_ - std::min(pos_, size_));
    std::string r(reinterpret_cast<const char*>(data_ + pos_), k);
    pos_ += k;
    return r;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

class Runner {
 public:
  Runner(const uint8_t* data, size_t size) : in_(data, size) {}

  void Run() {
    dir_ = FreshDir("db");
    const uint8_t component = in_.Byte();
    const uint8_t flags = in_.Byte();
    options_.create_if_missing = true;
    options_.memtable = kComponents[component % kNumComponents];
    options_.compression = static_cast<CompressionType>(flags & 3);
    options_.bloom_bits_per_key = (flags & 4) ? 10 : 0;
    options_.paranoid_checks = (flags & 8) == 0;
    options_.block_restart_interval = (flags & 16) ? 1 : 4;
    options_.block_cache_size = (flags & 32) ? 64 << 10 : 0;
    options_.linearizable_snapshots = (flags & 64) == 0;
    options_.write_buffer_size = (flags & 128) ? 64 << 10 : 16 << 10;
    options_.block_size = 256;
    options_.max_open_files = 8;
    options_.num_levels = 4;
    options_.level0_file_num_compaction_trigger = 2;
    options_.target_file_size_base = 8 << 10;
    options_.max_bytes_for_level_base = 16 << 10;
    options_.bucket_count = 16;
    options_.prefix_length = 2;
    Open();

    for (op_ = 0; op_ < kMaxOps && !in_.empty(); op_++) Step();

    CheckAll("at the end");
    ReleaseSnapshots();
    Status s = db_->Close();
    FUZZ_CHECK(s.ok(), "final Close: {}", s.ToString());
    db_.reset();
    RemoveDir(dir_);
  }

 private:
  struct Snap {
    const Snapshot* snapshot;
    Model model;
  };

  void Open() {
    Status s = DB::Open(options_, dir_, &db_);
    FUZZ_CHECK(s.ok(), "DB::Open (memtable {}): {}", options_.memtable, s.ToString());
  }

  std::string Where() const { return fmt::format("op {} (memtable {})", op_, options_.memtable); }

  std::string Key() {
    const uint8_t b = in_.Byte();
    if (b >= 0xf0) return in_.Bytes(b - 0xf0);  // 0..15 arbitrary bytes
    return fmt::format("k{:02d}", b % 48);
  }

  std::string Value() {
    const uint8_t b = in_.Byte();
    size_t len = b & 0x3f;
    if (b & 0x40) len *= 8;  // up to ~500 bytes: fills the write buffer quickly
    if (b & 0x80) len = 8;   // a counter-sized value
    std::string v = fmt::format("v{}.", op_);
    v.resize(len, static_cast<char>('a' + op_ % 26));
    return v;
  }

  WriteOptions WriteOpts(uint8_t opcode) const {
    WriteOptions wo;
    wo.sync = (opcode & 0x10) != 0;
    wo.disable_wal = (opcode & 0x20) != 0;
    return wo;
  }

  void ExpectOk(const Status& s, const char* what) {
    FUZZ_CHECK(s.ok(), "{}: {} returned {}", Where(), what, s.ToString());
  }

  // Get(key) at snapshot (or latest) must agree with model.
  void CheckGet(const std::string& key, const Snapshot* snapshot, const Model& model) {
    ReadOptions ro;
    ro.snapshot = snapshot;
    std::string value;
    Status s = db_->Get(ro, key, &value);
    auto it = model.find(key);
    if (it == model.end()) {
      FUZZ_CHECK(s.IsNotFound(), "{}: Get({}){} expected NotFound, got {} value {}", Where(),
                 Show(key), snapshot ? " at snapshot" : "", s.ToString(), Show(value));
    } else {
      FUZZ_CHECK(s.ok(), "{}: Get({}){} expected {}, got {}", Where(), Show(key),
                 snapshot ? " at snapshot" : "", Show(it->second), s.ToString());
      FUZZ_CHECK(value == it->second, "{}: Get({}){} expected {}, got {}", Where(), Show(key),
                 snapshot ? " at snapshot" : "", Show(it->second), Show(value));
    }
  }

  // An iterator at snapshot (or latest) walked from a seek chosen by the input, in step with a
  // cursor over model.
  void CheckIterator(const Snapshot* snapshot, const Model& model) {
    ReadOptions ro;
    ro.snapshot = snapshot;
    const uint8_t mode = in_.Byte();
    const uint8_t dirs = in_.Byte();
    std::string target;
    if ((mode & 3) >= 2) target = Key();
    std::unique_ptr<Iterator> it = db_->NewIterator(ro);
    auto pos = model.end();
    std::string trace;
    switch (mode & 3) {
      case 0:
        it->SeekToFirst();
        pos = model.begin();
        trace = "SeekToFirst";
        break;
      case 1:
        it->SeekToLast();
        pos = model.empty() ? model.end() : std::prev(model.end());
        trace = "SeekToLast";
        break;
      case 2:
        it->Seek(target);
        pos = model.lower_bound(target);
        trace = "Seek(" + Show(target) + ")";
        break;
      case 3:
        it->SeekForPrev(target);
        pos = model.upper_bound(target);
        pos = pos == model.begin() ? model.end() : std::prev(pos);
        trace = "SeekForPrev(" + Show(target) + ")";
        break;
    }
    const int steps = (mode >> 2) & 15;
    for (int i = 0;; i++) {
      const bool valid = pos != model.end();
      FUZZ_CHECK(it->Valid() == valid, "{}: iterator{} after {}: Valid() {} but model says {}{}",
                 Where(), snapshot ? " at snapshot" : "", trace, it->Valid(), valid,
                 valid ? " at " + Show(pos->first) : "");
      if (valid) {
        FUZZ_CHECK(it->key() == Slice(pos->first) && it->value() == Slice(pos->second),
                   "{}: iterator{} after {}: at {} = {}, model at {} = {}", Where(),
                   snapshot ? " at snapshot" : "", trace, Show(it->key().ToStringView()),
                   Show(it->value().ToStringView()), Show(pos->first), Show(pos->second));
      }
      if (!valid || i >= steps) break;
      if (dirs & (1u << (i % 8))) {
        it->Prev();
        pos = pos == model.begin() ? model.end() : std::prev(pos);
        trace += " Prev";
      } else {
        it->Next();
        ++pos;
        trace += " Next";
      }
    }
    FUZZ_CHECK(it->status().ok(), "{}: iterator status {}", Where(), it->status().ToString());
  }

  // The whole database, through a full scan and a Get of every model key.
  void CheckAll(const char* when) {
    std::unique_ptr<Iterator> it = db_->NewIterator(ReadOptions());
    auto pos = model_.begin();
    for (it->SeekToFirst(); it->Valid(); it->Next(), ++pos) {
      FUZZ_CHECK(pos != model_.end(), "{} {}: the DB holds {} beyond the model's last key", Where(),
                 when, Show(it->key().ToStringView()));
      FUZZ_CHECK(it->key() == Slice(pos->first) && it->value() == Slice(pos->second),
                 "{} {}: scan at {} = {}, model at {} = {}", Where(), when,
                 Show(it->key().ToStringView()), Show(it->value().ToStringView()), Show(pos->first),
                 Show(pos->second));
    }
    FUZZ_CHECK(it->status().ok(), "{} {}: scan status {}", Where(), when, it->status().ToString());
    FUZZ_CHECK(pos == model_.end(), "{} {}: the DB lacks {} (and what follows)", Where(), when,
               Show(pos->first));
    it.reset();
    for (const auto& [k, v] : model_) CheckGet(k, nullptr, model_);
  }

  void ReleaseSnapshots() {
    for (const Snap& s : snapshots_) db_->ReleaseSnapshot(s.snapshot);
    snapshots_.clear();
  }

  void Step() {
    const uint8_t opcode = in_.Byte();
    switch (opcode & 0x0f) {
      case 0: {  // put
        const std::string k = Key(), v = Value();
        ExpectOk(db_->Put(WriteOpts(opcode), k, v), "Put");
        model_[k] = v;
        break;
      }
      case 1: {  // delete; with bit 0x80, a range deletion [k, k2) (ends ordered)
        std::string k = Key();
        if (opcode & 0x80) {
          std::string k2 = Key();
          if (k2 < k) std::swap(k, k2);
          ExpectOk(db_->DeleteRange(WriteOpts(opcode), k, k2), "DeleteRange");
          model_.erase(model_.lower_bound(k), model_.lower_bound(k2));
          break;
        }
        ExpectOk(db_->Delete(WriteOpts(opcode), k), "Delete");
        model_.erase(k);
        break;
      }
      case 2: {  // write batch of 1..8 updates
        const uint8_t n = in_.Byte();
        WriteBatch batch;
        Model after = model_;
        for (int i = 0; i <= (n & 7); i++) {
          const std::string k = Key();
          if (n & (8u << (i % 5))) {
            batch.Delete(k);
            after.erase(k);
          } else {
            const std::string v = Value();
            batch.Put(k, v);
            after[k] = v;
          }
        }
        if (opcode & 0x80) {  // then a range deletion: it takes the batch's earlier updates too
          std::string a = Key(), b = Key();
          if (b < a) std::swap(a, b);
          batch.DeleteRange(a, b);
          after.erase(after.lower_bound(a), after.lower_bound(b));
          if (n & 0x80) {  // and a put inside the range after it, which stays
            const std::string v = Value();
            batch.Put(a, v);
            after[a] = v;
          }
        }
        ExpectOk(db_->Write(WriteOpts(opcode), &batch), "Write");
        model_ = std::move(after);
        break;
      }
      case 3:  // get
        CheckGet(Key(), nullptr, model_);
        break;
      case 4:  // iterator walk
        CheckIterator(nullptr, model_);
        break;
      case 5:  // take a snapshot
        if (snapshots_.size() < kMaxSnapshots) {
          snapshots_.push_back({db_->GetSnapshot(), model_});
        }
        break;
      case 6: {  // read at a snapshot
        const uint8_t which = in_.Byte();
        if (snapshots_.empty()) break;
        const Snap& snap = snapshots_[which % snapshots_.size()];
        if (which & 0x80) {
          CheckIterator(snap.snapshot, snap.model);
        } else {
          CheckGet(Key(), snap.snapshot, snap.model);
        }
        break;
      }
      case 7: {  // release a snapshot
        const uint8_t which = in_.Byte();
        if (snapshots_.empty()) break;
        const size_t i = which % snapshots_.size();
        db_->ReleaseSnapshot(snapshots_[i].snapshot);
        snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
      case 8:  // flush
        ExpectOk(db_->Flush(), "Flush");
        break;
      case 9: {  // compact a range
        const uint8_t how = in_.Byte();
        std::string b, e;
        if (how & 1) b = Key();
        if (how & 2) e = Key();
        const Slice bs(b), es(e);
        ExpectOk(db_->CompactRange((how & 1) ? &bs : nullptr, (how & 2) ? &es : nullptr),
                 "CompactRange");
        break;
      }
      case 10: {  // read-modify-write: append, or delete once long
        const std::string k = Key();
        const std::string tag = fmt::format("r{}", op_);
        auto fn = [&tag](const std::string* cur) -> std::optional<std::string> {
          if (cur == nullptr) return tag;
          if (cur->size() > 40) return std::nullopt;
          return *cur + "+" + tag;
        };
        std::string result = "unset";
        ExpectOk(db_->ReadModifyWrite(WriteOpts(opcode), k, fn, &result), "ReadModifyWrite");
        auto it = model_.find(k);
        const std::optional<std::string> expected = fn(it == model_.end() ? nullptr : &it->second);
        if (expected.has_value()) {
          FUZZ_CHECK(result == *expected, "{}: ReadModifyWrite({}) gave {}, model {}", Where(),
                     Show(k), Show(result), Show(*expected));
          model_[k] = *expected;
        } else {
          FUZZ_CHECK(result.empty(), "{}: ReadModifyWrite({}) deleted but result is {}", Where(),
                     Show(k), Show(result));
          model_.erase(k);
        }
        break;
      }
      case 11: {  // increment
        const std::string k = Key();
        const int64_t delta = static_cast<int8_t>(in_.Byte());
        int64_t result = 0;
        Status s = db_->Increment(WriteOpts(opcode), k, delta, &result);
        auto it = model_.find(k);
        if (it != model_.end() && it->second.size() != 8) {
          FUZZ_CHECK(s.IsInvalidArgument(), "{}: Increment({}) of a {}-byte value returned {}",
                     Where(), Show(k), it->second.size(), s.ToString());
          break;
        }
        ExpectOk(s, "Increment");
        const uint64_t base = it == model_.end() ? 0 : DecodeFixed64(it->second.data());
        const uint64_t sum = base + static_cast<uint64_t>(delta);
        FUZZ_CHECK(static_cast<uint64_t>(result) == sum, "{}: Increment({}) gave {}, model {}",
                   Where(), Show(k), result, static_cast<int64_t>(sum));
        std::string v(8, '\0');
        EncodeFixed64(v.data(), sum);
        model_[k] = v;
        break;
      }
      case 12: {  // put-if-absent or compare-and-swap
        const uint8_t how = in_.Byte();
        const std::string k = Key(), v = Value();
        auto it = model_.find(k);
        if (how & 1) {
          bool inserted = false;
          ExpectOk(db_->PutIfAbsent(WriteOpts(opcode), k, v, &inserted), "PutIfAbsent");
          FUZZ_CHECK(inserted == (it == model_.end()), "{}: PutIfAbsent({}) inserted={}", Where(),
                     Show(k), inserted);
          if (inserted) model_[k] = v;
        } else {
          // Expect the current value (succeeds), absence, or a value the key does not have.
          std::optional<std::string> expected;
          if ((how & 6) == 0 && it != model_.end()) expected = it->second;
          if ((how & 6) == 2) expected = "no such value";
          const bool should = expected.has_value() ? it != model_.end() && it->second == *expected
                                                   : it == model_.end();
          bool swapped = false;
          ExpectOk(db_->CompareAndSwap(WriteOpts(opcode), k,
                                       expected.has_value() ? &*expected : nullptr, v, &swapped),
                   "CompareAndSwap");
          FUZZ_CHECK(swapped == should, "{}: CompareAndSwap({}) swapped={}, model says {}", Where(),
                     Show(k), swapped, should);
          if (swapped) model_[k] = v;
        }
        break;
      }
      case 13: {  // bounded scan
        const uint8_t how = in_.Byte();
        const std::string start = Key();
        const std::string end = (how & 1) ? Key() : std::string();
        const size_t limit = how >> 1;
        std::vector<std::pair<std::string, std::string>> got;
        ExpectOk(db_->Scan(ReadOptions(), start, end, limit, &got), "Scan");
        std::vector<std::pair<std::string, std::string>> want;
        for (auto it = model_.lower_bound(start);
             it != model_.end() && want.size() < limit && (end.empty() || it->first < end); ++it) {
          want.emplace_back(it->first, it->second);
        }
        FUZZ_CHECK(got == want, "{}: Scan({}, {}, {}) returned {} pairs, model {}", Where(),
                   Show(start), Show(end), limit, got.size(), want.size());
        break;
      }
      case 14: {  // close and reopen, maybe with another memory component
        const uint8_t next = in_.Byte();
        if (++reopens_ > kMaxReopens) break;
        ReleaseSnapshots();
        Status s = db_->Close();
        FUZZ_CHECK(s.ok(), "{}: Close: {}", Where(), s.ToString());
        db_.reset();
        if (next & 0x80) options_.memtable = kComponents[next % kNumComponents];
        Open();
        CheckAll("after reopen");
        break;
      }
      case 15: {  // properties: must not crash
        std::string value;
        for (const char* p : {"sluice.stats", "sluice.sstables", "sluice.memory-usage",
                              "sluice.num-files-at-level0", "sluice.memtable-choices",
                              "sluice.io-counters", "sluice.flodb-stats"}) {
          db_->GetProperty(p, &value);
        }
        break;
      }
    }
  }

  Input in_;
  std::string dir_;
  Options options_;
  std::unique_ptr<DB> db_;
  Model model_;
  std::vector<Snap> snapshots_;
  int op_ = 0;
  int reopens_ = 0;
};

}  // namespace
}  // namespace sluice::fuzz

SLUICE_FUZZ_SMALL_ASAN_QUARANTINE()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sluice::fuzz::Runner(data, size).Run();
  return 0;
}
