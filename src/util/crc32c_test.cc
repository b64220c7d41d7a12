// Tests of util/crc32c against the standard CRC-32C test vectors (RFC 3720, B.4).

#include "util/crc32c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace sluice::crc32c {

TEST(CRC32C, StandardVectors) {
  char buf[32];
  std::memset(buf, 0, sizeof(buf));
  EXPECT_EQ(0x8a9136aau, Value(buf, sizeof(buf)));
  std::memset(buf, 0xff, sizeof(buf));
  EXPECT_EQ(0x62a8ab43u, Value(buf, sizeof(buf)));
  for (int i = 0; i < 32; i++) buf[i] = static_cast<char>(i);
  EXPECT_EQ(0x46dd794eu, Value(buf, sizeof(buf)));
  for (int i = 0; i < 32; i++) buf[i] = static_cast<char>(31 - i);
  EXPECT_EQ(0x113fdb5cu, Value(buf, sizeof(buf)));
  EXPECT_EQ(0xe3069283u, Value("123456789", 9));
}

TEST(CRC32C, ExtendEqualsWhole) {
  const std::string a = "hello ", b = "world";
  EXPECT_EQ(Value((a + b).data(), a.size() + b.size()),
            Extend(Value(a.data(), a.size()), b.data(), b.size()));
}

TEST(CRC32C, MaskRoundTripsAndDiffers) {
  const uint32_t crc = Value("foo", 3);
  EXPECT_NE(crc, Mask(crc));
  EXPECT_NE(crc, Mask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Mask(crc)));
  EXPECT_EQ(crc, Unmask(Unmask(Mask(Mask(crc)))));
}

}  // namespace sluice::crc32c
