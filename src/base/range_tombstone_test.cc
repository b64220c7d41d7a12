// FragmentedRangeTombstones: overlapping tombstones cut into disjoint fragments with the right
// sequence numbers, lookups at every kind of boundary, the skip predicate, and the SST block
// encoding (round trip, and each kind of damage reported as Corruption).

#include "base/range_tombstone.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace sluice {
namespace {

TEST(FragmentedRangeTombstonesTest, CutsOverlapsIntoFragments) {
  FragmentedRangeTombstones f({{"a", "e", 5}, {"c", "g", 9}, {"c", "d", 3}, {"x", "x", 7}});
  ASSERT_EQ(4u, f.fragments().size());  // [a,c) [c,d) [d,e) [e,g); the empty one ignored
  EXPECT_EQ("a", f.fragments()[0].begin);
  EXPECT_EQ("c", f.fragments()[0].end);
  EXPECT_EQ((std::vector<SequenceNumber>{5}), f.fragments()[0].seqs);
  EXPECT_EQ((std::vector<SequenceNumber>{9, 5, 3}), f.fragments()[1].seqs);
  EXPECT_EQ((std::vector<SequenceNumber>{9, 5}), f.fragments()[2].seqs);
  EXPECT_EQ((std::vector<SequenceNumber>{9}), f.fragments()[3].seqs);
  EXPECT_EQ(7u, f.NumFragmentTombstones());

  EXPECT_EQ(0u, f.MaxCoveringSequence("0", 100));  // before
  EXPECT_EQ(5u, f.MaxCoveringSequence("a", 100));  // begin is inclusive
  EXPECT_EQ(9u, f.MaxCoveringSequence("c", 100));
  EXPECT_EQ(5u, f.MaxCoveringSequence("c", 8));  // read point below the newest
  EXPECT_EQ(3u, f.MaxCoveringSequence("c", 4));
  EXPECT_EQ(0u, f.MaxCoveringSequence("c", 2));
  EXPECT_EQ(9u, f.MaxCoveringSequence("f", 100));
  EXPECT_EQ(0u, f.MaxCoveringSequence("g", 100));  // end is exclusive
  EXPECT_EQ(5u, f.MaxCoveringSequence("c", 100, [](SequenceNumber t) { return t == 9; }));
}

TEST(FragmentedRangeTombstonesTest, AdjacentEqualFragmentsMerge) {
  FragmentedRangeTombstones f({{"a", "c", 4}, {"c", "e", 4}});
  ASSERT_EQ(1u, f.fragments().size());
  EXPECT_EQ("a", f.fragments()[0].begin);
  EXPECT_EQ("e", f.fragments()[0].end);
}

TEST(FragmentedRangeTombstonesTest, MatchesBruteForceOnRandomSets) {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; round++) {
    std::vector<RangeTombstone> ts;
    const int n = 1 + static_cast<int>(rng() % 20);
    for (int i = 0; i < n; i++) {
      const int b = static_cast<int>(rng() % 30), w = 1 + static_cast<int>(rng() % 10);
      ts.push_back({std::string(1, static_cast<char>('A' + b)),
                    std::string(1, static_cast<char>('A' + b + w)), 1 + rng() % 50});
    }
    FragmentedRangeTombstones f(ts);
    for (int k = 0; k < 45; k++) {
      const std::string key(1, static_cast<char>('A' + k));
      for (SequenceNumber read : {SequenceNumber{10}, SequenceNumber{25}, SequenceNumber{100}}) {
        SequenceNumber want = 0;
        for (const auto& t : ts) {
          if (t.begin <= key && key < t.end && t.seq <= read) want = std::max(want, t.seq);
        }
        ASSERT_EQ(want, f.MaxCoveringSequence(key, read)) << "round " << round << " key " << key;
      }
    }
    // The fragments, as tombstones, fragment to the same thing.
    FragmentedRangeTombstones again(f.ToTombstones());
    ASSERT_EQ(f.ToTombstones().size(), again.ToTombstones().size());
  }
}

TEST(MergeRangeTombstonesTest, SkipsEmptySourcesAndFragmentsSeveral) {
  using Set = std::shared_ptr<const FragmentedRangeTombstones>;
  const Set empty =
      std::make_shared<const FragmentedRangeTombstones>(std::vector<RangeTombstone>{});
  EXPECT_EQ(nullptr, MergeRangeTombstones({}));
  EXPECT_EQ(nullptr, MergeRangeTombstones({nullptr, empty}));

  const Set one =
      std::make_shared<const FragmentedRangeTombstones>(std::vector<RangeTombstone>{{"b", "f", 4}});
  EXPECT_EQ(one, MergeRangeTombstones({empty, one, nullptr}));  // shared, not rebuilt

  const Set two = std::make_shared<const FragmentedRangeTombstones>(
      std::vector<RangeTombstone>{{"d", "h", 8}, {"a", "c", 2}});
  const Set merged = MergeRangeTombstones({one, nullptr, two, empty});
  ASSERT_NE(nullptr, merged);
  // [a,b) 2; [b,c) 4,2; [c,d) 4; [d,f) 8,4; [f,h) 8
  EXPECT_EQ(7u, merged->NumFragmentTombstones());
  EXPECT_EQ(2u, merged->MaxCoveringSequence("a", 100));
  EXPECT_EQ(4u, merged->MaxCoveringSequence("b", 100));
  EXPECT_EQ(2u, merged->MaxCoveringSequence("b", 3));
  EXPECT_EQ(8u, merged->MaxCoveringSequence("e", 100));
  EXPECT_EQ(4u, merged->MaxCoveringSequence("e", 7));
  EXPECT_EQ(8u, merged->MaxCoveringSequence("g", 100));
  EXPECT_EQ(0u, merged->MaxCoveringSequence("h", 100));
}

TEST(RangeTombstoneEncodingTest, RoundTripsAndRejectsDamage) {
  const std::vector<RangeTombstone> ts = {{"a", "b", 1}, {std::string("k\0z", 3), "zz", 99}};
  const std::string block = EncodeRangeTombstones(ts);
  std::vector<RangeTombstone> back;
  ASSERT_TRUE(DecodeRangeTombstones(block, "f.sst", &back).ok());
  ASSERT_EQ(2u, back.size());
  EXPECT_EQ(ts[1].begin, back[1].begin);
  EXPECT_EQ(99u, back[1].seq);

  for (size_t cut = 0; cut < block.size(); cut++) {
    Status s = DecodeRangeTombstones(Slice(block.data(), cut), "f.sst", &back);
    EXPECT_TRUE(s.IsCorruption()) << cut;
    EXPECT_NE(std::string::npos, s.ToString().find("f.sst")) << s.ToString();
  }
  EXPECT_TRUE(DecodeRangeTombstones(block + "x", "f.sst", &back).IsCorruption());
  EXPECT_TRUE(DecodeRangeTombstones(EncodeRangeTombstones({{"b", "a", 1}}), "f.sst", &back)
                  .IsCorruption());  // begin after end
  std::string huge_count;
  huge_count.push_back(static_cast<char>(0xff));
  huge_count.append("\xff\xff\xff\x0f");
  EXPECT_TRUE(DecodeRangeTombstones(huge_count, "f.sst", &back).IsCorruption());
}

}  // namespace
}  // namespace sluice
