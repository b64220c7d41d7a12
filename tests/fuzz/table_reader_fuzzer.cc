// tests/fuzz/table_reader_fuzzer.cc — libFuzzer target: the input is an SST file.
//
// 1. Table::Open (src/table/table.h) on the bytes, then two passes over the table: one reading
//    data blocks without checksums and without a cache (so damaged blocks reach the block
//    parser and the decompressors), one through a block cache (checksums verified). Each pass
//    iterates forward and backward, seeks, and looks up keys with InternalGet and
//    ApproximateOffsetOf; VerifyChecksums runs once.
// 2. The raw bytes as one block's contents (src/table/block.h), iterated both ways with the
//    bytewise and the internal-key comparator; and as one stored block with its trailer
//    (ReadBlock without checksum: every decompressor sees arbitrary bytes); as a bloom filter;
//    and as a range tombstone ("rangedel") block, decoded and fragmented.
//
// Asserts: nothing crashes or reads out of bounds (ASan); every error is Corruption naming the
// file; a complete, error-free forward iteration is matched exactly by the backward one; the
// verified and unverified passes agree when both succeed; a table VerifyChecksums accepts
// iterates without error over exactly properties().num_entries entries; lookups and seeks
// land on keys at or after their target; approximate offsets lie inside the file.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/internal_key.h"
#include "base/range_tombstone.h"
#include "fuzz/fuzz_util.h"
#include "table/block.h"
#include "table/bloom.h"
#include "table/format.h"
#include "table/table.h"
#include "table/table_options.h"
#include "util/cache.h"
#include "util/comparator.h"

namespace sluice::fuzz {
namespace {

const std::string kFname = "/fuzz/000007.sst";
// Bounds the work per input: a crafted index can point at one data block many times.
constexpr size_t kMaxEntries = 4096;
constexpr size_t kMaxLookups = 32;

using Entries = std::vector<std::pair<std::string, std::string>>;

// Walks `it` forward (at most kMaxEntries); *complete if it reached the end. Checks the status.
Entries Forward(InternalIterator* it, const char* what, bool* complete) {
  Entries out;
  *complete = false;
  it->SeekToFirst();
  while (it->Valid()) {
    if (out.size() >= kMaxEntries) return out;
    out.emplace_back(it->key().ToString(), it->value().ToString());
    it->Next();
  }
  CheckCorruptionNames(it->status(), kFname, what);
  *complete = it->status().ok();
  return out;
}

// Walks `it` backward and checks it yields exactly the reverse of `forward`.
void CheckBackward(InternalIterator* it, const Entries& forward, const char* what) {
  it->SeekToLast();
  size_t i = forward.size();
  while (it->Valid()) {
    FUZZ_CHECK(i > 0, "{}: backward iteration yields more than the {} entries seen forward", what,
               forward.size());
    i--;
    FUZZ_CHECK(it->key() == Slice(forward[i].first) && it->value() == Slice(forward[i].second),
               "{}: backward entry {} is {}, forward had {}", what, i,
               Show(it->key().ToStringView()), Show(forward[i].first));
    it->Prev();
  }
  CheckCorruptionNames(it->status(), kFname, what);
  FUZZ_CHECK(it->status().ok() && i == 0,
             "{}: backward iteration stopped {} entries short of the forward one: {}", what, i,
             it->status().ToString());
}

// Seek targets: keys seen (and neighbours of them), plus a few fixed internal keys.
std::vector<std::string> Targets(const Entries& entries, bool internal) {
  std::vector<std::string> targets;
  for (size_t i = 0; i < entries.size() && targets.size() < kMaxLookups; i += 1 + i / 4) {
    const std::string& k = entries[i].first;
    targets.push_back(k);
    if (internal && k.size() >= 8) {
      std::string newest;
      AppendInternalKey(
          &newest, ParsedInternalKey(ExtractUserKey(k), kMaxSequenceNumber, kValueTypeForSeek));
      targets.push_back(newest);
    } else if (!internal) {
      targets.push_back(k + '\0');
    }
  }
  std::string k;
  AppendInternalKey(&k, ParsedInternalKey("", kMaxSequenceNumber, kValueTypeForSeek));
  targets.push_back(k);
  k.clear();
  AppendInternalKey(&k, ParsedInternalKey("key0000050", 100, kTypeValue));
  targets.push_back(k);
  k.clear();
  AppendInternalKey(&k, ParsedInternalKey("\xff\xff\xff", 0, kTypeDeletion));
  targets.push_back(k);
  return targets;
}

// The fragmented index's invariants: fragments non-empty, sorted and disjoint, each with
// distinct sequence numbers in descending order; a lookup of each fragment's begin finds it.
void CheckFragments(const FragmentedRangeTombstones& t, const char* what) {
  const FragmentedRangeTombstones::Fragment* prev = nullptr;
  for (const auto& f : t.fragments()) {
    FUZZ_CHECK(Slice(f.begin).compare(Slice(f.end)) < 0, "{}: an empty fragment", what);
    FUZZ_CHECK(prev == nullptr || Slice(prev->end).compare(Slice(f.begin)) <= 0,
               "{}: fragments overlap or are out of order", what);
    FUZZ_CHECK(!f.seqs.empty(), "{}: a fragment without tombstones", what);
    for (size_t i = 1; i < f.seqs.size(); i++) {
      FUZZ_CHECK(f.seqs[i - 1] > f.seqs[i], "{}: sequence numbers not descending", what);
    }
    FUZZ_CHECK(t.FindFragment(f.begin) == &f, "{}: lookup of a fragment's begin", what);
    FUZZ_CHECK(t.MaxCoveringSequence(f.begin, kMaxSequenceNumber) == f.seqs[0],
               "{}: MaxCoveringSequence of a fragment's begin", what);
    prev = &f;
  }
}

// Seeks to every target; the table's index may be crafted, so only the status is checked.
void CheckSeeks(InternalIterator* it, const std::vector<std::string>& targets, const char* what) {
  for (const std::string& t : targets) {
    it->Seek(t);
    CheckCorruptionNames(it->status(), kFname, what);
  }
}

struct PassResult {
  Entries entries;
  bool complete = false;
};

PassResult TablePass(const Table& table, const ReadOptions& ro, const char* what) {
  PassResult r;
  const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
  {
    std::unique_ptr<InternalIterator> it = table.NewIterator(ro);
    r.entries = Forward(it.get(), what, &r.complete);
  }
  for (const auto& [k, v] : r.entries) {
    FUZZ_CHECK(k.size() >= 8, "{}: table iterator yields a key of {} bytes", what, k.size());
  }
  if (r.complete) {
    std::unique_ptr<InternalIterator> it = table.NewIterator(ro);
    CheckBackward(it.get(), r.entries, what);
  }
  const std::vector<std::string> targets = Targets(r.entries, /*internal=*/true);
  {
    std::unique_ptr<InternalIterator> it = table.NewIterator(ro);
    CheckSeeks(it.get(), targets, what);
  }
  for (const std::string& t : targets) {
    bool called = false;
    Status s = table.InternalGet(ro, t, [&](const Slice& key, const Slice& value) {
      FUZZ_CHECK(!called, "{}: InternalGet calls found twice", what);
      called = true;
      FUZZ_CHECK(key.size() >= 8, "{}: InternalGet found a key of {} bytes", what, key.size());
      FUZZ_CHECK(icmp->Compare(key, t) >= 0, "{}: InternalGet({}) found the smaller key {}", what,
                 Show(t), Show(key.ToStringView()));
    });
    CheckCorruptionNames(s, kFname, what);
  }
  return r;
}

void FuzzTable(const std::string& contents) {
  std::shared_ptr<Cache> cache = NewLRUCache(256 << 10, 0);

  // Pass A: no cache, no checksums on data blocks.
  TableOptions unverified;
  unverified.paranoid_checks = false;
  std::unique_ptr<Table> table;
  Status s = Table::Open(unverified, std::make_unique<MemRandomAccessFile>(contents),
                         contents.size(), kFname, &table);
  CheckCorruptionNames(s, kFname, "Table::Open");
  if (!s.ok()) {
    FUZZ_CHECK(table == nullptr, "Table::Open failed but returned a table");
    return;
  }
  for (const std::string& t : Targets({}, true)) {
    FUZZ_CHECK(table->ApproximateOffsetOf(t) <= contents.size(),
               "ApproximateOffsetOf is past the end of the file");
  }
  ReadOptions raw;
  raw.fill_cache = false;
  raw.verify_checksums = false;
  const PassResult a = TablePass(*table, raw, "unverified pass");
  for (size_t i = 0; i < a.entries.size() && i < kMaxLookups; i++) {
    const std::string& k = a.entries[i].first;
    FUZZ_CHECK(table->ApproximateOffsetOf(k) <= contents.size(),
               "ApproximateOffsetOf({}) is past the end of the file", Show(k));
    table->KeyMayMatch(ExtractUserKey(k));
  }
  const Status verify = table->VerifyChecksums();
  CheckCorruptionNames(verify, kFname, "VerifyChecksums");
  if (table->range_tombstones() != nullptr) {
    CheckFragments(*table->range_tombstones(), "the table's range tombstones");
  }
  const uint64_t num_entries = table->properties().num_entries;
  table.reset();

  // Pass B: through the block cache, checksums verified.
  TableOptions cached;
  cached.paranoid_checks = true;
  cached.block_cache = cache.get();
  s = Table::Open(cached, std::make_unique<MemRandomAccessFile>(contents), contents.size(), kFname,
                  &table);
  FUZZ_CHECK(s.ok(), "Table::Open succeeded once, then failed: {}", s.ToString());
  const PassResult b = TablePass(*table, ReadOptions(), "verified pass");
  // Twice: the second pass reads from the cache.
  const PassResult b2 = TablePass(*table, ReadOptions(), "cached pass");
  FUZZ_CHECK(b.complete == b2.complete && b.entries == b2.entries,
             "reading through the cache changed the result ({} vs {} entries)", b.entries.size(),
             b2.entries.size());
  if (a.complete && b.complete) {
    FUZZ_CHECK(a.entries == b.entries, "verified pass read {} entries, unverified {}",
               b.entries.size(), a.entries.size());
  }
  if (verify.ok()) {
    FUZZ_CHECK(b.complete || b.entries.size() >= kMaxEntries,
               "VerifyChecksums accepts the table but iterating it fails");
    if (b.complete) {
      FUZZ_CHECK(b.entries.size() == num_entries,
                 "VerifyChecksums accepts the table, which iterates {} entries; properties say {}",
                 b.entries.size(), num_entries);
      const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
      for (size_t i = 1; i < b.entries.size(); i++) {
        FUZZ_CHECK(icmp->Compare(b.entries[i - 1].first, b.entries[i].first) < 0,
                   "VerifyChecksums accepts keys out of order at entry {}", i);
      }
    }
  }
}

// The raw bytes as one block.
void FuzzBlock(const std::string& contents) {
  const Block block(BlockContents{contents});
  struct Mode {
    const Comparator* cmp;
    size_t min_key_size;
    const char* what;
  };
  const Mode modes[] = {{BytewiseComparator(), 0, "raw block, bytewise"},
                        {DefaultInternalKeyComparator(), 8, "raw block, internal keys"}};
  for (const Mode& m : modes) {
    bool complete = false;
    Entries entries;
    {
      std::unique_ptr<InternalIterator> it = block.NewIterator(m.cmp, kFname, 0, m.min_key_size);
      entries = Forward(it.get(), m.what, &complete);
      if (!block.ok()) {
        FUZZ_CHECK(!it->status().ok() && entries.empty(),
                   "{}: a block that failed validation iterates", m.what);
      }
    }
    for (const auto& [k, v] : entries) {
      FUZZ_CHECK(k.size() >= m.min_key_size, "{}: key of {} bytes", m.what, k.size());
    }
    if (complete) {
      std::unique_ptr<InternalIterator> it = block.NewIterator(m.cmp, kFname, 0, m.min_key_size);
      CheckBackward(it.get(), entries, m.what);
    }
    // With keys in order, a seek must land exactly where a binary search of the entries does.
    bool sorted = complete;
    for (size_t i = 1; sorted && i < entries.size(); i++) {
      sorted = m.cmp->Compare(entries[i - 1].first, entries[i].first) < 0;
    }
    std::unique_ptr<InternalIterator> it = block.NewIterator(m.cmp, kFname, 0, m.min_key_size);
    const std::vector<std::string> targets = Targets(entries, m.min_key_size == 8);
    for (const std::string& t : targets) {
      it->Seek(t);
      CheckCorruptionNames(it->status(), kFname, m.what);
      if (it->Valid()) {
        FUZZ_CHECK(m.cmp->Compare(it->key(), t) >= 0, "{}: Seek({}) lands before it, on {}", m.what,
                   Show(t), Show(it->key().ToStringView()));
      }
      if (!sorted) continue;
      size_t lo = 0;
      while (lo < entries.size() && m.cmp->Compare(entries[lo].first, t) < 0) lo++;
      FUZZ_CHECK(it->status().ok() && it->Valid() == (lo < entries.size()),
                 "{}: Seek({}) valid={} status {}, {} of {} entries are below it", m.what, Show(t),
                 it->Valid(), it->status().ToString(), lo, entries.size());
      if (it->Valid()) {
        FUZZ_CHECK(it->key() == Slice(entries[lo].first), "{}: Seek({}) lands on {}, not {}",
                   m.what, Show(t), Show(it->key().ToStringView()), Show(entries[lo].first));
      }
    }
  }
}

// The raw bytes as one stored block (contents | type | crc), read without checksum.
void FuzzStoredBlock(const std::string& contents) {
  if (contents.size() < kBlockTrailerSize) return;
  const MemRandomAccessFile file(contents);
  BlockReadOptions options;
  options.verify_checksums = false;
  BlockContents result;
  Status s = ReadBlock(&file, kFname, contents.size(), options,
                       BlockHandle(0, contents.size() - kBlockTrailerSize), &result);
  CheckCorruptionNames(s, kFname, "ReadBlock");
  if (s.ok()) FuzzBlock(result.data.ToString());
  // The same bytes as a bloom filter.
  BloomFilterMayMatch(contents, "key0000001");
  BloomFilterMayMatch(contents, "");
}

// The raw bytes as a "rangedel" block: decoded (OK or Corruption naming the file) and, if it
// decodes, fragmented; the fragments keep their invariants and agree with a brute-force lookup.
void FuzzRangeTombstoneBlock(const std::string& contents) {
  std::vector<RangeTombstone> tombstones;
  Status s = DecodeRangeTombstones(contents, kFname, &tombstones);
  CheckCorruptionNames(s, kFname, "DecodeRangeTombstones");
  if (!s.ok() || tombstones.size() > kMaxEntries) return;
  const FragmentedRangeTombstones t(tombstones);
  CheckFragments(t, "a decoded rangedel block");
  size_t checked = 0;
  for (const RangeTombstone& probe : tombstones) {
    if (++checked > kMaxLookups) break;
    for (const std::string& key : {probe.begin, probe.end, probe.begin + '\0'}) {
      SequenceNumber want = 0;
      for (const RangeTombstone& r : tombstones) {
        if (r.begin <= key && key < r.end) want = std::max(want, r.seq);
      }
      FUZZ_CHECK(t.MaxCoveringSequence(key, kMaxSequenceNumber) == want,
                 "rangedel: MaxCoveringSequence({}) is not the brute-force answer", Show(key));
    }
  }
}

}  // namespace
}  // namespace sluice::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string contents(reinterpret_cast<const char*>(data), size);
  sluice::fuzz::FuzzTable(contents);
  sluice::fuzz::FuzzBlock(contents);
  sluice::fuzz::FuzzStoredBlock(contents);
  sluice::fuzz::FuzzRangeTombstoneBlock(contents);
  return 0;
}
