// util/epoch_pool.cc — see epoch_pool.h for the design and its invariants.

#include "util/epoch_pool.h"

#include <algorithm>
#include <new>
#include <utility>

#include "util/asan.h"
#include "util/epoch.h"
#include "util/huge_pages.h"
#include "util/mutex.h"
#include "util/spin_wait.h"
#include "util/thread_annotations.h"
#include "util/thread_slot.h"

namespace sluice {

struct EpochPool::Depot {
  Mutex mu;
  std::vector<void*> free[kClasses] GUARDED_BY(mu);
  std::vector<HugePageBuffer> blocks GUARDED_BY(mu);
  // Records in `free`, all classes: read without mu to skip an empty depot.
  std::atomic<size_t> free_records{0};
  std::atomic<size_t> bytes{0};  // blocks and heap records
};

namespace {

size_t ClassOf(size_t size) {
  return (std::max<size_t>(size, 1) + EpochPool::kAlignment - 1) / EpochPool::kAlignment - 1;
}
size_t ClassBytes(size_t size_class) { return (size_class + 1) * EpochPool::kAlignment; }

// Records retired together, handed back to the depot after their grace period.
struct RetiredBatch {
  std::shared_ptr<EpochPool::Depot> depot;
  std::vector<EpochPool::Retired> records;
};

void ReturnBatch(void* p) {
  std::unique_ptr<RetiredBatch> batch(static_cast<RetiredBatch*>(p));
  EpochPool::Depot& depot = *batch->depot;
  MutexLock l(&depot.mu);
  for (const EpochPool::Retired& r : batch->records) {
    SLUICE_ASAN_POISON(r.p, ClassBytes(r.size_class));
    depot.free[r.size_class].push_back(r.p);
  }
  depot.free_records.fetch_add(batch->records.size(), std::memory_order_relaxed);
}

void DeleteHeapRecord(void* p) { ::operator delete(p, std::align_val_t(EpochPool::kAlignment)); }

}  // namespace

EpochPool::EpochPool(size_t block_size)
    : block_size_(std::max(block_size, kMaxPooledSize)),
      depot_(std::make_shared<Depot>()),
      caches_(new Cache[kCaches + 1]) {}

EpochPool::~EpochPool() {
  // Records in the caches' retired lists are simply dropped: nothing uses the pool any more.
  // Their blocks (and the depot) go when the last batch in flight has returned its records.
}

EpochPool::Cache& EpochPool::MyCache() { return caches_[OwnedOrSharedIndex(kCaches)]; }

void EpochPool::Lock(Cache* c) {
  if (c != &caches_[kCaches]) return;  // the calling thread's own cache: nobody else uses it
  // acquire: the critical section sees the previous holder's changes to the cache.
  // SpinWait yields after a few rounds: the holder may have been preempted on a busy core.
  while (c->locked.exchange(true, std::memory_order_acquire)) {
    SpinWait([c] { return !c->locked.load(std::memory_order_relaxed); });
  }
}

void EpochPool::Unlock(Cache* c) {
  if (c == &caches_[kCaches]) c->locked.store(false, std::memory_order_release);
}

void* EpochPool::Carve(Cache* c, size_t rounded) {
  if (c->bump_left < rounded) {
    HugePageBuffer block = AllocateHugePageBuffer(block_size_);  // not zeroed
    c->bump = block.get();
    c->bump_left = block_size_;
    Depot& depot = *depot_;
    MutexLock l(&depot.mu);
    depot.blocks.push_back(std::move(block));
    depot.bytes.fetch_add(block_size_, std::memory_order_relaxed);
  }
  // Blocks are aligned for any fundamental type (16 bytes; huge_pages.h), and every record is
  // a multiple of 16 bytes.
  void* p = c->bump;
  c->bump += rounded;
  c->bump_left -= rounded;
  return p;
}

void* EpochPool::Allocate(size_t size) {
  if (size > kMaxPooledSize) {
    depot_->bytes.fetch_add(size, std::memory_order_relaxed);
    return ::operator new(size, std::align_val_t(kAlignment));
  }
  const size_t cls = ClassOf(size);
  Cache& c = MyCache();
  Lock(&c);
  std::vector<void*>& free = c.free[cls];
  Depot& depot = *depot_;
  if (free.empty() && depot.free_records.load(std::memory_order_relaxed) > 0) {
    MutexLock l(&depot.mu);
    std::vector<void*>& shared = depot.free[cls];
    const size_t n = std::min(shared.size(), kDepotBatch);
    free.insert(free.end(), shared.end() - static_cast<std::ptrdiff_t>(n), shared.end());
    shared.resize(shared.size() - n);
    depot.free_records.fetch_sub(n, std::memory_order_relaxed);
  }
  void* p;
  if (!free.empty()) {
    p = free.back();
    free.pop_back();
    // The next record of this class is most likely the caller's next allocation, and a free
    // record is cold (it waited out a grace period, often on another core): start fetching
    // it, for writing, so that filling it then does not stall on the misses.
    if (!free.empty()) {
      const char* next = static_cast<const char*>(free.back());
      const size_t lines = std::min<size_t>(ClassBytes(cls) / kCacheLineSize + 1, 8);
      for (size_t i = 0; i < lines; i++) __builtin_prefetch(next + i * kCacheLineSize, 1);
    }
  } else {
    p = Carve(&c, ClassBytes(cls));
  }
  Unlock(&c);
  SLUICE_ASAN_UNPOISON(p, ClassBytes(cls));
  return p;
}

void EpochPool::Retire(void* p, size_t size) {
  if (size > kMaxPooledSize) {
    depot_->bytes.fetch_sub(size, std::memory_order_relaxed);
    epoch::Retire(p, &DeleteHeapRecord);
    return;
  }
  std::unique_ptr<RetiredBatch> batch;
  Cache& c = MyCache();
  Lock(&c);
  c.retired.push_back(Retired{p, ClassOf(size)});
  if (c.retired.size() >= kRetireBatch) {
    batch = std::make_unique<RetiredBatch>();
    batch->records.swap(c.retired);
  }
  Unlock(&c);
  if (batch != nullptr) {
    batch->depot = depot_;
    // The grace period starts now, after the unlink of every record of the batch.
    const uint64_t records = batch->records.size();
    epoch::Retire(batch.release(), &ReturnBatch, records);
  }
}

void EpochPool::FreeIfOnHeap(void* p, size_t size) {
  if (size > kMaxPooledSize) Free(p, size);
}

void EpochPool::Free(void* p, size_t size) {
  if (size > kMaxPooledSize) {
    depot_->bytes.fetch_sub(size, std::memory_order_relaxed);
    DeleteHeapRecord(p);
    return;
  }
  const size_t cls = ClassOf(size);
  SLUICE_ASAN_POISON(p, ClassBytes(cls));
  Cache& c = MyCache();
  Lock(&c);
  c.free[cls].push_back(p);
  Unlock(&c);
}

size_t EpochPool::MemoryUsage() const { return depot_->bytes.load(std::memory_order_relaxed); }

}  // namespace sluice
