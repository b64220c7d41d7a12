// Tests of the Membuffer: adds, in-place replacement (with push-down when a reader needs the
// old version, or while a scan announces a floor raise), refusals (older, late, full), reads
// at a sequence number, partitioning by the key's leading bits, and draining (marking, removal,
// max_out_seq).

#include "memory/flodb/membuffer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <vector>

namespace sluice {

namespace {

MembufferEntry* Entry(Membuffer* m, const std::string& key, SequenceNumber seq,
                      const std::string& value, ValueType type = kTypeValue) {
  return m->NewEntry(Membuffer::HashKey(key), seq, type, key, value);
}

struct Recorder {
  bool keep = false;
  std::vector<SequenceNumber> pushed;
};

Membuffer::AddResult Add(Membuffer* m, MembufferEntry* e, Recorder* r, MembufferEntry** displaced,
                         bool retry_if_full = false) {
  return m->Add(
      e, [&](const MembufferEntry&, const MembufferEntry&) { return r->keep; },
      [&](const MembufferEntry& old) { r->pushed.push_back(old.sequence()); }, displaced,
      retry_if_full);
}

}  // namespace

TEST(Membuffer, AddReplaceReadAtSequence) {
  Membuffer m(1 << 20, 0, 6);
  Recorder r;
  MembufferEntry* displaced = nullptr;
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "k", 5, "v5"), &r, &displaced));
  EXPECT_EQ(Membuffer::AddResult::kReplaced, Add(&m, Entry(&m, "k", 9, "v9"), &r, &displaced));
  ASSERT_NE(nullptr, displaced);
  EXPECT_EQ(5u, displaced->sequence());
  EXPECT_TRUE(r.pushed.empty());  // nobody needed v5
  m.FreeEntry(displaced);

  MemoryLookup got;
  bool shadowed;
  ASSERT_TRUE(m.Get("k", Membuffer::HashKey("k"), 100, &got, &shadowed));
  EXPECT_EQ("v9", got.value);
  EXPECT_FALSE(m.Get("k", Membuffer::HashKey("k"), 8, &got, &shadowed));
  EXPECT_TRUE(shadowed);  // newer than the read point: the caller looks below
  EXPECT_FALSE(m.Get("x", Membuffer::HashKey("x"), 100, &got, &shadowed));
  EXPECT_FALSE(shadowed);

  // An older write for the key is refused: it belongs below.
  MembufferEntry* older = Entry(&m, "k", 7, "v7");
  EXPECT_EQ(Membuffer::AddResult::kOlder, Add(&m, older, &r, &displaced));
  m.FreeEntry(older);

  // A reader needs the old version: it is pushed down before the slot changes.
  r.keep = true;
  EXPECT_EQ(Membuffer::AddResult::kReplaced, Add(&m, Entry(&m, "k", 12, "v12"), &r, &displaced));
  ASSERT_EQ(1u, r.pushed.size());
  EXPECT_EQ(9u, r.pushed[0]);
  m.FreeEntry(displaced);
  EXPECT_EQ(1u, m.NumEntries());
}

TEST(Membuffer, AnnouncedFloorRaisePushesReplacedEntriesDown) {
  Membuffer m(1 << 20, 0, 6);
  Recorder r;
  MembufferEntry* displaced;
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "k", 3, "k3"), &r, &displaced));
  // A scan announces a raise before it reads its sequence number (say 4): the floor does not
  // move yet, adds above it still go in, but the version an update replaces goes below first.
  m.BeginFloorRaise();
  EXPECT_TRUE(m.RaisePending());
  EXPECT_EQ(0u, m.floor());
  EXPECT_EQ(Membuffer::AddResult::kReplaced, Add(&m, Entry(&m, "k", 5, "k5"), &r, &displaced));
  EXPECT_EQ(std::vector<SequenceNumber>{3}, r.pushed);
  m.FreeEntry(displaced);
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "n", 6, "n6"), &r, &displaced));
  // The raise ends the announcement; replacing an entry above the floor pushes nothing.
  m.RaiseFloor(4);
  EXPECT_FALSE(m.RaisePending());
  EXPECT_EQ(4u, m.floor());
  EXPECT_EQ(Membuffer::AddResult::kReplaced, Add(&m, Entry(&m, "k", 7, "k7"), &r, &displaced));
  EXPECT_EQ(std::vector<SequenceNumber>{3}, r.pushed);
  m.FreeEntry(displaced);
  // A raise to a lower value than the floor ends the announcement too, and keeps the floor.
  m.BeginFloorRaise();
  m.RaiseFloor(2);
  EXPECT_FALSE(m.RaisePending());
  EXPECT_EQ(4u, m.floor());
}

TEST(Membuffer, FloorAndMaxOutSeqRefuseLateWrites) {
  Membuffer m(1 << 20, 0, 6);
  Recorder r;
  MembufferEntry* displaced;
  EXPECT_EQ(0u, m.floor());
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "a", 3, "a3"), &r, &displaced));
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "b", 4, "b4"), &r, &displaced));

  // A scan at 10 raises the floor: adds <= 10 go below, taking the key's entry with them.
  m.RaiseFloor(10);
  m.RaiseFloor(5);  // the floor only rises
  EXPECT_EQ(10u, m.floor());
  MembufferEntry* a8 = Entry(&m, "a", 8, "a8");
  EXPECT_EQ(Membuffer::AddResult::kLate, Add(&m, a8, &r, &displaced));
  m.FreeEntry(a8);
  ASSERT_NE(nullptr, displaced);
  EXPECT_EQ(3u, displaced->sequence());
  m.FreeEntry(displaced);
  ASSERT_EQ(std::vector<SequenceNumber>{3}, r.pushed);
  MemoryLookup got;
  bool shadowed;
  EXPECT_FALSE(m.Get("a", Membuffer::HashKey("a"), 100, &got, &shadowed));
  MembufferEntry* c9 = Entry(&m, "c", 9, "c9");
  EXPECT_EQ(Membuffer::AddResult::kLate, Add(&m, c9, &r, &displaced));  // no entry: just below
  m.FreeEntry(c9);
  EXPECT_EQ(nullptr, displaced);

  // Replacing an entry <= floor pushes it below first, even when no reader asked for it.
  EXPECT_EQ(Membuffer::AddResult::kReplaced, Add(&m, Entry(&m, "b", 11, "b11"), &r, &displaced));
  EXPECT_EQ((std::vector<SequenceNumber>{3, 4}), r.pushed);
  m.FreeEntry(displaced);
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "a", 12, "a12"), &r, &displaced));

  // A drain up to 11 takes b11 and leaves a12 (its bucket stays flagged for later chunks).
  std::vector<MembufferEntry*> drained;
  m.CollectChunk(0, 100, &drained, /*max_seq=*/11);
  ASSERT_EQ(1u, drained.size());
  EXPECT_EQ("b", drained[0]->key().ToString());
  std::vector<MembufferEntry*> again;
  m.CollectChunk(0, 100, &again);
  ASSERT_EQ(1u, again.size());  // b11 is marked: no second drainer takes it
  EXPECT_EQ("a", again[0]->key().ToString());
  drained.push_back(again[0]);
  for (MembufferEntry* e : drained) {
    ASSERT_TRUE(m.RemoveDrained(e));
    m.FreeEntry(e);
  }
  EXPECT_TRUE(m.IsEmpty());

  // "a"'s bucket remembers sequence 12: a later add of that bucket's keys with a smaller
  // sequence is late (a newer version may be below).
  MembufferEntry* late = Entry(&m, "a", 12, "y");
  EXPECT_EQ(Membuffer::AddResult::kLate, Add(&m, late, &r, &displaced));
  m.FreeEntry(late);
  EXPECT_EQ(Membuffer::AddResult::kAdded, Add(&m, Entry(&m, "a", 13, "y"), &r, &displaced));
}

TEST(Membuffer, FullBucketsAndByteBudget) {
  Membuffer one_slot(1 << 20, 0, 1);
  Recorder r;
  MembufferEntry* displaced;
  int added = 0, full = 0;
  for (int i = 0; i < 20000; i++) {
    MembufferEntry* e =
        Entry(&one_slot, "key" + std::to_string(i), static_cast<SequenceNumber>(i + 1), "v");
    const auto result = Add(&one_slot, e, &r, &displaced);
    if (result == Membuffer::AddResult::kAdded) {
      added++;
    } else {
      EXPECT_EQ(Membuffer::AddResult::kBucketFull, result);  // far below the byte budget
      one_slot.FreeEntry(e);
      full++;
    }
  }
  EXPECT_GT(added, 0);
  EXPECT_GT(full, 0);  // one slot per bucket: collisions fill buckets
  EXPECT_EQ(static_cast<uint64_t>(added), one_slot.NumEntries());

  Membuffer small(4096, 0, 6);  // the byte budget is reached before the buckets fill
  const std::string big(1000, 'x');
  int small_added = 0;
  for (int i = 0; i < 100; i++) {
    std::string key = "k";
    key += std::to_string(i);  // (not "k" + ...: GCC 12 -Wrestrict false positive)
    MembufferEntry* e = Entry(&small, key, static_cast<SequenceNumber>(i + 1), big);
    const auto result = Add(&small, e, &r, &displaced);
    if (result == Membuffer::AddResult::kAdded) {
      small_added++;
    } else {
      EXPECT_EQ(Membuffer::AddResult::kFull, result);  // four entries spend it; no bucket fills
      small.FreeEntry(e);
    }
  }
  EXPECT_LE(small.EntryBytes(), 4096u + 2 * (big.size() + 100));
  EXPECT_LT(small_added, 10);
}

// A writer that finds the byte budget spent may make room (help the drain) and add again: the
// refusal must not mark its bucket as holding a newer version below (max_out_seq), or the second
// add is refused as late. A final refusal does mark it, since that write then goes below.
TEST(Membuffer, AnAddThatWillRetryAfterMakingRoomIsNotMadeLate) {
  for (const bool retry_if_full : {true, false}) {
    Membuffer m(4096, 0, 6);
    Recorder r;
    MembufferEntry* displaced;
    const std::string big(1000, 'x');
    SequenceNumber seq = 0;
    for (;;) {  // until the budget is spent
      seq++;
      MembufferEntry* e = Entry(&m, "k" + std::to_string(seq), seq, big);
      if (Add(&m, e, &r, &displaced) == Membuffer::AddResult::kAdded) continue;
      m.FreeEntry(e);
      break;
    }
    std::vector<MembufferEntry*> all;
    m.CollectChunk(0, 100, &all);
    MembufferEntry* fresh = Entry(&m, "new", seq + 1, big);
    ASSERT_EQ(Membuffer::AddResult::kFull, Add(&m, fresh, &r, &displaced, retry_if_full));
    for (MembufferEntry* e : all) {  // room made: every entry drained (and freed here)
      ASSERT_TRUE(m.RemoveDrained(e));
      m.FreeEntry(e);
    }
    EXPECT_EQ(retry_if_full ? Membuffer::AddResult::kAdded : Membuffer::AddResult::kLate,
              Add(&m, fresh, &r, &displaced))
        << "retry_if_full " << retry_if_full;
    if (!retry_if_full) m.FreeEntry(fresh);
  }
}

TEST(Membuffer, PartitionsFollowTheLeadingBitsOfTheKey) {
  Membuffer m(1 << 20, 4, 6);
  EXPECT_EQ(16u, m.partitions());
  EXPECT_EQ(0u, m.PartitionOf(std::string("\x00\xff", 2)));
  EXPECT_EQ(15u, m.PartitionOf(std::string("\xf0", 1)));
  EXPECT_EQ(1u, m.PartitionOf(std::string("\x10", 1)));
  EXPECT_EQ(0u, m.PartitionOf(""));
  // Keys with a shared leading byte all land in one partition (why the default is 0 bits).
  std::set<uint64_t> partitions;
  for (int i = 0; i < 1000; i++) partitions.insert(m.PartitionOf("0000" + std::to_string(i)));
  EXPECT_EQ(1u, partitions.size());
}

// In-place updates change a partition's bytes through the updating thread's pending sum
// (Membuffer::AccountInPlace): the counters lag by at most the pending limit (16 KiB here) while
// a thread stays in one partition, and catch up exactly once it moves to another.
TEST(Membuffer, InPlaceUpdatesAreCountedWithABoundedLag) {
  Membuffer m(64 << 20, 2, 6);  // four partitions, 16 MiB each: a 16 KiB pending limit
  Recorder r;
  MembufferEntry* displaced;
  const std::string a("\x10key", 4), b("\x90key", 4);  // partitions 0 and 2
  ASSERT_EQ(0u, m.PartitionOf(a));
  ASSERT_EQ(2u, m.PartitionOf(b));
  SequenceNumber seq = 1;
  int64_t exact = 0;
  for (const std::string& key : {a, b}) {
    MembufferEntry* e = Entry(&m, key, seq++, "");
    exact += static_cast<int64_t>(e->Charge());
    ASSERT_EQ(Membuffer::AddResult::kAdded, Add(&m, e, &r, &displaced));
  }
  ASSERT_EQ(exact, static_cast<int64_t>(m.EntryBytes()));
  int64_t charge_a = exact / 2;  // both entries are charged alike
  // Key a grows by 7 bytes per update, 3,000 times (+21,000 bytes): more than the limit, so
  // part of it reaches the counter on the way, and the lag never passes the limit.
  for (int i = 1; i <= 3000; i++) {
    MembufferEntry* e = Entry(&m, a, seq++, std::string(static_cast<size_t>(7 * i), 'v'));
    exact += static_cast<int64_t>(e->Charge()) - charge_a;
    charge_a = static_cast<int64_t>(e->Charge());
    ASSERT_EQ(Membuffer::AddResult::kReplaced, Add(&m, e, &r, &displaced));
    m.FreeEntry(displaced);
    const int64_t counted = static_cast<int64_t>(m.EntryBytes());
    ASSERT_LE(std::abs(exact - counted), 16 << 10) << "update " << i;
  }
  EXPECT_NE(exact, static_cast<int64_t>(m.EntryBytes()));  // some of it is pending
  // One update in another partition hands partition 0 what was pending: exact again.
  MembufferEntry* e = Entry(&m, b, seq++, "");
  ASSERT_EQ(Membuffer::AddResult::kReplaced, Add(&m, e, &r, &displaced));
  m.FreeEntry(displaced);
  EXPECT_EQ(exact, static_cast<int64_t>(m.EntryBytes()));
  EXPECT_EQ(exact - static_cast<int64_t>(e->Charge()), m.PartitionBytes(0));
}

TEST(Membuffer, ChunksDrainEverythingEventually) {
  Membuffer m(8 << 20, 2, 6);
  Recorder r;
  MembufferEntry* displaced;
  for (int i = 0; i < 5000; i++) {
    std::string key(8, '\0');
    for (int b = 0; b < 8; b++) key[b] = static_cast<char>((i * 2654435761u) >> (b * 4));
    Add(&m, Entry(&m, key, static_cast<SequenceNumber>(i + 1), "v"), &r, &displaced);
  }
  const uint64_t total = m.NumEntries();
  uint64_t drained = 0;
  for (int round = 0; round < 1000 && !m.IsEmpty(); round++) {
    for (size_t p = 0; p < m.partitions(); p++) {
      std::vector<MembufferEntry*> chunk;
      m.CollectChunk(p, 100, &chunk);
      for (MembufferEntry* e : chunk) {
        ASSERT_TRUE(m.RemoveDrained(e));
        m.FreeEntry(e);
        drained++;
      }
    }
  }
  EXPECT_TRUE(m.IsEmpty());
  EXPECT_EQ(total, drained);
}

}  // namespace sluice
