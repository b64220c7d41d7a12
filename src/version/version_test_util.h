// version/version_test_util.h — helpers for the version layer's tests (test code only).

#ifndef SLUICE_VERSION_VERSION_TEST_UTIL_H_
#define SLUICE_VERSION_VERSION_TEST_UTIL_H_

#include <cstdint>
#include <string>

#include "base/internal_key.h"
#include "version/file_metadata.h"

namespace sluice::test {

// Metadata of a 100-byte table file holding user keys [smallest, largest], all at sequence 1.
inline FileMetaData TableFile(uint64_t number, const std::string& smallest,
                              const std::string& largest) {
  FileMetaData f;
  f.number = number;
  f.file_size = 100;
  f.smallest = InternalKey(smallest, 1, kTypeValue);
  f.largest = InternalKey(largest, 1, kTypeValue);
  f.smallest_seqno = 1;
  f.largest_seqno = 1;
  return f;
}

}  // namespace sluice::test

#endif  // SLUICE_VERSION_VERSION_TEST_UTIL_H_
