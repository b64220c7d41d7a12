// Tests of util/radix_sort: the result equals std::stable_sort's on random keys of every shape
// (full 64-bit, a small range sharing its high bytes, one byte varying, many duplicates), the
// skipped passes included, and scratch reuse.

#include "util/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace sluice {
namespace {

using Items = std::vector<std::pair<uint64_t, int>>;

// Sorts a copy both ways and compares: keys ascending, equal keys in input order.
void ExpectSortsLikeStableSort(const Items& input, Items* scratch) {
  Items expected = input;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Items got = input;
  RadixSortByKey(&got, scratch);
  ASSERT_EQ(expected, got);
}

TEST(RadixSort, MatchesStableSortOnKeysOfEveryShape) {
  std::mt19937_64 rng(301);
  Items scratch;
  const std::vector<uint64_t> masks = {~uint64_t{0}, 0xffffff, 0xff00, 0xff00000000000000, 0x7, 0};
  for (uint64_t mask : masks) {
    for (size_t n : {0, 1, 2, 3, 100, 16384}) {
      Items items;
      for (size_t i = 0; i < n; i++) items.emplace_back(rng() & mask, static_cast<int>(i));
      SCOPED_TRACE(testing::Message() << "mask " << mask << " n " << n);
      ExpectSortsLikeStableSort(items, &scratch);
    }
  }
}

TEST(RadixSort, SortedAndReverseInput) {
  Items ascending, descending, scratch;
  for (int i = 0; i < 5000; i++) {
    ascending.emplace_back(uint64_t{1} << (i % 64) | static_cast<uint64_t>(i), i);
  }
  std::sort(ascending.begin(), ascending.end());
  descending.assign(ascending.rbegin(), ascending.rend());
  ExpectSortsLikeStableSort(ascending, &scratch);
  ExpectSortsLikeStableSort(descending, &scratch);
}

}  // namespace
}  // namespace sluice
