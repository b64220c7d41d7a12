// util/epoch.h — epoch-based memory reclamation (EBR), the only way sluice frees memory that a
// concurrent reader may still be looking at (memory components, version bundles, replaced
// values, skiplist garbage).
//
// Readers bracket their access with an EpochGuard. A writer that unlinks an object hands it to
// Retire(); the object is destroyed only after every critical section that could have seen it
// has ended. One process-wide manager serves every DB.
//
// Protocol (global epoch G, each thread announces the G it saw on entry, or idle):
//   * Enter: local = G (seq_cst store), then a seq_cst fence, then the reads. Exit: local = idle
//     (release store, so everything read inside happens-before a reclaimer that sees idle).
//   * G may advance from g to g+1 only when every thread in a critical section has local == g.
//     So while a thread stays inside with local == e, G <= e + 1.
//   * An object retired when G == r was unlinked before; a reader that entered later cannot
//     reach it (Dekker: unlink-store / fence / scan vs. announce-store / fence / load). It is
//     freed once G >= r + 2, which implies every section that announced <= r has exited.
// Retired callbacks run on a background reclaimer thread (never inside the caller's locks) or
// inside DrainAll(); they must not call DrainAll() or Synchronize() themselves.

#ifndef SLUICE_UTIL_EPOCH_H_
#define SLUICE_UTIL_EPOCH_H_

#include <cstdint>

namespace sluice::epoch {

// Enters / leaves a critical section of the calling thread. Nests.
void Enter();
void Exit();

// Calls deleter(p) once no critical section that might have seen p is still running. weight:
// how many objects p stands for (a batch of records counts as its records), for the count of
// pending objects that wakes the reclaimer early (and for PendingCount).
void Retire(void* p, void (*deleter)(void*), uint64_t weight = 1);

template <typename T>
void RetireDelete(T* p) {
  Retire(p, [](void* q) { delete static_cast<T*>(q); });
}

// Waits until every critical section running at the time of the call has ended.
// REQUIRES: the caller is not inside a critical section.
void Synchronize();

// Synchronize(), then runs every callback retired before the call and waits for callbacks that
// the background thread is running. REQUIRES: the caller is not inside a critical section.
void DrainAll();

// Number of retired objects not yet freed (for statistics and tests).
uint64_t PendingCount();

// True if the calling thread is inside a critical section (for assertions of contracts that
// say "REQUIRES: inside an epoch section").
bool InSection();

// A critical section as a value: entered on construction, left on destruction or Leave().
// Movable, so a function can enter a section and hand it to its caller (the section then ends
// where the caller's guard does); a moved-from guard holds nothing.
struct NoSection {};
inline constexpr NoSection kNoSection{};

class Guard {
 public:
  Guard() { Enter(); }
  // A guard holding no section (to be moved into later).
  explicit Guard(NoSection) : inside_(false) {}
  ~Guard() { Leave(); }
  Guard(Guard&& other) noexcept : inside_(other.inside_) { other.inside_ = false; }
  Guard& operator=(Guard&& other) noexcept {
    if (this != &other) {
      Leave();
      inside_ = other.inside_;
      other.inside_ = false;
    }
    return *this;
  }
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;

  // Leaves the section now (no-op if this guard holds none).
  void Leave() {
    if (inside_) {
      inside_ = false;
      Exit();
    }
  }
  // True while this guard holds a section.
  bool inside() const { return inside_; }

 private:
  bool inside_ = true;
};

}  // namespace sluice::epoch

#endif  // SLUICE_UTIL_EPOCH_H_
