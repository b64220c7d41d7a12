// util/epoch_pool.h — an object pool for the records of a memory component that concurrent
// readers may still be looking at when they are replaced (FloDB's records: Membuffer entries,
// then sorted-level versions): allocation and retirement cost no heap call, and a retired
// record is reused only after an epoch grace period (util/epoch.h).
//
// Records are cut from blocks of block_size bytes, by size class (sizes rounded up to 16
// bytes, up to kMaxPooledSize; larger records go to the heap, one by one, and are retired
// through epoch::Retire). Each of the first kCaches thread slots (util/thread_slot.h) owns a
// cache and works in it without a lock (a slot has one live owner at a time, and its
// hand-over orders one owner's changes before the next one's); other threads share one more
// cache, under its spinlock:
//   * Allocate takes a free record of the class from the cache, else a batch of them from the
//     depot (a mutex, once per kDepotBatch records), else carves a new one from the cache's
//     current block. It prefetches the next free record of the class, for the next call.
//   * Retire appends the record to the cache's retired list; every kRetireBatch records the
//     list goes to epoch::Retire as one batch, whose callback, after the grace period, hands
//     the records to the depot. So one epoch retirement serves kRetireBatch records, and the
//     records move from the threads that retire them (drainers) to those that allocate
//     (writers) through the depot.
// Invariants:
//   * A record handed to Retire is never returned by Allocate before every epoch section that
//     was running at the Retire has ended (the batch's callback runs after a grace period that
//     began after the last Retire of its records).
//   * Blocks are freed only with the depot, which the pool and every batch in flight share:
//     the last of them to go frees the blocks, so a batch whose callback runs after the pool
//     was destroyed still has a depot to return its records to.
//   * Under AddressSanitizer a record is poisoned from the moment it reaches a free list until
//     Allocate returns it: a reader that kept a record past its grace period (a missing epoch
//     section) reads poisoned memory and is reported.
// MemoryUsage counts blocks and heap records: what the pool really holds, free lists included.

#ifndef SLUICE_UTIL_EPOCH_POOL_H_
#define SLUICE_UTIL_EPOCH_POOL_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "util/cpu.h"

namespace sluice {

class EpochPool {
 public:
  static constexpr size_t kAlignment = 16;
  static constexpr size_t kMaxPooledSize = 2048;
  static constexpr size_t kClasses = kMaxPooledSize / kAlignment;
  static constexpr int kCaches = 16;
  static constexpr size_t kRetireBatch = 256;
  static constexpr size_t kDepotBatch = 128;

  // block_size: bytes per block (at least kMaxPooledSize).
  explicit EpochPool(size_t block_size);
  // REQUIRES: no thread uses the pool any more. Records still retired and in their grace period
  // keep the blocks alive until their batch's callback runs.
  ~EpochPool();
  EpochPool(const EpochPool&) = delete;
  EpochPool& operator=(const EpochPool&) = delete;

  // size bytes, 16-byte aligned. Thread-safe.
  void* Allocate(size_t size);
  // p (allocated with this size) has been unlinked: reuse it once every epoch section running
  // now has ended. Thread-safe.
  void Retire(void* p, size_t size);
  // p was never published: reusable at once.
  void Free(void* p, size_t size);
  // For an owner tearing down (nothing uses its records any more): frees p if it is a heap
  // record; records in the pool's blocks go with the pool.
  void FreeIfOnHeap(void* p, size_t size);

  size_t MemoryUsage() const;

  struct Depot;  // shared with the batches in flight (epoch_pool.cc)
  struct Retired {
    void* p;
    size_t size_class;
  };

 private:
  struct alignas(kCacheLineSize) Cache {
    std::atomic<bool> locked{false};
    std::vector<void*> free[kClasses];
    std::vector<Retired> retired;  // since the last batch went to epoch::Retire
    char* bump = nullptr;
    size_t bump_left = 0;
  };
  Cache& MyCache();
  // Lock only the shared cache (the owned ones need none).
  void Lock(Cache* c);
  void Unlock(Cache* c);
  void* Carve(Cache* c, size_t rounded);

  const size_t block_size_;
  std::shared_ptr<Depot> depot_;
  std::unique_ptr<Cache[]> caches_;  // kCaches owned ones, then the shared one
};

}  // namespace sluice

#endif  // SLUICE_UTIL_EPOCH_POOL_H_
