// Tests of util/coding: round trips at the edges of every width, and rejection of truncated or
// overlong input.

#include "util/coding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/random.h"

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

// BytewiseCompare agrees in sign with Slice::compare on keys of every length from 0 to 80
// (words, tails and the memcmp path past 64 bytes), differing in one byte or only in length.
TEST(Coding, BytewiseCompareMatchesSliceCompare) {
  auto sign = [](int r) { return (r > 0) - (r < 0); };
  Random rnd(301);
  for (int trial = 0; trial < 20000; trial++) {
    const size_t la = rnd.Uniform(81);
    std::string a(la, '\0');
    for (char& c : a) c = static_cast<char>(rnd.Uniform(4) == 0 ? 0xff : rnd.Uniform(3));
    std::string b = a;
    switch (rnd.Uniform(3)) {
      case 0:
        if (!b.empty()) b[rnd.Uniform(b.size())] = static_cast<char>(rnd.Uniform(256));
        break;
      case 1: b.resize(rnd.Uniform(81), static_cast<char>(rnd.Uniform(256))); break;
      default: break;  // equal
    }
    ASSERT_EQ(sign(Slice(a).compare(b)), sign(BytewiseCompare(a, b))) << trial;
    ASSERT_EQ(sign(Slice(b).compare(a)), sign(BytewiseCompare(b, a))) << trial;
  }
}

}  // namespace sluice
