// util/epoch.cc — see epoch.h for the protocol and its invariants.

#include "util/epoch.h"

#include <atomic>
#include <cassert>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "util/cpu.h"
#include "util/mutex.h"
#include "util/sync_point.h"
#include "util/thread_annotations.h"
#include "util/thread_name.h"

namespace sluice::epoch {

namespace {

constexpr uint64_t kIdle = 0;
// Wake the reclaimer early when this many objects wait.
constexpr uint64_t kWakeThreshold = 1024;

struct Retired {
  void* p;
  void (*deleter)(void*);
  uint64_t epoch;   // global epoch when retired
  uint64_t weight;  // objects it stands for (see Retire)
};

struct alignas(64) ThreadRecord {
  std::atomic<uint64_t> local{kIdle};  // announced epoch, or kIdle
  std::atomic<bool> in_use{false};     // claimed by a live thread
  uint32_t nesting = 0;                // only touched by the owning thread
  Mutex limbo_mu;
  std::vector<Retired> limbo GUARDED_BY(limbo_mu);
  ThreadRecord* next = nullptr;  // immutable once published
};

class Manager {
 public:
  Manager()
      : reclaimer_([this] {
          SetCurrentThreadName("sluice-epoch");
          ReclaimerLoop();
        }) {
    reclaimer_.detach();
  }

  ThreadRecord* Claim() {
    // Reuse a record whose thread has exited (its limbo list comes along and is reclaimed
    // normally), else publish a new one. acquire on head pairs with the release CAS below.
    for (ThreadRecord* r = head_.load(std::memory_order_acquire); r != nullptr; r = r->next) {
      bool expected = false;
      if (!r->in_use.load(std::memory_order_relaxed) &&
          r->in_use.compare_exchange_strong(expected, true, std::memory_order_acquire)) {
        return r;
      }
    }
    auto* r = new ThreadRecord;  // never freed: records live as long as the process
    r->in_use.store(true, std::memory_order_relaxed);
    ThreadRecord* h = head_.load(std::memory_order_relaxed);
    do {
      r->next = h;
    } while (
        !head_.compare_exchange_weak(h, r, std::memory_order_release, std::memory_order_relaxed));
    return r;
  }

  void Release(ThreadRecord* r) {
    assert(r->nesting == 0);
    r->in_use.store(false, std::memory_order_release);
  }

  void Enter(ThreadRecord* r) {
    if (r->nesting++ > 0) return;
    uint64_t g = global_.load(std::memory_order_relaxed);
    for (;;) {
      // The announcement must be visible before any shared pointer is read (store-load order):
      // the seq_cst fence after the store gives that, pairing with TryAdvance's fence before
      // it reads the announcements (a seq_cst store as well would be a second full barrier).
      r->local.store(g, std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_seq_cst);
      // If G moved meanwhile, announce the newer value so we do not hold back advancement.
      const uint64_t g2 = global_.load(std::memory_order_relaxed);
      if (g2 == g) break;
      g = g2;
    }
  }

  void Exit(ThreadRecord* r) {
    assert(r->nesting > 0);
    if (--r->nesting > 0) return;
    // release: reads inside the section happen-before a reclaimer that observes kIdle.
    r->local.store(kIdle, std::memory_order_release);
  }

  void Retire(ThreadRecord* r, void* p, void (*deleter)(void*), uint64_t weight) {
    // The caller unlinked p before this call; the fence orders that unlink before our reading of
    // G, so the tag is not older than the state readers can still observe.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const uint64_t g = global_.load(std::memory_order_relaxed);
    {
      MutexLock l(&r->limbo_mu);
      r->limbo.push_back(Retired{p, deleter, g, weight});
    }
    const uint64_t before = pending_.fetch_add(weight, std::memory_order_relaxed);
    if (before < kWakeThreshold && before + weight >= kWakeThreshold) {
      MutexLock l(&wake_mu_);
      wake_ = true;
      wake_cv_.Signal();
    }
  }

  // Advances G by one if every thread inside a critical section has announced the current G.
  bool TryAdvance() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const uint64_t g = global_.load(std::memory_order_seq_cst);
    for (ThreadRecord* r = head_.load(std::memory_order_acquire); r != nullptr; r = r->next) {
      const uint64_t local = r->local.load(std::memory_order_seq_cst);
      if (local != kIdle && local != g) return false;
    }
    uint64_t expected = g;
    global_.compare_exchange_strong(expected, g + 1, std::memory_order_seq_cst);
    return true;  // advanced, by us or by someone else
  }

  void Synchronize() {
    const uint64_t target = global_.load(std::memory_order_seq_cst) + 2;
    int spins = 0;
    while (global_.load(std::memory_order_seq_cst) < target) {
      if (!TryAdvance()) {
        if (++spins < 64) {
          CpuRelax();
        } else {
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
      }
    }
  }

  // Runs the callbacks whose epoch is at least two behind G. Serialized by reclaim_mu_, so that
  // DrainAll returns only after callbacks collected by the reclaimer thread have finished.
  void Collect() {
    MutexLock rl(&reclaim_mu_);
    const uint64_t g = global_.load(std::memory_order_seq_cst);
    std::vector<Retired> ready;
    for (ThreadRecord* r = head_.load(std::memory_order_acquire); r != nullptr; r = r->next) {
      MutexLock l(&r->limbo_mu);
      auto keep = r->limbo.begin();
      for (auto it = r->limbo.begin(); it != r->limbo.end(); ++it) {
        if (it->epoch + 2 <= g) {
          ready.push_back(*it);
        } else {
          *keep++ = *it;
        }
      }
      r->limbo.erase(keep, r->limbo.end());
    }
    uint64_t weight = 0;
    for (const Retired& item : ready) {
      item.deleter(item.p);
      weight += item.weight;
    }
    pending_.fetch_sub(weight, std::memory_order_relaxed);
  }

  void DrainAll() {
    Synchronize();
    Collect();
  }

  uint64_t Pending() const { return pending_.load(std::memory_order_relaxed); }

 private:
  void ReclaimerLoop() {
    // Behind: more than kWakeThreshold objects still wait after a round (they were retired
    // too recently, or a reader holds the epoch back): look again after 1 ms rather than 20,
    // so pooled records (util/epoch_pool.h) come back for reuse within a few milliseconds.
    bool behind = false;
    for (;;) {
      {
        MutexLock l(&wake_mu_);
        wake_cv_.WaitFor(std::chrono::milliseconds(behind ? 1 : 20),
                         [this]() REQUIRES(wake_mu_) { return wake_; });
        wake_ = false;
      }
      if (pending_.load(std::memory_order_relaxed) == 0) {
        behind = false;
        continue;
      }
      TryAdvance();
      Collect();
      behind = pending_.load(std::memory_order_relaxed) >= kWakeThreshold;
    }
  }

  std::atomic<uint64_t> global_{1};
  std::atomic<ThreadRecord*> head_{nullptr};
  std::atomic<uint64_t> pending_{0};
  Mutex reclaim_mu_;
  Mutex wake_mu_;
  CondVar wake_cv_{&wake_mu_};
  bool wake_ GUARDED_BY(wake_mu_) = false;
  std::thread reclaimer_;
};

// Never destroyed: the reclaimer thread and thread records outlive every static object.
Manager& TheManager() {
  static Manager* m = new Manager;
  return *m;
}

struct ThreadHandle {
  ThreadRecord* record = TheManager().Claim();
  ~ThreadHandle() { TheManager().Release(record); }
};

ThreadRecord* MyRecord() {
  thread_local ThreadHandle handle;
  return handle.record;
}

}  // namespace

void Enter() { TheManager().Enter(MyRecord()); }
void Exit() { TheManager().Exit(MyRecord()); }
void Retire(void* p, void (*deleter)(void*), uint64_t weight) {
  TheManager().Retire(MyRecord(), p, deleter, weight);
}

void Synchronize() {
  assert(MyRecord()->nesting == 0);
  TEST_SYNC_POINT("epoch::Synchronize:Begin");
  TheManager().Synchronize();
}

void DrainAll() {
  assert(MyRecord()->nesting == 0);
  TheManager().DrainAll();
}

uint64_t PendingCount() { return TheManager().Pending(); }

bool InSection() { return MyRecord()->nesting > 0; }

}  // namespace sluice::epoch
