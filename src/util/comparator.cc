// util/comparator.cc — the bytewise comparator (see comparator.h).

#include "util/comparator.h"

#include <algorithm>
#include <cstdint>

namespace sluice {

namespace {

class BytewiseComparatorImpl final : public Comparator {
 public:
  int Compare(const Slice& a, const Slice& b) const override { return a.compare(b); }
  const char* Name() const override { return "sluice.BytewiseComparator"; }

  void FindShortestSeparator(std::string* start, const Slice& limit) const override {
    const size_t min_length = std::min(start->size(), limit.size());
    size_t diff = 0;
    while (diff < min_length && (*start)[diff] == limit[diff]) diff++;
    if (diff >= min_length) return;  // one is a prefix of the other
    const uint8_t byte = static_cast<uint8_t>((*start)[diff]);
    if (byte < 0xff && byte + 1 < static_cast<uint8_t>(limit[diff])) {
      (*start)[diff]++;
      start->resize(diff + 1);
    }
  }

  void FindShortSuccessor(std::string* key) const override {
    for (size_t i = 0; i < key->size(); i++) {
      if (static_cast<uint8_t>((*key)[i]) != 0xff) {
        (*key)[i] = static_cast<char>(static_cast<uint8_t>((*key)[i]) + 1);
        key->resize(i + 1);
        return;
      }
    }
    // All 0xff: leave as is.
  }
};

}  // namespace

const Comparator* BytewiseComparator() {
  static const BytewiseComparatorImpl* c = new BytewiseComparatorImpl;
  return c;
}

}  // namespace sluice
