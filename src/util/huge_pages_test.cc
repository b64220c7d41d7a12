// Tests for util/huge_pages.h: alignment, the whole length usable, buffers disjoint.

#include "util/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "util/asan.h"

namespace sluice {
namespace {

TEST(HugePageBuffer, EverySizeIsAlignedWritableAndDisjoint) {
  const std::vector<size_t> sizes = {
      1, 100, 64 << 10, kHugePageSize, 2 * kHugePageSize, 3 * kHugePageSize, kHugePageSize + 4096};
  std::vector<HugePageBuffer> buffers;
  for (size_t i = 0; i < sizes.size(); i++) {
    const size_t bytes = sizes[i];
    HugePageBuffer b = AllocateHugePageBuffer(bytes);
    ASSERT_NE(nullptr, b.get());
    const auto address = reinterpret_cast<uintptr_t>(b.get());
    EXPECT_EQ(0u, address % kCacheLineSize) << bytes;
    if (bytes % kHugePageSize == 0) {
      EXPECT_EQ(0u, address % kHugePageSize) << bytes;
    }
    // Every page of the buffer, its first and its last byte, take a write.
    for (size_t off = 0; off < bytes; off += 4096) b[off] = static_cast<char>(i + 1);
    b[bytes - 1] = static_cast<char>(i + 1);
    buffers.push_back(std::move(b));
  }
  // No buffer overlaps another: each still holds its own mark everywhere.
  for (size_t i = 0; i < sizes.size(); i++) {
    for (size_t off = 0; off < sizes[i]; off += 4096) {
      ASSERT_EQ(static_cast<char>(i + 1), buffers[i][off]) << sizes[i] << " at " << off;
    }
    EXPECT_EQ(static_cast<char>(i + 1), buffers[i][sizes[i] - 1]);
  }
}

TEST(HugePageBuffer, ReleasedBuffersCanBeTakenAgain) {
  // Many rounds of a mapped size: each buffer is unmapped (not leaked) when released, so this
  // stays within the address space and memory it started with.
  for (int round = 0; round < 200; round++) {
    HugePageBuffer b = AllocateHugePageBuffer(4 * kHugePageSize);
    std::memset(b.get(), round, 4 * kHugePageSize);
    ASSERT_EQ(static_cast<char>(round), b[4 * kHugePageSize - 1]);
  }
}

TEST(HugePageBuffer, MemoryPoisonedBeforeItWasReleasedIsAddressableWhenMappedAgain) {
  // Under ASan poison belongs to addresses and survives munmap; the pool poisons its free
  // records. A buffer mapped where a poisoned one was must still be writable (in other builds
  // this is the test above again). Several rounds: the kernel usually, not always, hands the
  // same addresses back.
  for (int round = 0; round < 20; round++) {
    HugePageBuffer b = AllocateHugePageBuffer(2 * kHugePageSize);
    std::memset(b.get(), round, 2 * kHugePageSize);
    SLUICE_ASAN_POISON(b.get() + kHugePageSize / 2, kHugePageSize);
  }
  // And without a round of its own in between: poisoned, released, then any new mapping.
  HugePageBuffer b = AllocateHugePageBuffer(2 * kHugePageSize);
  std::memset(b.get(), 7, 2 * kHugePageSize);
  EXPECT_EQ(7, b[kHugePageSize]);
}

}  // namespace
}  // namespace sluice
