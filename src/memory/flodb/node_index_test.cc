// Tests of the sorted level's node index: finds what was inserted and nothing else, one slot
// per node under concurrent inserts of the same nodes, no memory until the first insert, at
// most three quarters of the slots used; then through the sorted level: updated keys are found
// through the index, fresh ones are not indexed, and reads find every key whether the index
// holds it or not (the skiplist fallback), and nothing for absent keys.

#include "memory/flodb/node_index.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "memory/flodb/flodb_stats.h"
#include "memory/flodb/sorted_level.h"
#include "support/test_util.h"
#include "util/epoch.h"
#include "util/hash.h"

namespace sluice {

namespace {

// "Nodes" for the index alone: a 4-byte length, then the key.
std::string MakeNode(const std::string& key) {
  std::string n(4, '\0');
  const uint32_t len = static_cast<uint32_t>(key.size());
  std::memcpy(n.data(), &len, 4);
  return n + key;
}

Slice KeyOfTestNode(const char* node) {
  uint32_t len;
  std::memcpy(&len, node, 4);
  return Slice(node + 4, len);
}

}  // namespace

TEST(NodeIndex, FindsInsertedNodesAndNothingElse) {
  NodeIndex index(1024, &KeyOfTestNode);
  EXPECT_EQ(nullptr, index.Find(test::Key(0), Hash64(test::Key(0))));
  EXPECT_EQ(0u, index.MemoryUsage());  // no slots before the first insert
  std::vector<std::string> nodes;
  for (int i = 0; i < 500; i++) nodes.push_back(MakeNode(test::Key(i)));
  for (int i = 0; i < 500; i += 2) index.Insert(Hash64(test::Key(i)), nodes[i].data());
  for (int i = 0; i < 500; i++) {
    const char* found = index.Find(test::Key(i), Hash64(test::Key(i)));
    if (i % 2 == 0) {
      EXPECT_EQ(nodes[i].data(), found) << i;
    } else {
      EXPECT_EQ(nullptr, found) << i;
    }
  }
  EXPECT_EQ(1024 * sizeof(uintptr_t), index.MemoryUsage());
  index.Insert(Hash64(test::Key(0)), nodes[0].data());  // again: still one slot
  EXPECT_EQ(nodes[0].data(), index.Find(test::Key(0), Hash64(test::Key(0))));
}

TEST(NodeIndex, ConcurrentInsertsOfTheSameNodesLeaveEveryNodeFindable) {
  NodeIndex index(4096, &KeyOfTestNode);
  std::vector<std::string> nodes;
  for (int i = 0; i < 2000; i++) nodes.push_back(MakeNode(test::Key(i)));
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; t++) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 2000; k++) {
        const int i = (k * 7 + t * 13) % 2000;
        index.Insert(Hash64(test::Key(i)), nodes[i].data());
        EXPECT_EQ(nodes[i].data(), index.Find(test::Key(i), Hash64(test::Key(i))));
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 2000; i++) {
    EXPECT_EQ(nodes[i].data(), index.Find(test::Key(i), Hash64(test::Key(i))));
  }
}

TEST(NodeIndex, UsesAtMostThreeQuartersOfItsSlots) {
  NodeIndex index(64, &KeyOfTestNode);  // takes 48 keys
  std::vector<std::string> nodes;
  for (int i = 0; i < 100; i++) nodes.push_back(MakeNode(test::Key(i)));
  int indexed = 0;
  for (int i = 0; i < 100; i++) index.Insert(Hash64(test::Key(i)), nodes[i].data());
  for (int i = 0; i < 100; i++) {
    const char* found = index.Find(test::Key(i), Hash64(test::Key(i)));
    if (found != nullptr) {
      EXPECT_EQ(nodes[i].data(), found);
      indexed++;
    }
  }
  EXPECT_EQ(48, indexed);
}

TEST(NodeIndex, SortedLevelReadsKeysTheIndexCouldNotTake) {
  for (const size_t slots : {size_t{64}, size_t{1} << 14}) {
    FloDBStats stats;
    SortedLevel level(
        64 << 10, [](SequenceNumber, SequenceNumber) { return false; }, &stats, nullptr, slots);
    // Fresh keys are not indexed; their first update indexes them (after a search); the next
    // updates find them through the index, where it holds them.
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < 1000; i += 2) {
        level.Apply({test::Key(i), static_cast<SequenceNumber>(round * 2000 + i + 1), kTypeValue,
                     (round < 2 ? "v" : "w") + std::to_string(i), false});
      }
      if (round < 2) {
        EXPECT_EQ(0u, stats.index_hits.Get());
      }
    }
    if (slots == 64) {
      EXPECT_EQ(48u, stats.index_hits.Get());
    } else {
      EXPECT_EQ(500u, stats.index_hits.Get());
    }
    epoch::Guard guard;
    for (int i = 0; i < 1000; i++) {
      MemoryLookup r;
      const bool found = level.Get(test::Key(i), kMaxSequenceNumber, &r);
      ASSERT_EQ(i % 2 == 0, found) << "slots " << slots << " key " << i;
      if (found) {
        EXPECT_EQ("w" + std::to_string(i), r.value);
      }
    }
  }
}

}  // namespace sluice
