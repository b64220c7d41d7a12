// tests/test_util_test.cc — ASSERT_OK / EXPECT_OK (tests/support/test_util.h): a failure shows
// the expression and the Status, streamed messages are kept, and the expression runs once.

#include "support/test_util.h"

#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>

#include "sluice/status.h"

namespace sluice::test {
namespace {

Status Damaged() { return Status::Corruption("bad block checksum", "/db/000012.sst"); }

// Runs body, capturing the failures it reports in results instead of failing this test.
void CaptureFailures(void (*body)(), ::testing::TestPartResultArray* results) {
  ::testing::ScopedFakeTestPartResultReporter reporter(
      ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, results);
  body();
}

TEST(StatusMacros, OkStatusPasses) {
  int reached = 0;
  ASSERT_OK(Status::OK());
  EXPECT_OK(Status()) << "never shown";
  reached++;
  EXPECT_EQ(1, reached);
}

TEST(StatusMacros, ExpectOkFailsNonFatallyWithTheStatus) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Damaged()), "Corruption: bad block checksum: /db/000012.sst");
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Damaged()), "Damaged()");
}

TEST(StatusMacros, AssertOkFailsFatallyWithTheStatus) {
  EXPECT_FATAL_FAILURE(ASSERT_OK(Damaged()), "Corruption: bad block checksum: /db/000012.sst");
  EXPECT_FATAL_FAILURE(ASSERT_OK(Status::IOError("disk full")), "Status::IOError(\"disk full\")");
}

TEST(StatusMacros, TheMessageNamesExpressionStatusAndStreamedText) {
  ::testing::TestPartResultArray results;
  CaptureFailures(
      [] {
        const int key = 42;
        EXPECT_OK(Damaged()) << "key " << key;
      },
      &results);
  ASSERT_EQ(1, results.size());
  EXPECT_EQ(::testing::TestPartResult::kNonFatalFailure, results.GetTestPartResult(0).type());
  EXPECT_THAT(
      results.GetTestPartResult(0).message(),
      ::testing::AllOf(::testing::HasSubstr("Damaged()"),
                       ::testing::HasSubstr(Damaged().ToString()), ::testing::HasSubstr("key 42")));
}

TEST(StatusMacros, AssertOkReturnsFromTheFunctionOnFailure) {
  static bool after = false;
  ::testing::TestPartResultArray results;
  CaptureFailures(
      [] {
        ASSERT_OK(Status::NotFound("gone")) << "streamed";
        after = true;
      },
      &results);
  ASSERT_EQ(1, results.size());
  EXPECT_EQ(::testing::TestPartResult::kFatalFailure, results.GetTestPartResult(0).type());
  EXPECT_THAT(
      results.GetTestPartResult(0).message(),
      ::testing::AllOf(::testing::HasSubstr("NotFound: gone"), ::testing::HasSubstr("streamed")));
  EXPECT_FALSE(after);
}

TEST(StatusMacros, TheExpressionIsEvaluatedOnce) {
  int calls = 0;
  auto count = [&calls] {
    calls++;
    return Status::OK();
  };
  EXPECT_OK(count());
  ASSERT_OK(count());
  EXPECT_EQ(2, calls);

  static int failing_calls = 0;
  EXPECT_NONFATAL_FAILURE(EXPECT_OK((failing_calls++, Damaged())), "Corruption");
  EXPECT_EQ(1, failing_calls);
}

}  // namespace
}  // namespace sluice::test
