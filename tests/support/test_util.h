// tests/support/test_util.h — helpers shared by the tests: a temporary directory that removes
// itself, whole-file read/write, byte-level damage (flip, truncate, zero) for corruption
// tests, numbered keys, waiting for a condition, and ASSERT_OK / EXPECT_OK for a Status.
//
// Included by every layer's unit tests, so it may include only GoogleTest, the public
// include/sluice headers and the standard library.

#ifndef SLUICE_TESTS_SUPPORT_TEST_UTIL_H_
#define SLUICE_TESTS_SUPPORT_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "sluice/status.h"

// ASSERT_OK(expr) / EXPECT_OK(expr): expr (a sluice::Status, evaluated once) is OK. On failure
// the message shows the expression and status.ToString(); more can be streamed, as with
// ASSERT_TRUE: ASSERT_OK(Put(k, v)) << "key " << k;
#define ASSERT_OK(expr) ASSERT_PRED_FORMAT1(::sluice::test::IsOk, expr)
#define EXPECT_OK(expr) EXPECT_PRED_FORMAT1(::sluice::test::IsOk, expr)

namespace sluice::test {

// The predicate formatter behind ASSERT_OK / EXPECT_OK: success if status is OK, otherwise a
// failure naming expr (the expression's text) and the Status.
::testing::AssertionResult IsOk(const char* expr, const Status& status);

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

// Polls pred (every 200 us) until it holds: true, or false once `patience` has passed. For
// background work a test waits for; the patience is long, so a busy machine never fails it.
template <typename Pred>
bool Eventually(Pred pred, std::chrono::milliseconds patience = std::chrono::seconds(20)) {
  const auto deadline = std::chrono::steady_clock::now() + patience;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_TEST_UTIL_H_
