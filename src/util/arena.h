// util/arena.h — a concurrent bump allocator for memory components.
//
// Many threads allocate at once: each thread is mapped to one of a few shards, and a shard
// carves small allocations out of its own chunk under a spinlock that is almost never
// contended; chunks and large allocations come from a central list of blocks under a mutex.
// Memory is returned only when the arena is destroyed (nodes of a memory component live as long
// as the component). Every allocation is 8-byte aligned.
//
// MemoryUsage() counts every byte the arena obtained from the system, including the unused
// tails of chunks and the block list itself, so "full" means the budget is really spent.

#ifndef SLUICE_UTIL_ARENA_H_
#define SLUICE_UTIL_ARENA_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "util/huge_pages.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class ConcurrentArena {
 public:
  // block_size: bytes of each block obtained from the system (chunks are cut from blocks).
  explicit ConcurrentArena(size_t block_size = 1 << 20);
  ConcurrentArena(const ConcurrentArena&) = delete;
  ConcurrentArena& operator=(const ConcurrentArena&) = delete;
  ~ConcurrentArena();

  // Returns `bytes` of 8-byte aligned memory. Thread-safe.
  char* Allocate(size_t bytes);

  // Bytes obtained from the system so far (monotonic). Thread-safe.
  size_t MemoryUsage() const { return memory_usage_.load(std::memory_order_relaxed); }

 private:
  struct alignas(64) Shard {
    std::atomic_flag lock = ATOMIC_FLAG_INIT;
    char* ptr = nullptr;
    size_t remaining = 0;
  };

  char* AllocateFromCentral(size_t bytes) EXCLUDES(mu_);  // REQUIRES: bytes is a multiple of 8
  char* NewBlock(size_t bytes) REQUIRES(mu_);

  const size_t block_size_;
  const size_t chunk_size_;
  std::unique_ptr<Shard[]> shards_;
  const size_t shard_mask_;

  Mutex mu_;
  std::vector<HugePageBuffer> blocks_ GUARDED_BY(mu_);
  char* central_ptr_ GUARDED_BY(mu_) = nullptr;
  size_t central_remaining_ GUARDED_BY(mu_) = 0;
  std::atomic<size_t> memory_usage_{0};
};

}  // namespace sluice

#endif  // SLUICE_UTIL_ARENA_H_
