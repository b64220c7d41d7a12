// tests/fuzz/fuzz_seed_gen.cc — writes the seed corpora of the fuzz targets with the library:
// real WAL files (log::Writer over encoded write batches), SST files (TableBuilder, every
// compression, with and without a bloom filter, one and several data blocks), MANIFESTs (a new
// database's, a real database's after flushes and compactions, hand-built edit sequences) and
// operation scripts for db_api_fuzzer (its input format is described in db_api_fuzzer.cc).
//
// Usage: fuzz_seed_gen <dir>  — creates <dir>/<target>/seed-* (existing files are replaced).
// scripts/fuzz.sh --seeds regenerates tests/fuzz/corpus with it.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "db/write_batch_internal.h"
#include "fuzz/fuzz_util.h"
#include "sluice/db.h"
#include "table/table_builder.h"
#include "table/table_options.h"
#include "version/version_edit.h"
#include "wal/log_writer.h"

namespace sluice::fuzz {
namespace {

std::string out_dir;

void Emit(const std::string& target, const std::string& name, const std::string& bytes) {
  const std::string dir = out_dir + "/" + target;
  std::filesystem::create_directories(dir);
  WriteWholeFile(dir + "/seed-" + name, bytes);
  std::printf("%s/seed-%s: %zu bytes\n", target.c_str(), name.c_str(), bytes.size());
}

// A log file (WAL or MANIFEST format) holding these records.
std::string LogFile(const std::vector<std::string>& records) {
  std::string file;
  log::Writer writer(std::make_unique<MemWritableFile>(&file), "seed.log");
  for (const std::string& r : records) {
    Status s = writer.AddRecord(r, /*sync=*/false);
    if (!s.ok()) Fail(__FILE__, __LINE__, s.ToString());
  }
  writer.Close();
  return file;
}

std::string Batch(SequenceNumber seq, const std::vector<std::pair<std::string, std::string>>& puts,
                  const std::vector<std::string>& deletes, bool aborted = false,
                  const std::vector<std::pair<std::string, std::string>>& ranges = {}) {
  WriteBatch b;
  for (const auto& [k, v] : puts) b.Put(k, v);
  for (const std::string& k : deletes) b.Delete(k);
  for (const auto& [begin, end] : ranges) b.DeleteRange(begin, end);
  WriteBatchInternal::SetSequence(&b, seq);
  if (aborted) WriteBatchInternal::MarkAborted(&b);
  return WriteBatchInternal::Contents(&b).ToString();
}

// Emits every MANIFEST file of the database directory dir as seed `name` of target t.
void EmitManifests(const std::string& t, const std::string& name, const std::string& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("MANIFEST-", 0) != 0) continue;
    std::FILE* f = std::fopen(entry.path().c_str(), "rb");
    std::string bytes;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.append(buf, n);
    std::fclose(f);
    Emit(t, name, bytes);
  }
}

void WalSeeds() {
  const std::string t = "wal_reader_fuzzer";
  const std::vector<std::string> small = {
      Batch(1, {{"apple", "red"}, {"banana", "yellow"}}, {}),
      Batch(2, {{"cherry", "dark red"}}, {"apple"}),
      Batch(3, {{"banana", "green"}, {"date", ""}}, {"fig"}),
  };
  Emit(t, "small", LogFile(small));
  Emit(t, "aborted",
       LogFile({Batch(5, {{"k1", "v1"}}, {}), Batch(6, {{"k2", "lost"}}, {}, /*aborted=*/true),
                Batch(7, {}, {"k1"})}));
  // A record spanning two blocks (FIRST + LAST fragments), then a small one.
  Emit(t, "multiblock",
       LogFile(
           {Batch(10, {{"big", std::string(33000, 'x')}}, {}), Batch(11, {{"after", "1"}}, {})}));
  // A torn tail: the last record cut short.
  std::string torn = LogFile(small);
  torn.resize(torn.size() - 5);
  Emit(t, "torn", torn);
  // A counter (8 bytes) and many small batches.
  std::vector<std::string> many;
  for (int i = 0; i < 40; i++) {
    many.push_back(
        Batch(100 + static_cast<SequenceNumber>(i),
              {{fmt::format("key{:03d}", i % 13), fmt::format("value{}", i)}},
              i % 5 == 0 ? std::vector<std::string>{"key000"} : std::vector<std::string>{}));
  }
  Emit(t, "many", LogFile(many));
  Emit(t, "rangedel",
       LogFile({Batch(20, {{"a", "1"}, {"m", "2"}}, {}), Batch(21, {}, {}, false, {{"a", "n"}}),
                Batch(22, {{"b", "3"}}, {"c"}, false, {{"x", "z"}, {"q", "q"}})}));
  // A batch across column families (records with the family bit): damage for a database
  // that has only the default family.
  struct IdHandle final : ColumnFamilyHandle {
    explicit IdHandle(uint32_t i) : id(i) {}
    const std::string& GetName() const override { return name; }
    uint32_t GetID() const override { return id; }
    uint32_t id;
    std::string name = "seed";
  } family(3);
  WriteBatch across;
  across.Put("d", "default");
  across.Put(&family, "f", "family 3");
  across.DeleteRange(&family, "a", "c");
  WriteBatchInternal::SetSequence(&across, 31);
  Emit(t, "families",
       LogFile({Batch(30, {{"k", "v"}}, {}), WriteBatchInternal::Contents(&across).ToString(),
                Batch(32, {{"k2", "v2"}}, {})}));
}

// Sorted internal-key entries over n user keys, some with two versions, some deletions.
std::vector<std::pair<std::string, std::string>> Entries(int n) {
  std::vector<std::pair<std::string, std::string>> kvs;
  SequenceNumber seq = 1000;
  for (int i = 0; i < n; i++) {
    for (int v = 0; v < (i % 5 == 0 ? 2 : 1); v++) {
      const bool deletion = v == 0 && i % 7 == 3;
      std::string key;
      AppendInternalKey(&key, ParsedInternalKey(fmt::format("key{:07d}", 2 * i), seq--,
                                                deletion ? kTypeDeletion : kTypeValue));
      kvs.emplace_back(key, deletion ? "" : std::string(static_cast<size_t>(i % 40), 'a' + i % 26));
    }
  }
  return kvs;
}

std::string Sst(const TableOptions& options, int n,
                const std::vector<RangeTombstone>& tombstones = {}) {
  std::string file;
  MemWritableFile sink(&file);
  TableBuilder builder(options, &sink);
  for (const auto& [k, v] : Entries(n)) builder.Add(k, v);
  for (const RangeTombstone& t : tombstones) builder.AddRangeTombstone(t);
  Status s = builder.Finish();
  if (!s.ok()) Fail(__FILE__, __LINE__, s.ToString());
  return file;
}

void TableSeeds() {
  const std::string t = "table_reader_fuzzer";
  TableOptions o;
  o.compression = CompressionType::kNone;
  Emit(t, "plain", Sst(o, 12));
  Emit(t, "empty", Sst(o, 0));
  o.bloom_bits_per_key = 0;
  Emit(t, "nofilter", Sst(o, 5));
  o.bloom_bits_per_key = 10;
  o.block_size = 256;
  o.block_restart_interval = 4;
  Emit(t, "multiblock", Sst(o, 60));
  o.compression = CompressionType::kSnappy;
  Emit(t, "snappy", Sst(o, 60));
  o.compression = CompressionType::kZstd;
  Emit(t, "zstd", Sst(o, 60));
  o.compression = CompressionType::kLz4;
  Emit(t, "lz4", Sst(o, 60));
  o.block_restart_interval = 1;
  o.compression = CompressionType::kNone;
  Emit(t, "restart1", Sst(o, 20));
  const std::vector<RangeTombstone> tombstones = {
      {"key0000004", "key0000020", 300}, {"key0000010", "key0000030", 310}, {"a", "b", 5}};
  Emit(t, "rangedel", Sst(o, 20, tombstones));
  Emit(t, "rangedel-only", Sst(o, 0, tombstones));
  Emit(t, "rangedel-block", EncodeRangeTombstones(tombstones));
}

FileMetaData File(uint64_t number, const std::string& smallest, const std::string& largest,
                  SequenceNumber seq) {
  FileMetaData f;
  f.number = number;
  f.file_size = 1000 + number;
  f.smallest = InternalKey(smallest, seq, kTypeValue);
  f.largest = InternalKey(largest, seq + 5, kTypeDeletion);
  f.smallest_seqno = seq;
  f.largest_seqno = seq + 5;
  f.num_entries = 10;
  f.num_deletions = 1;
  return f;
}

std::string Encode(const VersionEdit& e) {
  std::string r;
  e.EncodeTo(&r);
  return r;
}

void ManifestSeeds() {
  const std::string t = "manifest_reader_fuzzer";
  const std::string cmp = DefaultInternalKeyComparator()->user_comparator()->Name();
  // A new database's MANIFEST (VersionSet::CreateNew).
  VersionEdit fresh;
  fresh.SetComparatorName(cmp);
  fresh.SetLogNumber(0);
  fresh.SetNextFile(2);
  fresh.SetLastSequence(0);
  Emit(t, "new-db", LogFile({Encode(fresh)}));

  // A version with files and compaction pointers, then an edit removing every file: recovers
  // to an empty version, which DB::Open accepts.
  VersionEdit full;
  full.SetComparatorName(cmp);
  full.SetCompactPointer(1, InternalKey("m", 50, kTypeValue));
  full.AddFile(0, File(7, "a", "z", 40));
  full.AddFile(1, File(5, "a", "f", 10));
  full.AddFile(1, File(6, "g", "p", 20));
  full.AddFile(2, File(4, "b", "y", 5));
  FileMetaData with_tombstones = File(3, "c", "d", 3);  // tag 8: a file with range tombstones
  with_tombstones.num_range_deletions = 2;
  full.AddFile(3, with_tombstones);
  VersionEdit move;
  move.RemoveFile(0, 7);
  move.AddFile(1, File(8, "q", "z", 60));
  move.SetLogNumber(9);
  move.SetNextFile(10);
  move.SetLastSequence(70);
  VersionEdit drop;
  for (auto [level, number] : {std::pair{1, 5}, {1, 6}, {1, 8}, {2, 4}, {3, 3}}) {
    drop.RemoveFile(level, static_cast<uint64_t>(number));
  }
  drop.SetLogNumber(0);
  drop.SetNextFile(11);
  drop.SetLastSequence(80);
  Emit(t, "files-then-none", LogFile({Encode(full), Encode(move), Encode(drop)}));
  Emit(t, "files", LogFile({Encode(full), Encode(move)}));
  std::string torn = LogFile({Encode(fresh), Encode(full)});
  torn.resize(torn.size() - 3);
  Emit(t, "torn-tail", torn);

  // The MANIFEST of a real database after flushes and a compaction.
  const std::string dir = FreshDir("seed-db");
  Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 16 << 10;
  options.level0_file_num_compaction_trigger = 2;
  std::unique_ptr<DB> db;
  Status s = DB::Open(options, dir, &db);
  if (!s.ok()) Fail(__FILE__, __LINE__, s.ToString());
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 50; i++) {
      db->Put(WriteOptions(), fmt::format("key{:04d}", i * 3 + round), std::string(100, 'v'));
    }
    db->Flush();
  }
  db->CompactRange(nullptr, nullptr);
  db->Close();
  db.reset();
  EmitManifests(t, "real-db", dir);
  RemoveDir(dir);

  // Column families: created, written, flushed, one dropped (tags 9-12).
  const std::string fdir = FreshDir("seed-families");
  s = DB::Open(options, fdir, &db);
  if (!s.ok()) Fail(__FILE__, __LINE__, s.ToString());
  ColumnFamilyHandle* users = nullptr;
  ColumnFamilyHandle* logs = nullptr;
  db->CreateColumnFamily(options, "users", &users);
  db->CreateColumnFamily(options, "logs", &logs);
  for (int i = 0; i < 50; i++) {
    db->Put(WriteOptions(), users, fmt::format("user{:03d}", i), std::string(50, 'u'));
    db->Put(WriteOptions(), logs, fmt::format("log{:03d}", i), std::string(50, 'l'));
  }
  db->Flush(users);
  db->DropColumnFamily(logs);
  db->Close();
  db.reset();
  EmitManifests(t, "families", fdir);
  RemoveDir(fdir);
}

// Operation scripts in db_api_fuzzer's format: [component, flags] then opcode + arguments.
class Script {
 public:
  Script(uint8_t component, uint8_t flags)
      : b_{static_cast<char>(component), static_cast<char>(flags)} {}
  Script& Op(std::initializer_list<int> bytes) {
    for (int x : bytes) b_.push_back(static_cast<char>(x));
    return *this;
  }
  Script& Put(int key, int value) { return Op({0, key, value}); }
  Script& Del(int key) { return Op({1, key}); }
  Script& Get(int key) { return Op({3, key}); }
  const std::string& bytes() const { return b_; }

 private:
  std::string b_;
};

void ApiSeeds() {
  const std::string t = "db_api_fuzzer";
  for (int c = 0; c < 7; c++) {
    Script s(static_cast<uint8_t>(c), static_cast<uint8_t>(c * 37));
    for (int i = 0; i < 24; i++)
      s.Put(i * 5 % 48, 0x40 | (i * 7 % 64));  // values of up to ~500 bytes
    s.Del(10).Del(15).Get(10).Get(20);
    s.Op({0x02, 0x2b, 3, 5, 4, 6, 7, 9, 8, 10, 11});  // a batch
    s.Op({0x04, 0x3c, 0x55});                         // iterator from first, 15 steps
    s.Op({0x05});                                     // snapshot
    for (int i = 0; i < 10; i++) s.Put(i * 3 % 48, 0x60);
    s.Op({0x06, 0x00, 3}).Op({0x06, 0x80, 0x3e, 0xaa, 9});  // reads at the snapshot
    s.Op({0x08});                                           // flush
    s.Op({0x0a, 7}).Op({0x0a, 7});                          // read-modify-write
    s.Op({0x0b, 30, 5}).Op({0x1b, 30, 0xfb});               // increments
    s.Op({0x0c, 1, 40, 3}).Op({0x0c, 0, 40, 4});            // put-if-absent, CAS
    s.Op({0x0d, 0x15, 2, 30});                              // scan
    s.Op({0x09, 3, 0, 47});                                 // compact a range
    s.Op({0x07, 0});                                        // release the snapshot
    s.Op({0x2e, static_cast<int>(0x80 | ((c + 1) % 7))});   // reopen, next component
    s.Get(0).Get(5).Op({0x04, 0x7d, 0x0f}).Op({0x0f});
    Emit(t, fmt::format("script{}", c), s.bytes());
  }
  // Arbitrary keys and disable_wal writes across a reopen.
  Script w(1, 0x80);
  w.Op({0x20, 0xf3, 'a', 'b', 'c', 5}).Op({0x20, 0xf0, 6}).Op({0x30, 0xf1, 0, 0x88});
  w.Op({0x0e, 0}).Op({0x03, 0xf3, 'a', 'b', 'c'}).Op({0x03, 0xf0}).Op({0x04, 0x3c, 0});
  Emit(t, "nowal", w.bytes());
  // Range deletions: alone (0x81: [k, k2)), at the end of a batch (0x82, with a put inside the
  // range after it when the batch's byte has 0x80), across a flush, a snapshot and a reopen.
  Script r(2, 0x10);
  for (int i = 0; i < 40; i++) r.Put(i, 0x50);
  r.Op({0x05});                                           // snapshot
  r.Op({0x81, 5, 15}).Get(5).Get(14).Get(15);             // delete [k05, k15)
  r.Op({0x08});                                           // flush
  r.Op({0x81, 30, 20}).Op({0x04, 0x3c, 0x55});            // [k20, k30), then iterate
  r.Op({0x82, 0x83, 1, 2, 3, 4, 0x20, 25, 35, 9});        // batch + range + put after it
  r.Op({0x06, 0x00, 7}).Op({0x09, 0, 0, 47});             // read at the snapshot, compact
  r.Op({0x07, 0}).Op({0x09, 0, 0, 47}).Op({0x2e, 0x83});  // release, compact, reopen
  r.Get(7).Get(25).Op({0x04, 0x7d, 0x0f});
  Emit(t, "rangedel", r.bytes());
}

}  // namespace
}  // namespace sluice::fuzz

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <corpus dir>\n", argv[0]);
    return 2;
  }
  sluice::fuzz::out_dir = argv[1];
  sluice::fuzz::WalSeeds();
  sluice::fuzz::TableSeeds();
  sluice::fuzz::ManifestSeeds();
  sluice::fuzz::ApiSeeds();
  return 0;
}
