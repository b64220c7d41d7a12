// Tests of table/bloom: no false negatives, a false-positive rate below 2% at 10 bits per key,
// deduplication of consecutive keys, the minimum size, and that malformed or reserved filters
// match everything rather than excluding keys.

#include "table/bloom.h"

#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "util/coding.h"
#include "util/hash.h"

namespace sluice {

namespace {

std::string Key(uint32_t i) {
  std::string k = "user-key-";
  PutFixed32(&k, i);
  return k;
}

}  // namespace

TEST(Bloom, NoFalseNegativesFor10kKeys) {
  BloomFilterBuilder builder(10);
  for (uint32_t i = 0; i < 10000; i++) builder.AddKey(Key(i));
  const std::string filter = builder.Finish();
  for (uint32_t i = 0; i < 10000; i++) ASSERT_TRUE(BloomFilterMayMatch(filter, Key(i))) << i;
}

TEST(Bloom, FalsePositiveRateAt10BitsPerKeyIsBelowTwoPercent) {
  BloomFilterBuilder builder(10);
  for (uint32_t i = 0; i < 10000; i++) builder.AddKey(Key(i));
  const std::string filter = builder.Finish();
  EXPECT_EQ(7, filter.back());  // round(10 * 0.69) probes
  EXPECT_EQ(10000u * 10 / 8 + 1, filter.size());
  int false_positives = 0;
  const int kProbes = 100000;
  for (uint32_t i = 0; i < kProbes; i++) {
    if (BloomFilterMayMatch(filter, Key(1000000 + i))) false_positives++;
  }
  EXPECT_LT(false_positives, kProbes * 2 / 100) << false_positives;
}

TEST(Bloom, NoFalseNegativesAtEveryBitsPerKeyAndSize) {
  for (int bits : {1, 2, 5, 10, 20, 50, 100}) {
    for (uint32_t n : {1u, 3u, 10u, 100u, 1000u}) {
      BloomFilterBuilder builder(bits);
      for (uint32_t i = 0; i < n; i++) builder.AddKey(Key(i * 7));
      const std::string filter = builder.Finish();
      for (uint32_t i = 0; i < n; i++) {
        ASSERT_TRUE(BloomFilterMayMatch(filter, Key(i * 7))) << bits << " " << n;
      }
      const int k = filter.back();
      EXPECT_GE(k, 1);
      EXPECT_LE(k, 30);
    }
  }
}

TEST(Bloom, EmptyFilterHasMinimumSizeAndMatchesNothing) {
  BloomFilterBuilder builder(10);
  const std::string filter = builder.Finish();
  EXPECT_EQ(64u / 8 + 1, filter.size());
  EXPECT_FALSE(BloomFilterMayMatch(filter, "a"));
  EXPECT_FALSE(BloomFilterMayMatch(filter, ""));
}

TEST(Bloom, ConsecutiveDuplicateKeysAreCountedOnce) {
  BloomFilterBuilder once(10), repeated(10);
  for (uint32_t i = 0; i < 50; i++) {
    once.AddKey(Key(i));
    for (int r = 0; r < 5; r++) repeated.AddKey(Key(i));
  }
  EXPECT_EQ(50u, repeated.NumKeys());
  EXPECT_EQ(once.Finish(), repeated.Finish());
}

TEST(Bloom, FinishStartsANewFilter) {
  BloomFilterBuilder builder(10);
  builder.AddKey("first");
  const std::string a = builder.Finish();
  EXPECT_EQ(0u, builder.NumKeys());
  builder.AddKey("second");
  const std::string b = builder.Finish();
  EXPECT_TRUE(BloomFilterMayMatch(b, "second"));
  EXPECT_TRUE(BloomFilterMayMatch(a, "first"));
}

TEST(Bloom, MalformedOrReservedFiltersMatchEverything) {
  EXPECT_TRUE(BloomFilterMayMatch("", "x"));
  EXPECT_TRUE(BloomFilterMayMatch(std::string(1, '\x07'), "x"));
  EXPECT_TRUE(BloomFilterMayMatch(std::string(8, '\0') + std::string(1, '\0'), "x"));    // k = 0
  EXPECT_TRUE(BloomFilterMayMatch(std::string(8, '\0') + std::string(1, '\x1f'), "x"));  // k = 31
  EXPECT_TRUE(BloomFilterMayMatch(std::string(8, '\0') + std::string(1, '\xff'), "x"));
  EXPECT_FALSE(BloomFilterMayMatch(std::string(8, '\0') + std::string(1, '\x1e'), "x"));
}

TEST(Bloom, FilterBytesMatchTheDocumentedEncoding) {
  // Filters are stored on disk: these bytes were produced by the encoding in bloom.h (XXH3 with
  // seed 0, double hashing, 64-bit minimum). A change here breaks every existing SST file.
  BloomFilterBuilder builder(10);
  for (const char* k : {"apple", "banana", "cherry"}) builder.AddKey(k);
  EXPECT_EQ(std::string("\x07\x70\x42\x0c\xc8\x03\x10\x84\x07", 9), builder.Finish());
}

TEST(Bloom, LargeFiltersMatchTheEncodingBitForBit) {
  // The encoding, probe by probe (one division each), against the builder, on filters whose
  // size is not a power of two, so that h + delta wraps around 2^64 for about half the keys
  // and 2^64 % bits is not 0: any drift in how positions are computed shows here.
  for (const int n : {1, 7, 1000, 10007, 65537}) {
    for (const int bits_per_key : {1, 5, 10, 23}) {
      BloomFilterBuilder builder(bits_per_key);
      std::vector<uint64_t> hashes;
      for (int i = 0; i < n; i++) {
        const std::string key = "key" + std::to_string(i * 7919);
        builder.AddKey(key);
        hashes.push_back(Hash64(key));
      }
      const std::string filter = builder.Finish();
      const uint64_t bits = (filter.size() - 1) * 8;
      const int k = static_cast<unsigned char>(filter.back());
      std::string expected(filter.size() - 1, '\0');
      for (uint64_t h : hashes) {
        const uint64_t delta = std::rotr(h, 32);
        for (int j = 0; j < k; j++) {
          const uint64_t pos = h % bits;
          expected[pos / 8] = static_cast<char>(expected[pos / 8] | (1 << (pos % 8)));
          h += delta;
        }
      }
      EXPECT_EQ(expected, filter.substr(0, filter.size() - 1)) << n << " keys, " << bits_per_key;
    }
  }
}

}  // namespace sluice
