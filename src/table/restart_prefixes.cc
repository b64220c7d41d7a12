// table/restart_prefixes.cc — building and searching the restart-key prefixes (see the header).

#include "table/restart_prefixes.h"

#include <algorithm>
#include <cstring>

#include "util/coding.h"

namespace sluice {

namespace {

constexpr size_t kStride = 8;  // prefixes per 64-byte cache line

// The first index of `all` (sorted) at which bound(all) stops, where bound is std::lower_bound
// or std::upper_bound and sampled[j] = all[j * kStride]: the first sample at which it stops,
// j, leaves the answer in ((j - 1) * kStride, j * kStride], or after the last sample. (A
// branch-free search was slower here: its loads wait for each other, where the branches'
// speculation overlaps the cache misses.)
template <typename Bound>
uint32_t SampledSearch(const std::vector<uint64_t>& sampled, const std::vector<uint64_t>& all,
                       uint64_t prefix, Bound bound) {
  const size_t j = bound(sampled.begin(), sampled.end(), prefix) - sampled.begin();
  const size_t begin = j == 0 ? 0 : (j - 1) * kStride + 1;
  const size_t end = j < sampled.size() ? j * kStride + 1 : all.size();
  return static_cast<uint32_t>(bound(all.begin() + begin, all.begin() + end, prefix) - all.begin());
}

}  // namespace

RestartPrefixes::RestartPrefixes(const std::vector<Slice>& user_keys) {
  if (user_keys.empty()) return;
  // In bytewise order, the prefix the first and last keys share is shared by all between.
  const Slice& first = user_keys.front();
  const Slice& last = user_keys.back();
  size_t common = 0;
  const size_t limit = std::min(first.size(), last.size());
  while (common < limit && first[common] == last[common]) common++;
  common_.assign(first.data(), common);
  prefixes_.reserve(user_keys.size());
  for (const Slice& key : user_keys) {
    // A key that does not start with common_ (keys out of order: a corrupt block) gets the
    // prefix of what follows anyway; Bounds then stays in range and the full comparisons decide.
    const size_t skip = std::min(common, key.size());
    prefixes_.push_back(KeyPrefix64(Slice(key.data() + skip, key.size() - skip)));
  }
  sampled_.reserve((prefixes_.size() + kStride - 1) / kStride);
  for (size_t i = 0; i < prefixes_.size(); i += kStride) sampled_.push_back(prefixes_[i]);
}

void RestartPrefixes::Bounds(const Slice& user_key, uint32_t* lo, uint32_t* hi) const {
  const auto n = static_cast<uint32_t>(prefixes_.size());
  const size_t c = common_.size();
  const size_t head = std::min(c, user_key.size());
  const int cmp = std::memcmp(user_key.data(), common_.data(), head);
  if (cmp < 0 || (cmp == 0 && user_key.size() < c)) {
    *lo = *hi = 0;  // below common_, so below every restart key
    return;
  }
  if (cmp > 0) {
    *lo = *hi = n;  // above common_ and everything that starts with it
    return;
  }
  const uint64_t prefix = KeyPrefix64(Slice(user_key.data() + c, user_key.size() - c));
  using It = std::vector<uint64_t>::const_iterator;
  *lo = SampledSearch(sampled_, prefixes_, prefix,
                      [](It b, It e, uint64_t v) { return std::lower_bound(b, e, v); });
  // Usually no restart key has this prefix: then the range is empty without a second search.
  *hi = (*lo == n || prefixes_[*lo] != prefix)
            ? *lo
            : SampledSearch(sampled_, prefixes_, prefix,
                            [](It b, It e, uint64_t v) { return std::upper_bound(b, e, v); });
}

size_t RestartPrefixes::MemoryUsage() const {
  return common_.capacity() + prefixes_.capacity() * sizeof(uint64_t) +
         sampled_.capacity() * sizeof(uint64_t);
}

}  // namespace sluice
