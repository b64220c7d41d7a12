// Tests of table/restart_prefixes and of Block::Seek narrowed by them: Bounds brackets every
// probe (keys, their neighbours, keys below and above the common prefix, ties in the 8-byte
// window) against a brute-force check, and a block's Seek lands on the same entry with and
// without prefixes, at restart intervals 1 and 4, for every kind of target; a block whose keys
// follow another order ignores its prefixes.

#include "table/restart_prefixes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "table/block.h"
#include "table/block_builder.h"
#include "util/comparator.h"
#include "util/random.h"

namespace sluice {

namespace {

const std::string kFname = "/db/000007.sst";  // iterators keep a pointer to the name

// Sorted distinct user keys sharing `common`, with tails over a tiny alphabet (so that many
// tails tie on their first 8 bytes), including tails that are prefixes of others and empty.
std::vector<std::string> TextKeys(Random* rnd, const std::string& common, int n) {
  std::set<std::string> keys;
  while (static_cast<int>(keys.size()) < n) {
    std::string k = common;
    const int len = static_cast<int>(rnd->Uniform(14));
    for (int i = 0; i < len; i++) k.push_back("\0ab\xff"[rnd->Uniform(4)]);
    keys.insert(k);
  }
  return {keys.begin(), keys.end()};
}

std::vector<Slice> Slices(const std::vector<std::string>& keys) {
  return {keys.begin(), keys.end()};
}

// Probes around every key: the key, an extension, a truncation, and bytes changed up or down,
// plus keys below and above everything.
std::vector<std::string> Probes(Random* rnd, const std::vector<std::string>& keys) {
  std::vector<std::string> probes = {"", std::string(1, '\0'), "\xff\xff\xff\xff"};
  for (const std::string& k : keys) {
    probes.push_back(k);
    probes.push_back(k + std::string(1, '\0'));
    probes.push_back(k + "b");
    if (!k.empty()) probes.push_back(k.substr(0, rnd->Uniform(static_cast<int>(k.size()))));
    if (!k.empty()) {
      std::string changed = k;
      const size_t at = rnd->Uniform(static_cast<int>(k.size()));
      changed[at] = static_cast<char>(static_cast<unsigned char>(changed[at]) ^ 0x01);
      probes.push_back(changed);
    }
  }
  return probes;
}

void ExpectBracketed(const RestartPrefixes& prefixes, const std::vector<std::string>& keys,
                     const std::string& probe) {
  uint32_t lo = 0, hi = 0;
  prefixes.Bounds(probe, &lo, &hi);
  ASSERT_LE(lo, hi);
  ASSERT_LE(hi, keys.size());
  for (uint32_t i = 0; i < lo; i++) ASSERT_LT(keys[i], probe) << "key " << i << " lo " << lo;
  for (size_t i = hi; i < keys.size(); i++) ASSERT_GT(keys[i], probe) << "key " << i;
  // The key itself, if present, is inside the range.
  const auto it = std::lower_bound(keys.begin(), keys.end(), probe);
  if (it != keys.end() && *it == probe) {
    const auto k = static_cast<uint32_t>(it - keys.begin());
    EXPECT_TRUE(lo <= k && k < hi);
  }
}

TEST(RestartPrefixes, BoundsBracketEveryProbeWithLongCommonPrefixesAndTies) {
  Random rnd(301);
  for (const std::string& common : {std::string(), std::string("user12"), std::string(20, 'x')}) {
    for (int n : {1, 2, 7, 8, 9, 100, 1000}) {
      const std::vector<std::string> keys = TextKeys(&rnd, common, n);
      const RestartPrefixes prefixes(Slices(keys));
      ASSERT_EQ(keys.size(), prefixes.size());
      for (const std::string& probe : Probes(&rnd, keys)) {
        ExpectBracketed(prefixes, keys, probe);
      }
    }
  }
}

TEST(RestartPrefixes, DistinctWindowsLeaveAtMostOneCandidate) {
  // Keys like an index's separators: "user" + 12 digits, distinct within the 8 bytes that
  // follow the shared "user" (so the bound is exact), probes anywhere.
  Random rnd(17);
  std::set<std::string> set;
  while (set.size() < 5000)
    set.insert("user" + std::to_string(100000000000ull + rnd.Uniform(900000000000ull)));
  const std::vector<std::string> keys(set.begin(), set.end());
  const RestartPrefixes prefixes(Slices(keys));
  for (int i = 0; i < 20000; i++) {
    const std::string probe =
        "user" + std::to_string(100000000000ull + rnd.Uniform(900000000000ull));
    uint32_t lo = 0, hi = 0;
    prefixes.Bounds(probe, &lo, &hi);
    // Only a key equal to the probe in its first 12 bytes can tie; then lo < hi.
    EXPECT_LE(hi - lo, 1u) << probe;
    ExpectBracketed(prefixes, keys, probe);
  }
  EXPECT_GE(prefixes.MemoryUsage(), keys.size() * sizeof(uint64_t));
}

TEST(RestartPrefixes, EmptyKeySetBoundsToNothing) {
  const RestartPrefixes prefixes({});
  uint32_t lo = 7, hi = 7;
  prefixes.Bounds("anything", &lo, &hi);
  EXPECT_EQ(0u, lo);
  EXPECT_EQ(0u, hi);
}

// Internal keys of `user_keys`, each with one to three sequence numbers (newest first), in
// internal-key order under `icmp`.
std::vector<std::string> InternalKeys(Random* rnd, const std::vector<std::string>& user_keys,
                                      const InternalKeyComparator& icmp) {
  std::vector<std::string> out;
  for (const std::string& u : user_keys) {
    const int versions = 1 + static_cast<int>(rnd->Uniform(3));
    for (int v = 0; v < versions; v++) {
      std::string k;
      AppendInternalKey(&k, ParsedInternalKey(u, 1000 - 10 * v, kTypeValue));
      out.push_back(std::move(k));
    }
  }
  std::sort(out.begin(), out.end(),
            [&](const std::string& a, const std::string& b) { return icmp.Compare(a, b) < 0; });
  return out;
}

std::string BuildBlock(const std::vector<std::string>& keys, int restart_interval) {
  BlockBuilder builder(restart_interval);
  for (size_t i = 0; i < keys.size(); i++) builder.Add(keys[i], std::to_string(i));
  return builder.Finish().ToString();
}

// Seeks `target` in both blocks and checks they land on the entry a brute force finds.
void ExpectSameSeek(const Block& with, const Block& without, const InternalKeyComparator& icmp,
                    const std::vector<std::string>& keys, const std::string& target) {
  auto a = with.NewIterator(&icmp, kFname, 0, kMinInternalKeySize);
  auto b = without.NewIterator(&icmp, kFname, 0, kMinInternalKeySize);
  a->Seek(target);
  b->Seek(target);
  ASSERT_TRUE(a->status().ok()) << a->status().ToString();
  const auto expected = std::lower_bound(
      keys.begin(), keys.end(), target,
      [&](const std::string& x, const std::string& y) { return icmp.Compare(x, y) < 0; });
  ASSERT_EQ(expected != keys.end(), a->Valid());
  ASSERT_EQ(b->Valid(), a->Valid());
  if (a->Valid()) {
    EXPECT_EQ(*expected, a->key().ToString());
    EXPECT_EQ(b->key().ToString(), a->key().ToString());
    EXPECT_EQ(b->value().ToString(), a->value().ToString());
  }
}

TEST(RestartPrefixes, BlockSeekLandsWhereItWouldWithoutThem) {
  Random rnd(99);
  const InternalKeyComparator& icmp = *DefaultInternalKeyComparator();
  for (int restart_interval : {1, 4}) {
    for (const std::string& common : {std::string(), std::string("user12")}) {
      const std::vector<std::string> users = TextKeys(&rnd, common, 400);
      const std::vector<std::string> keys = InternalKeys(&rnd, users, icmp);
      const std::string contents = BuildBlock(keys, restart_interval);
      const Block with(BlockContents{contents}, /*restart_prefixes=*/true);
      const Block without(BlockContents{contents});
      ASSERT_GT(with.PrefixMemoryUsage(), 0u);
      ASSERT_EQ(0u, without.PrefixMemoryUsage());
      for (const std::string& probe : Probes(&rnd, users)) {
        for (SequenceNumber seq : {SequenceNumber{2000}, SequenceNumber{995}, SequenceNumber{1}}) {
          std::string target;
          AppendInternalKey(&target, ParsedInternalKey(probe, seq, kValueTypeForSeek));
          ExpectSameSeek(with, without, icmp, keys, target);
        }
      }
    }
  }
}

// Bytewise order reversed: a user order the prefixes do not describe.
class ReverseComparator final : public Comparator {
 public:
  const char* Name() const override { return "test.Reverse"; }
  int Compare(const Slice& a, const Slice& b) const override {
    return BytewiseComparator()->Compare(b, a);
  }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

TEST(RestartPrefixes, IteratorsOfAnotherUserOrderIgnoreThem) {
  // Built with prefixes by mistake (they then describe an unsorted sequence): an iterator
  // whose comparator is not over bytewise user keys must not use them.
  Random rnd(5);
  const ReverseComparator reverse;
  const InternalKeyComparator icmp(&reverse);
  const std::vector<std::string> users = TextKeys(&rnd, "k", 300);
  const std::vector<std::string> keys = InternalKeys(&rnd, users, icmp);
  const std::string contents = BuildBlock(keys, 1);
  const Block with(BlockContents{contents}, /*restart_prefixes=*/true);
  const Block without(BlockContents{contents});
  for (const std::string& probe : Probes(&rnd, users)) {
    std::string target;
    AppendInternalKey(&target, ParsedInternalKey(probe, 2000, kValueTypeForSeek));
    ExpectSameSeek(with, without, icmp, keys, target);
  }
}

TEST(RestartPrefixes, MalformedRestartKeysLeaveTheBlockWithout) {
  // Restart keys shorter than an internal key's trailer: no prefixes, and the iterator still
  // reports the corruption.
  BlockBuilder builder(1);
  builder.Add("abc", "1");
  builder.Add("abd", "2");
  const Block block(BlockContents{builder.Finish().ToString()}, /*restart_prefixes=*/true);
  EXPECT_EQ(0u, block.PrefixMemoryUsage());
  auto it = block.NewIterator(DefaultInternalKeyComparator(), kFname, 0, kMinInternalKeySize);
  it->Seek(std::string(12, 'a'));
  EXPECT_TRUE(it->status().IsCorruption());
}

}  // namespace

}  // namespace sluice
