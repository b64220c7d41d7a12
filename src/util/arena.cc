// util/arena.cc — see arena.h.

#include "util/arena.h"

#include <algorithm>
#include <thread>

#include "util/cpu.h"

namespace sluice {

namespace {

size_t ShardCount() {
  size_t n = 1;
  const size_t cpus = std::max(1u, std::thread::hardware_concurrency());
  while (n < cpus && n < 64) n <<= 1;
  return n;
}

}  // namespace

ConcurrentArena::ConcurrentArena(size_t block_size)
    : block_size_(std::max<size_t>(block_size, 1024)),
      chunk_size_(std::max<size_t>(block_size_ / 8, 256)),
      shards_(new Shard[ShardCount()]),
      shard_mask_(ShardCount() - 1) {
  memory_usage_.store(sizeof(*this) + (shard_mask_ + 1) * sizeof(Shard), std::memory_order_relaxed);
}

ConcurrentArena::~ConcurrentArena() = default;

char* ConcurrentArena::Allocate(size_t bytes) {
  bytes = (bytes + 7) & ~size_t{7};
  if (bytes == 0) bytes = 8;
  if (bytes > chunk_size_ / 4) {
    return AllocateFromCentral(bytes);
  }
  Shard& shard = shards_[ThreadIndex() & shard_mask_];
  // The flag guards ptr/remaining: acquire on lock, release on unlock.
  while (shard.lock.test_and_set(std::memory_order_acquire)) {
    CpuRelax();
  }
  if (shard.remaining < bytes) {
    shard.ptr = AllocateFromCentral(chunk_size_);
    shard.remaining = chunk_size_;
  }
  char* result = shard.ptr;
  shard.ptr += bytes;
  shard.remaining -= bytes;
  shard.lock.clear(std::memory_order_release);
  return result;
}

char* ConcurrentArena::AllocateFromCentral(size_t bytes) {
  MutexLock l(&mu_);
  if (bytes > block_size_ / 4) {
    return NewBlock(bytes);  // large: its own block, the current block stays in use
  }
  if (central_remaining_ < bytes) {
    central_ptr_ = NewBlock(block_size_);
    central_remaining_ = block_size_;
  }
  char* result = central_ptr_;
  central_ptr_ += bytes;
  central_remaining_ -= bytes;
  return result;
}

char* ConcurrentArena::NewBlock(size_t bytes) {
  blocks_.push_back(AllocateHugePageBuffer(bytes));
  memory_usage_.fetch_add(bytes + sizeof(HugePageBuffer), std::memory_order_relaxed);
  return blocks_.back().get();
}

}  // namespace sluice
