// util/comparator.h — total orders over keys used inside the engine.
//
// sluice orders user keys bytewise (memcmp, shorter first). Internal keys (user key + 8-byte
// trailer, see base/internal_key.h) order by user key ascending, then sequence number descending,
// so the newest version of a key comes first. The separator helpers let index blocks store short
// keys: for a < b, FindShortestSeparator turns *start into some s with a <= s < b.

#ifndef SLUICE_UTIL_COMPARATOR_H_
#define SLUICE_UTIL_COMPARATOR_H_

#include <string>

#include "sluice/slice.h"

namespace sluice {

class Comparator {
 public:
  virtual ~Comparator() = default;
  virtual int Compare(const Slice& a, const Slice& b) const = 0;
  virtual const char* Name() const = 0;
  // If *start < limit, changes *start to a short string in [*start, limit).
  virtual void FindShortestSeparator(std::string* start, const Slice& limit) const = 0;
  // Changes *key to a short string >= *key.
  virtual void FindShortSuccessor(std::string* key) const = 0;
};

// Bytewise order of plain keys. A process-wide singleton.
const Comparator* BytewiseComparator();

}  // namespace sluice

#endif  // SLUICE_UTIL_COMPARATOR_H_
