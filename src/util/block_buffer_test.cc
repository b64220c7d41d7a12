// Tests of the block buffers' per-thread cache: reuse within a size class, the sizes it leaves
// to the heap, its byte limit, frees on another thread, threads that only free, and the emptying
// at thread exit.

#include "util/block_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

namespace sluice {

TEST(BlockBuffer, AFreedBufferServesTheNextRequestOfItsClass) {
  char* first;
  {
    BlockBuffer b = NewBlockBuffer(4101);  // a 4 KiB block and its trailer
    ASSERT_NE(nullptr, b.get());
    EXPECT_EQ(4352u, b.get_deleter().capacity);  // rounded up to 256 bytes
    std::memset(b.get(), 'x', 4101);
    first = b.get();
  }
  const size_t cached = ThreadCachedBlockBufferBytes();
  EXPECT_GE(cached, 4352u);
  BlockBuffer again = NewBlockBuffer(4200);  // the same class
  EXPECT_EQ(first, again.get());
  EXPECT_EQ(cached - 4352, ThreadCachedBlockBufferBytes());
  BlockBuffer other = NewBlockBuffer(8000);  // another class: not that one
  EXPECT_NE(first, other.get());
}

TEST(BlockBuffer, SmallAndLargeBuffersGoToTheHeap) {
  const size_t before = ThreadCachedBlockBufferBytes();
  for (const size_t size : {size_t{1}, size_t{1000}, size_t{65537}, size_t{1} << 20}) {
    BlockBuffer b = NewBlockBuffer(size);
    EXPECT_EQ(size, b.get_deleter().capacity);
    std::memset(b.get(), 'y', size);
  }
  EXPECT_EQ(before, ThreadCachedBlockBufferBytes());
}

TEST(BlockBuffer, TheCacheKeepsAtMostItsLimit) {
  std::vector<BlockBuffer> held;
  for (size_t i = 0; i < 2 * kBlockBufferThreadCacheBytes / 4096; i++) {
    held.push_back(NewBlockBuffer(4096));
  }
  held.clear();  // twice the limit freed at once: the rest went to the heap
  EXPECT_LE(ThreadCachedBlockBufferBytes(), kBlockBufferThreadCacheBytes);
  EXPECT_GT(ThreadCachedBlockBufferBytes(), kBlockBufferThreadCacheBytes - 4096);
}

// A block read by one thread and evicted by another: the buffer lands in the evicting thread's
// cache, which hands it out there; the thread's exit empties its cache (LeakSanitizer and
// AddressSanitizer builds check that nothing leaks).
TEST(BlockBuffer, AFreeOnAnotherThreadFeedsThatThreadsCache) {
  BlockBuffer b = NewBlockBuffer(5000);
  char* p = b.get();
  bool reused = false;
  size_t cached_there = 0;
  std::thread t([&] {
    NewBlockBuffer(5000).reset();  // a reader of its own: it takes buffers, so it caches
    const size_t own = ThreadCachedBlockBufferBytes();
    b.reset();
    cached_there = ThreadCachedBlockBufferBytes() - own;
    BlockBuffer again = NewBlockBuffer(5000);
    reused = again.get() == p;
  });
  t.join();
  EXPECT_EQ(5120u, cached_there);
  EXPECT_TRUE(reused);
}

// A thread that never takes a buffer (the epoch reclaimer, which deletes table readers) keeps
// none of those it frees: its cache would never be used, and that thread never exits.
TEST(BlockBuffer, AThreadThatOnlyFreesKeepsNothing) {
  std::vector<BlockBuffer> blocks;
  for (int i = 0; i < 8; i++) blocks.push_back(NewBlockBuffer(4096));
  size_t cached_there = 1;
  std::thread t([&] {
    blocks.clear();
    cached_there = ThreadCachedBlockBufferBytes();
  });
  t.join();
  EXPECT_EQ(0u, cached_there);
}

}  // namespace sluice
