// Tests of util/crc32c against the standard CRC-32C test vectors (RFC 3720, B.4).

#include "util/crc32c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

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

#if defined(__x86_64__)
// XINUSE (XGETBV with ECX = 1): which register states are not in their initial state. Bit 2:
// the upper halves of ymm0-15; bit 6: the upper halves of zmm0-15.
__attribute__((target("xsave"))) static uint64_t VectorStatesInUse() {
  uint32_t eax, edx;
  asm volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(1));
  return (uint64_t{edx} << 32) | eax;
}

static bool CpuReportsStatesInUse() {
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid_count(0xd, 1, &eax, &ebx, &ecx, &edx) == 0) return false;
  return (eax & (1u << 2)) != 0;  // XGETBV with ECX = 1 is supported
}

// The vector library behind Extend may leave the upper register state dirty (ISA-L's AVX-512
// routine does); Extend cleans it, or every legacy-SSE instruction after it is slowed on Intel
// cores (crc32c.cc).
TEST(CRC32C, LeavesUpperVectorStateClean) {
  if (!CpuReportsStatesInUse()) GTEST_SKIP() << "the CPU has no XGETBV with ECX = 1";
  std::vector<char> data(64 << 10);
  for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<char>(i * 131);
  for (size_t n : {size_t{9}, size_t{100}, size_t{4096}, data.size()}) {
    const uint32_t crc = Value(data.data(), n);
    const uint64_t in_use = VectorStatesInUse();
    EXPECT_EQ(in_use & ((1u << 2) | (1u << 6)), 0u)
        << "after " << n << " bytes (crc " << crc << ")";
  }
}
#endif

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
