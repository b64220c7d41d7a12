// util/block_buffer.h — heap buffers for table blocks, recycled through a small cache per thread.
//
// Every block a read takes from a table (a data block read for a Get or a scan, its compressed
// bytes, the uncompressed copy the block cache keeps) is a buffer of a few KiB: above what
// glibc's per-thread cache serves (1 KiB), so each malloc and free of one took the arena's lock,
// and a block freed by the thread whose cache eviction dropped it went back to the arena of the
// thread that read it, under that arena's lock. On a scan-heavy workload (YCSB E) that was a
// fifth of the readers' time and the lock waits a tenth. Here a buffer of 1 KiB to 64 KiB is
// rounded up to a multiple of 256 bytes, and a freed one goes to the freeing thread's cache
// (up to kThreadCacheBytes), where that thread's next request of the same size class finds it:
// readers that also evict keep their buffers circulating without a lock. Other sizes, a full
// cache, and the frees of a thread that has never taken a buffer of the cached sizes go to the
// heap: a thread that only frees (the epoch reclaimer, which closes table readers) would hold
// its cache unused for as long as it lives, and the reclaimer lives as long as the process.
//
// Invariants:
//   * A buffer is in at most one place: owned by a BlockBuffer, or in one thread's cache.
//   * A thread's cache is touched only by that thread (no locks); it is emptied when the thread
//     exits, after which the thread's frees go to the heap.
//   * Under AddressSanitizer a cached buffer is poisoned until it is handed out again, so a
//     reader that kept a pointer into a freed block is still reported.

#ifndef SLUICE_UTIL_BLOCK_BUFFER_H_
#define SLUICE_UTIL_BLOCK_BUFFER_H_

#include <cstddef>
#include <memory>

namespace sluice {

// Returns a buffer to the calling thread's cache, or to the heap.
struct BlockBufferDeleter {
  size_t capacity = 0;  // what the buffer was allocated with
  void operator()(char* p) const;
};
using BlockBuffer = std::unique_ptr<char[], BlockBufferDeleter>;

// A buffer of at least size bytes (not zeroed).
BlockBuffer NewBlockBuffer(size_t size);

// For tests: bytes of buffers in the calling thread's cache.
size_t ThreadCachedBlockBufferBytes();

inline constexpr size_t kBlockBufferThreadCacheBytes = 512 << 10;

}  // namespace sluice

#endif  // SLUICE_UTIL_BLOCK_BUFFER_H_
