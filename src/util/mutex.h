// util/mutex.h — Mutex, MutexLock and CondVar: std::mutex and std::condition_variable with
// Clang thread-safety annotations.
//
// The annotations state lock contracts the compiler checks: a member declared
// GUARDED_BY(mu_) may be read or written only while mu_ is held, a function declared
// REQUIRES(mu_) may be called only with mu_ held, one declared EXCLUDES(mu_) only without it,
// and every path through a function must leave the locks it took as the annotations say
// (no lock leaked, none released twice). libstdc++'s std::mutex carries no annotations, hence
// these wrappers. The check is a Clang build of the library with -Wthread-safety -Werror:
// run `make thread-safety` (the CMake preset of the same name; `make test` runs it first).
// GCC ignores the annotations, and the wrappers compile to the same std::mutex and
// std::condition_variable operations as using them directly, except that a contended Lock
// spins briefly before it sleeps (see Mutex::Lock).
//
// Invariants: a CondVar is bound to one Mutex, which its caller holds around every Wait; a
// MutexLock releases its mutex on destruction only if it holds it then.

#ifndef SLUICE_UTIL_MUTEX_H_
#define SLUICE_UTIL_MUTEX_H_

#include <cassert>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "util/cpu.h"
#include "util/thread_annotations.h"

namespace sluice {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  // Contended, it retries with doubling pauses (about 1.5 us in all), then yields the core
  // twice (a holder preempted on this core runs then), before it sleeps in the kernel. The
  // sections sluice guards with a Mutex on its hot paths are short (a block cache shard's
  // lookup, a log reservation, a pool's free list), so a holder running on another core
  // almost always releases within that. Sleeping instead costs the waiter a context switch
  // each way and the holder a futex wake-up at unlock, which holds the mutex longer, so more
  // waiters sleep: a lock convoy, which shows as a write tail that doubles from one run to
  // the next. glibc's std::mutex
  // never spins (PTHREAD_MUTEX_ADAPTIVE_NP would; std::mutex cannot ask for it). The spin
  // only delays the sleep: exclusion and wake-ups are std::mutex's.
  void Lock() ACQUIRE() {
    if (mu_.try_lock()) return;
    for (int pauses = 1; pauses <= kMaxPauses; pauses *= 2) {
      for (int i = 0; i < pauses; i++) CpuRelax();
      if (mu_.try_lock()) return;
    }
    for (int i = 0; i < kYields; i++) {
      std::this_thread::yield();
      if (mu_.try_lock()) return;
    }
    mu_.lock();
  }
  void Unlock() RELEASE() { mu_.unlock(); }
  bool TryLock() TRY_ACQUIRE(true) { return mu_.try_lock(); }
  // Tells the analysis the caller holds this mutex (for code it cannot follow). Checks
  // nothing at run time: std::mutex does not know its owner.
  void AssertHeld() const ASSERT_CAPABILITY(this) {}

 private:
  friend class CondVar;
  // 1 + 2 + ... + 32 pauses between tries: 63 pauses, about 1.5 us (a pause takes a few tens of
  // nanoseconds; Intel's since Skylake take longer). A longer spin breaks convoys as well but
  // wastes a core that another thread could use where threads outnumber cores.
  static constexpr int kMaxPauses = 32;
  static constexpr int kYields = 2;
  std::mutex mu_;
};

// Holds a Mutex for its scope. Unlock() and Lock() release and retake it inside the scope
// (for I/O done without the lock); the destructor releases it only if it is held then.
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->Lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_->Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() RELEASE() {
    assert(held_);
    held_ = false;
    mu_->Unlock();
  }
  void Lock() ACQUIRE() {
    assert(!held_);
    mu_->Lock();
    held_ = true;
  }

 private:
  Mutex* const mu_;
  bool held_ = true;
};

// A condition variable bound to one Mutex, which the caller must hold around Wait, WaitFor
// and WaitUntil (the analysis cannot check that: it does not know which mutex a CondVar's
// member names). Waiting releases the mutex and retakes it before returning; wake-ups may be
// spurious, so wait in a loop over the condition.
class CondVar {
 public:
  explicit CondVar(Mutex* mu) : mu_(mu) {}
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  void Wait() {
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // still held: the caller's
  }
  // Waits until signalled (or a spurious wake-up) or until the timeout passes.
  template <typename Rep, typename Period>
  void WaitFor(const std::chrono::duration<Rep, Period>& timeout) {
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    cv_.wait_for(lock, timeout);
    lock.release();
  }
  // Waits until pred() holds or the timeout passes; returns pred().
  template <typename Rep, typename Period, typename Predicate>
  bool WaitFor(const std::chrono::duration<Rep, Period>& timeout, Predicate pred) {
    std::unique_lock<std::mutex> lock(mu_->mu_, std::adopt_lock);
    const bool result = cv_.wait_for(lock, timeout, std::move(pred));
    lock.release();
    return result;
  }
  void Signal() { cv_.notify_one(); }
  void SignalAll() { cv_.notify_all(); }

 private:
  Mutex* const mu_;
  std::condition_variable cv_;
};

}  // namespace sluice

#endif  // SLUICE_UTIL_MUTEX_H_
