// util/block_buffer.cc — see block_buffer.h.

#include "util/block_buffer.h"

#include <cstring>
#include <new>

#include "util/asan.h"

namespace sluice {

namespace {

constexpr size_t kGranule = 256;
constexpr size_t kMinPooled = 1024;  // smaller ones glibc's own thread cache serves
constexpr size_t kMaxPooled = 64 << 10;
constexpr size_t kClasses = kMaxPooled / kGranule + 1;  // class c: capacity c * kGranule

bool Pooled(size_t capacity) {
  return capacity >= kMinPooled && capacity <= kMaxPooled && capacity % kGranule == 0;
}

// The calling thread's free buffers, one list per class, linked through their first bytes.
// Trivially destructible (zero-initialised, never destroyed), so it stays readable while the
// thread's other thread_locals are destroyed; the Reaper empties it at thread exit.
struct ThreadCache {
  char* heads[kClasses];
  size_t bytes;
};
thread_local ThreadCache tls_cache{};
thread_local bool tls_exited = false;  // the Reaper ran: frees go to the heap from now on
thread_local bool tls_armed = false;   // the Reaper is registered
thread_local bool tls_takes = false;   // the thread has taken a pooled buffer: it may cache

char* Pop(size_t c) {
  char* p = tls_cache.heads[c];
  if (p == nullptr) return nullptr;
  SLUICE_ASAN_UNPOISON(p, c * kGranule);
  char* next;
  std::memcpy(&next, p, sizeof(next));
  tls_cache.heads[c] = next;
  tls_cache.bytes -= c * kGranule;
  return p;
}

// Empties the thread's cache when the thread exits. Registered (constructed) by the thread's
// first cached free, so threads that never cache a buffer never register one.
struct Reaper {
  void Arm() { tls_armed = true; }
  ~Reaper() {
    tls_exited = true;
    for (size_t c = 0; c < kClasses; c++) {
      while (char* p = Pop(c)) ::operator delete(p);
    }
  }
};
thread_local Reaper tls_reaper;

}  // namespace

BlockBuffer NewBlockBuffer(size_t size) {
  if (size >= kMinPooled && size <= kMaxPooled) {
    const size_t c = (size + kGranule - 1) / kGranule;
    tls_takes = true;
    char* p = tls_exited ? nullptr : Pop(c);
    if (p == nullptr) p = static_cast<char*>(::operator new(c* kGranule));
    return BlockBuffer(p, BlockBufferDeleter{c * kGranule});
  }
  return BlockBuffer(static_cast<char*>(::operator new(size)), BlockBufferDeleter{size});
}

void BlockBufferDeleter::operator()(char* p) const {
  if (Pooled(capacity) && tls_takes && !tls_exited &&
      tls_cache.bytes + capacity <= kBlockBufferThreadCacheBytes) {
    // The first cached free registers the thread's Reaper (a trivially destructible flag
    // keeps later frees off the thread_local's initialisation check).
    if (!tls_armed) tls_reaper.Arm();
    const size_t c = capacity / kGranule;
    std::memcpy(p, &tls_cache.heads[c], sizeof(char*));
    tls_cache.heads[c] = p;
    tls_cache.bytes += capacity;
    SLUICE_ASAN_POISON(p, capacity);
    return;
  }
  ::operator delete(p);
}

size_t ThreadCachedBlockBufferBytes() { return tls_cache.bytes; }

}  // namespace sluice
