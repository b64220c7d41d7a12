// tests/support/test_util.h — helpers shared by the tests: a temporary directory that removes
// itself, whole-file read/write, byte-level damage (flip, truncate, zero) for corruption
// tests, and numbered keys.

#ifndef SLUICE_TESTS_SUPPORT_TEST_UTIL_H_
#define SLUICE_TESTS_SUPPORT_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::test {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string ReadFileOrDie(const std::string& fname);
void WriteFileOrDie(const std::string& fname, const std::string& contents);
// XORs the byte at offset with mask.
void FlipByte(const std::string& fname, uint64_t offset, uint8_t mask = 0x40);
void TruncateFileOrDie(const std::string& fname, uint64_t size);
// Overwrites [offset, offset + n) with zeros.
void ZeroBytes(const std::string& fname, uint64_t offset, uint64_t n);
uint64_t FileSizeOrDie(const std::string& fname);
// Names in dir matching a suffix (".sst", ".log", ...), sorted.
std::vector<std::string> FilesWithSuffix(const std::string& dir, const std::string& suffix);
// Recursively copies directory src to dst (dst must not exist).
void CopyDirOrDie(const std::string& src, const std::string& dst);

// "key000123": keys that sort in the order of their numbers (below a million).
std::string Key(int i);

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_TEST_UTIL_H_
