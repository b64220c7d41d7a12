// Tests of the C API (include/sluice/c.h): round trips written in C (the basic calls, column
// families, a block cache and a memory budget shared by two databases), and error reporting.

#include <gtest/gtest.h>

#include <cstring>

#include "sluice/c.h"
#include "support/test_util.h"

extern "C" const char* sluice_c_api_round_trip(const char* path);
extern "C" const char* sluice_c_api_column_families(const char* path);
extern "C" const char* sluice_c_api_shared_cache_and_budget(const char* path_a, const char* path_b);

namespace sluice::test {

TEST(CApi, RoundTripFromC) {
  TempDir dir;
  const char* failure = sluice_c_api_round_trip(dir.File("db").c_str());
  EXPECT_EQ(nullptr, failure) << failure;
}

TEST(CApi, ColumnFamiliesFromC) {
  TempDir dir;
  const char* failure = sluice_c_api_column_families(dir.File("db").c_str());
  EXPECT_EQ(nullptr, failure) << failure;
}

TEST(CApi, SharesABlockCacheAndAMemoryBudgetFromC) {
  TempDir dir;
  const char* failure =
      sluice_c_api_shared_cache_and_budget(dir.File("a").c_str(), dir.File("b").c_str());
  EXPECT_EQ(nullptr, failure) << failure;
}

TEST(CApi, SizesTheSharedBackgroundPools) {
  const int low = sluice_get_background_threads(SLUICE_POOL_LOW);
  const int high = sluice_get_background_threads(SLUICE_POOL_HIGH);
  char* err = nullptr;
  sluice_set_background_threads(SLUICE_POOL_LOW, 3, &err);
  sluice_set_background_threads(SLUICE_POOL_HIGH, 0, &err);  // clamped to 1
  ASSERT_EQ(nullptr, err);
  EXPECT_EQ(3, sluice_get_background_threads(SLUICE_POOL_LOW));
  EXPECT_EQ(1, sluice_get_background_threads(SLUICE_POOL_HIGH));
  EXPECT_GE(sluice_get_background_threads(SLUICE_POOL_DRAIN), 1);
  sluice_set_background_threads(7, 2, &err);
  ASSERT_NE(nullptr, err);
  EXPECT_NE(nullptr, std::strstr(err, "unknown pool 7")) << err;
  sluice_free(err);
  EXPECT_EQ(-1, sluice_get_background_threads(7));
  err = nullptr;
  sluice_set_background_threads(SLUICE_POOL_LOW, low, &err);
  sluice_set_background_threads(SLUICE_POOL_HIGH, high, &err);
  EXPECT_EQ(nullptr, err);
}

TEST(CApi, ErrorsAreMessagesNamingThePath) {
  TempDir dir;
  const std::string path = dir.File("missing");
  sluice_options_t* options = sluice_options_create();
  char* err = nullptr;
  EXPECT_EQ(nullptr, sluice_open(options, path.c_str(), &err));
  ASSERT_NE(nullptr, err);
  EXPECT_NE(nullptr, std::strstr(err, path.c_str())) << err;
  // A second failure replaces (and frees) the first message.
  sluice_options_set_memtable(options, "no-such-component");
  EXPECT_EQ(nullptr, sluice_open(options, path.c_str(), &err));
  EXPECT_NE(nullptr, std::strstr(err, "no-such-component")) << err;
  sluice_free(err);
  sluice_options_destroy(options);
}

}  // namespace sluice::test
