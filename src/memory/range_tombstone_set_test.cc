// RangeTombstoneSet: after every Add (through rebuilds of the delta and of the base), lookups
// through Current() and the merged All() agree with a brute-force search of every tombstone.

#include "memory/range_tombstone_set.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "util/epoch.h"

namespace sluice {
namespace {

std::string K(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%05d", i);
  return buf;
}

TEST(RangeTombstoneSetTest, LookupsMatchBruteForceThroughRebuilds) {
  RangeTombstoneSet set;
  EXPECT_TRUE(set.empty());
  std::vector<RangeTombstone> added;
  std::mt19937 rng(3);
  epoch::Guard section;
  EXPECT_EQ(nullptr, set.Current());
  EXPECT_EQ(nullptr, set.All());
  for (int i = 0; i < 600; i++) {
    const int b = static_cast<int>(rng() % 2000), w = 1 + static_cast<int>(rng() % 40);
    added.push_back({K(b), K(b + w), static_cast<SequenceNumber>(10 + i)});
    set.Add(added.back().begin, added.back().end, added.back().seq);
    ASSERT_EQ(added.size(), set.size());
    const RangeTombstoneSet::Indexes* idx = set.Current();
    ASSERT_NE(nullptr, idx);
    const auto all = set.All();
    for (int probe = 0; probe < 20; probe++) {
      const std::string key = K(static_cast<int>(rng() % 2050));
      const SequenceNumber read = 10 + rng() % (i + 20);
      SequenceNumber want = 0;
      for (const auto& t : added) {
        if (t.begin <= key && key < t.end && t.seq <= read) want = std::max(want, t.seq);
      }
      auto none = [](SequenceNumber) { return false; };
      ASSERT_EQ(want, idx->MaxCoveringSequence(key, read, none)) << "after " << i << " " << key;
      ASSERT_EQ(want, all->MaxCoveringSequence(key, read)) << "after " << i << " " << key;
    }
  }
  // The delta stays small: most tombstones are in the base.
  const RangeTombstoneSet::Indexes* idx = set.Current();
  ASSERT_NE(nullptr, idx->base);
  EXPECT_TRUE(idx->delta == nullptr || idx->delta->NumFragmentTombstones() < 600 / 8);
}

}  // namespace
}  // namespace sluice
