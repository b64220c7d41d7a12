// tests/fuzz/wal_reader_fuzzer.cc — libFuzzer target: the input is a WAL file.
//
// 1. The log reader (src/wal/log_reader.h) reads every record. Asserts: every reported problem
//    is one of the documented kinds, is Corruption naming the file, lies inside the file, and
//    problems and records come in file order; record offsets are consistent. Every record is
//    decoded as a write batch (the WAL payload): malformed ones are Corruption, well-formed ones
//    iterate to exactly their count of updates.
// 2. Round trip: the records read, written again with log::Writer, read back identical and
//    without a single problem.
// 3. When at least one record is a valid batch, the real recovery path: the file becomes the
//    WAL of a fresh database and DB::Open replays it (paranoid_checks on; if that is
//    Corruption, it must name the WAL, and opening with paranoid_checks off must succeed).
//    When the batches' sequence numbers increase, the recovered database must equal the model
//    built from them (batches with a sequence number above 2^56 - 1 must be rejected); a write
//    after recovery must be visible over the replayed versions and survive a reopen.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "db/write_batch_internal.h"
#include "fuzz/fuzz_util.h"
#include "sluice/db.h"
#include "version/version_edit.h"
#include "version/version_set.h"
#include "wal/log_format.h"
#include "wal/log_reader.h"
#include "wal/log_writer.h"

namespace sluice::fuzz {
namespace {

const char* const kComponents[] = {"skiplist",      "flodb",         "vector",  "vector-prealloc",
                                   "hash-skiplist", "hash-linklist", "adaptive"};

// Checks each report against the reader's documentation.
class CheckingReporter final : public log::Reader::Reporter {
 public:
  CheckingReporter(std::string fname, uint64_t file_size, uint64_t* order)
      : fname_(std::move(fname)), file_size_(file_size), order_(order) {}

  void Report(log::Problem problem, uint64_t offset, size_t bytes, const Status& s) override {
    const int p = static_cast<int>(problem);
    FUZZ_CHECK(p >= static_cast<int>(log::Problem::kTruncatedTail) &&
                   p < static_cast<int>(log::Problem::kReadError),
               "undocumented problem kind {} (an in-memory file cannot fail a read)", p);
    FUZZ_CHECK(s.IsCorruption(), "problem {} reported as {}", p, s.ToString());
    FUZZ_CHECK(s.ToString().find(fname_) != std::string::npos, "report does not name {}: {}",
               fname_, s.ToString());
    FUZZ_CHECK(offset <= file_size_ && bytes <= file_size_ - offset,
               "report of {} bytes at offset {} outside the file of {} bytes: {}", bytes, offset,
               file_size_, s.ToString());
    FUZZ_CHECK(offset >= *order_, "report at offset {} after something at {}: {}", offset, *order_,
               s.ToString());
    *order_ = offset;
    count++;
  }

  int count = 0;

 private:
  const std::string fname_;
  const uint64_t file_size_;
  uint64_t* const order_;
};

struct Record {
  std::string payload;
  bool decoded = false;      // decodes as a write batch (perhaps an aborted one)
  bool valid_batch = false;  // decodes as a write batch that is not aborted, of the default family
  // Updates a column family other than the default one: recovery of a database that has only
  // the default family treats the record as damage (skipped without paranoid_checks).
  bool other_family = false;
  SequenceNumber sequence = 0;
  struct Update {
    char kind;  // 'p' put key=a value=b, 'd' delete a, 'r' delete range [a, b)
    std::string a, b;
  };
  std::vector<Update> updates;
};

class CollectingHandler final : public WriteBatch::Handler {
 public:
  explicit CollectingHandler(Record* r) : r_(r) {}
  void Put(const Slice& key, const Slice& value) override {
    r_->updates.push_back({'p', key.ToString(), value.ToString()});
  }
  void Delete(const Slice& key) override { r_->updates.push_back({'d', key.ToString(), ""}); }
  void DeleteRange(const Slice& begin, const Slice& end) override {
    r_->updates.push_back({'r', begin.ToString(), end.ToString()});
  }
  void PutCF(uint32_t family, const Slice& key, const Slice& value) override {
    r_->other_family = true;
    Put(key, value);
  }
  void DeleteCF(uint32_t family, const Slice& key) override {
    r_->other_family = true;
    Delete(key);
  }
  void DeleteRangeCF(uint32_t family, const Slice& begin, const Slice& end) override {
    r_->other_family = true;
    DeleteRange(begin, end);
  }

 private:
  Record* const r_;
};

// Step 1: reads every record, checking the reader's contract.
std::vector<Record> ReadAll(const std::string& contents, const std::string& fname) {
  uint64_t order = 0;
  CheckingReporter reporter(fname, contents.size(), &order);
  log::Reader reader(std::make_unique<MemSequentialFile>(contents), fname, &reporter);
  std::vector<Record> records;
  Slice payload;
  std::string scratch;
  uint64_t prev_end = 0;
  while (reader.ReadRecord(&payload, &scratch)) {
    const uint64_t start = reader.LastRecordOffset(), end = reader.EndOfLastRecord();
    FUZZ_CHECK(start >= prev_end && start >= order && start < end && end <= contents.size(),
               "record {} spans [{}, {}) after offset {} (file of {} bytes)", records.size(), start,
               end, std::max(prev_end, order), contents.size());
    FUZZ_CHECK(end - start >= payload.size() + log::kHeaderSize,
               "record of {} bytes spans only {} bytes", payload.size(), end - start);
    prev_end = end;
    order = start;

    Record r;
    r.payload = payload.ToString();
    WriteBatch batch;
    Status s = WriteBatchInternal::SetContents(&batch, payload);
    if (s.ok()) {
      CollectingHandler handler(&r);
      s = batch.Iterate(&handler);
      FUZZ_CHECK(s.ok(), "a batch SetContents accepted fails to iterate: {}", s.ToString());
      FUZZ_CHECK(r.updates.size() == WriteBatchInternal::Count(&batch),
                 "batch iterates {} updates, count says {}", r.updates.size(),
                 WriteBatchInternal::Count(&batch));
      r.decoded = true;
      r.valid_batch = !WriteBatchInternal::IsAborted(&batch) && !r.other_family;
      r.sequence = WriteBatchInternal::Sequence(&batch);
      FUZZ_CHECK(r.sequence <= kMaxSequenceNumber, "a batch with sequence {} is accepted",
                 r.sequence);
    } else {
      FUZZ_CHECK(s.IsCorruption(), "malformed batch reported as {}", s.ToString());
    }
    records.push_back(std::move(r));
  }
  return records;
}

// Step 2: write the records again and read them back.
void RoundTrip(const std::vector<Record>& records) {
  std::string file;
  {
    log::Writer writer(std::make_unique<MemWritableFile>(&file), "roundtrip.log");
    for (const Record& r : records) {
      Status s = writer.AddRecord(r.payload, /*sync=*/false);
      FUZZ_CHECK(s.ok(), "log::Writer::AddRecord: {}", s.ToString());
    }
    Status s = writer.Close();
    FUZZ_CHECK(s.ok(), "log::Writer::Close: {}", s.ToString());
  }
  uint64_t order = 0;
  CheckingReporter reporter("roundtrip.log", file.size(), &order);
  log::Reader reader(std::make_unique<MemSequentialFile>(file), "roundtrip.log", &reporter);
  Slice payload;
  std::string scratch;
  size_t i = 0;
  while (reader.ReadRecord(&payload, &scratch)) {
    FUZZ_CHECK(i < records.size(), "round trip yields more than the {} records written",
               records.size());
    FUZZ_CHECK(payload == Slice(records[i].payload), "round trip changed record {}", i);
    i++;
  }
  FUZZ_CHECK(i == records.size() && reporter.count == 0,
             "round trip read {} of {} records with {} problems", i, records.size(),
             reporter.count);
}

// From here on the database refuses writes (NotSupported: sequence numbers exhausted), so the
// write-after-recovery checks are skipped. A WAL or MANIFEST only gets there by being crafted.
constexpr SequenceNumber kNearlyExhausted = kMaxSequenceNumber - kSequenceMargin;

void ExpectClose(DB* db) {
  Status s = db->Close();
  FUZZ_CHECK(s.ok(), "Close: {}", s.ToString());
}

// The database's whole contents, or the error that stopped the scan.
Status Contents(DB* db, std::map<std::string, std::string>* out) {
  out->clear();
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    (*out)[it->key().ToString()] = it->value().ToString();
  }
  return it->status();
}

// Step 3: recovery through DB::Open.
void Recover(const std::string& contents, const std::vector<Record>& records) {
  const Record* first_valid = nullptr;
  bool increasing = true;
  SequenceNumber last = 0, max_sequence = 0;
  for (const Record& r : records) {
    // (A record of an unknown family is skipped whole: its sequence number does not count.)
    if (r.decoded && !r.other_family) max_sequence = std::max(max_sequence, r.sequence);
    if (!r.valid_batch) continue;
    if (first_valid != nullptr && r.sequence <= last) increasing = false;
    if (first_valid == nullptr) first_valid = &r;
    last = r.sequence;
  }
  if (first_valid == nullptr) return;

  // A fresh database (what VersionSet::CreateNew writes) whose WAL is the input.
  const std::string dir = FreshDir("wal-db");
  VersionEdit edit;
  edit.SetComparatorName(DefaultInternalKeyComparator()->user_comparator()->Name());
  edit.SetLogNumber(0);
  edit.SetNextFile(2);
  edit.SetLastSequence(0);
  Status s = WriteSingleEditManifest(Env::Default(), dir, 1, edit);
  FUZZ_CHECK(s.ok(), "WriteSingleEditManifest: {}", s.ToString());
  const std::string wal = dir + "/000003.log";
  WriteWholeFile(wal, contents);

  Options options;
  options.memtable = kComponents[first_valid->sequence % std::size(kComponents)];
  options.write_buffer_size = 64 << 10;
  options.paranoid_checks = true;
  std::unique_ptr<DB> db;
  s = DB::Open(options, dir, &db);
  if (!s.ok()) {
    FUZZ_CHECK(s.IsCorruption() && s.ToString().find(wal) != std::string::npos,
               "DB::Open of a damaged WAL (paranoid) must be Corruption naming {}: {}", wal,
               s.ToString());
    options.paranoid_checks = false;
    s = DB::Open(options, dir, &db);
    FUZZ_CHECK(s.ok(), "DB::Open with paranoid_checks=false (memtable {}): {}", options.memtable,
               s.ToString());
  }

  std::map<std::string, std::string> model;
  if (increasing) {
    for (const Record& r : records) {
      if (!r.valid_batch) continue;
      // In batch order: a range deletion takes the batch's earlier updates too (and a range
      // with begin > end, which DB::Write refuses but a crafted WAL may hold, is ignored).
      for (const Record::Update& u : r.updates) {
        if (u.kind == 'p') {
          model[u.a] = u.b;
        } else if (u.kind == 'd') {
          model.erase(u.a);
        } else if (u.a < u.b) {
          model.erase(model.lower_bound(u.a), model.lower_bound(u.b));
        }
      }
    }
  }
  std::map<std::string, std::string> got;
  s = Contents(db.get(), &got);
  FUZZ_CHECK(s.ok(), "scan after recovery: {}", s.ToString());
  if (increasing) {
    FUZZ_CHECK(got == model, "recovered {} keys, the WAL's batches give {} (memtable {})",
               got.size(), model.size(), options.memtable);
  }

  // A new write must take a sequence number above every replayed one. (Not checked when the
  // replayed ones leave almost no sequence numbers: the write path does not refuse writes once
  // they run out, see kNearlyExhausted.)
  if (max_sequence >= kNearlyExhausted) {
    ExpectClose(db.get());
    RemoveDir(dir);
    return;
  }
  const std::string key = got.empty() ? std::string("after") : got.begin()->first;
  s = db->Put(WriteOptions(), key, "written after recovery");
  FUZZ_CHECK(s.ok(), "Put after recovery: {}", s.ToString());
  got[key] = "written after recovery";
  std::string value;
  s = db->Get(ReadOptions(), key, &value);
  FUZZ_CHECK(s.ok() && value == "written after recovery",
             "Get({}) after recovery: {} {} (last replayed sequence {})", Show(key), s.ToString(),
             Show(value), last);
  ExpectClose(db.get());
  db.reset();

  options.paranoid_checks = true;
  s = DB::Open(options, dir, &db);
  FUZZ_CHECK(s.ok(), "reopen after recovery: {}", s.ToString());
  std::map<std::string, std::string> again;
  s = Contents(db.get(), &again);
  FUZZ_CHECK(s.ok() && again == got, "reopen after recovery: {}, {} keys, before {}", s.ToString(),
             again.size(), got.size());
  ExpectClose(db.get());
  db.reset();
  RemoveDir(dir);
}

}  // namespace
}  // namespace sluice::fuzz

SLUICE_FUZZ_SMALL_ASAN_QUARANTINE()

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sluice::fuzz;
  const std::string contents(reinterpret_cast<const char*>(data), size);
  const std::vector<Record> records = ReadAll(contents, "/fuzz/000003.log");
  RoundTrip(records);
  Recover(contents, records);
  return 0;
}
