// util/radix_sort.h — a stable least-significant-digit radix sort of (uint64_t key, payload)
// pairs, for the large batches FloDB's drain sorts by key prefix (a drain batch is thousands of
// entries; a comparison sort spends most of its time on mispredicted branches there).
//
// One pass over the input counts all eight byte histograms; a byte position at which every key
// has the same byte is skipped (keys of a small range share their high bytes, so a batch of
// big-endian integer keys below 2^24 takes three passes, not eight). Stable: pairs with equal
// keys keep their input order. O(n) time, n pairs of scratch space.

#ifndef SLUICE_UTIL_RADIX_SORT_H_
#define SLUICE_UTIL_RADIX_SORT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sluice {

// Sorts *items by .first ascending (stable). *scratch is resized and used as the other buffer;
// pass the same one again to reuse its memory.
template <typename Payload>
void RadixSortByKey(std::vector<std::pair<uint64_t, Payload>>* items,
                    std::vector<std::pair<uint64_t, Payload>>* scratch) {
  const size_t n = items->size();
  if (n < 2) return;
  std::array<std::array<size_t, 256>, 8> counts{};
  for (const auto& item : *items) {
    for (int b = 0; b < 8; b++) counts[b][(item.first >> (8 * b)) & 0xff]++;
  }
  scratch->resize(n);
  std::vector<std::pair<uint64_t, Payload>>* from = items;
  std::vector<std::pair<uint64_t, Payload>>* to = scratch;
  for (int b = 0; b < 8; b++) {
    std::array<size_t, 256>& count = counts[b];
    // Every key has the same byte here: this pass would not move anything.
    if (count[((*items)[0].first >> (8 * b)) & 0xff] == n) continue;
    size_t offset = 0;
    for (size_t& c : count) offset += std::exchange(c, offset);  // counts -> start offsets
    for (const auto& item : *from) (*to)[count[(item.first >> (8 * b)) & 0xff]++] = item;
    std::swap(from, to);
  }
  if (from != items) items->swap(*scratch);
}

}  // namespace sluice

#endif  // SLUICE_UTIL_RADIX_SORT_H_
