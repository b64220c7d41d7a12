// Tests of util/coding: round trips at the edges of every width, and rejection of truncated or
// overlong input.

#include "util/coding.h"

#include <gtest/gtest.h>

#include <vector>

namespace sluice {

TEST(Coding, Fixed32And64RoundTrip) {
  std::string s;
  for (uint32_t v = 0; v < 100000; v++) PutFixed32(&s, v);
  PutFixed64(&s, ~uint64_t{0});
  Slice in(s);
  for (uint32_t v = 0; v < 100000; v++) {
    uint32_t got;
    ASSERT_TRUE(GetFixed32(&in, &got));
    ASSERT_EQ(v, got);
  }
  uint64_t big;
  ASSERT_TRUE(GetFixed64(&in, &big));
  EXPECT_EQ(~uint64_t{0}, big);
  uint32_t none;
  EXPECT_FALSE(GetFixed32(&in, &none));
}

TEST(Coding, Varint64RoundTripAtEveryPowerOfTwo) {
  std::vector<uint64_t> values = {0, 100, ~uint64_t{0}, ~uint64_t{0} - 1};
  for (int k = 0; k < 64; k++) {
    const uint64_t power = uint64_t{1} << k;
    values.push_back(power);
    values.push_back(power - 1);
    values.push_back(power + 1);
  }
  std::string s;
  for (uint64_t v : values) PutVarint64(&s, v);
  Slice in(s);
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got));
    ASSERT_EQ(v, got);
    ASSERT_EQ(VarintLength(v), VarintLength(got));
  }
  EXPECT_TRUE(in.empty());
}

TEST(Coding, Varint32RejectsOverflowAndTruncation) {
  std::string s;
  PutVarint64(&s, uint64_t{1} << 40);
  Slice in(s);
  uint32_t v;
  EXPECT_FALSE(GetVarint32(&in, &v));
  std::string t;
  PutVarint32(&t, 1u << 30);
  for (size_t len = 0; len < t.size(); len++) {
    Slice truncated(t.data(), len);
    EXPECT_FALSE(GetVarint32(&truncated, &v)) << len;
  }
}

TEST(Coding, LengthPrefixedSlices) {
  std::string s;
  PutLengthPrefixedSlice(&s, Slice(""));
  PutLengthPrefixedSlice(&s, Slice("foo"));
  PutLengthPrefixedSlice(&s, Slice(std::string(200, 'x')));
  Slice in(s), v;
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ("foo", v.ToString());
  ASSERT_TRUE(GetLengthPrefixedSlice(&in, &v));
  EXPECT_EQ(std::string(200, 'x'), v.ToString());
  EXPECT_FALSE(GetLengthPrefixedSlice(&in, &v));
  std::string bad;
  PutVarint32(&bad, 10);
  bad += "abc";
  Slice bad_in(bad);
  EXPECT_FALSE(GetLengthPrefixedSlice(&bad_in, &v));
}

}  // namespace sluice
