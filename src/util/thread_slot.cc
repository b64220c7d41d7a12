// util/thread_slot.cc — see thread_slot.h.

#include "util/thread_slot.h"

#include <set>

#include "util/mutex.h"

namespace sluice::thread_slot_internal {

namespace {

// The slots given back, and the next never-used one. Never destroyed: threads may exit (and
// give their slot back) during or after static destruction.
struct Registry {
  Mutex mu;
  std::set<uint32_t> returned GUARDED_BY(mu);  // lowest first: small slots stay in use
  uint32_t next GUARDED_BY(mu) = 0;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

// Gives the slot back when its thread exits.
struct Holder {
  ~Holder() {
    const uint32_t s = current;
    current = kNoThreadSlot;  // from now on this thread uses the shared fallback
    if (s >= kMaxThreadSlots) return;
    Registry& r = TheRegistry();
    MutexLock l(&r.mu);  // release: our uses of the slot precede the next owner's
    r.returned.insert(s);
  }
};

}  // namespace

uint32_t Acquire() {
  thread_local Holder holder;  // constructed here, on first use: destroyed at thread exit
  (void)holder;
  Registry& r = TheRegistry();
  uint32_t s;
  {
    MutexLock l(&r.mu);  // acquire: the previous owner's uses come first
    if (!r.returned.empty()) {
      s = *r.returned.begin();
      r.returned.erase(r.returned.begin());
    } else if (r.next < kMaxThreadSlots) {
      s = r.next++;
    } else {
      s = kNoThreadSlot;
    }
  }
  current = s;
  return s;
}

}  // namespace sluice::thread_slot_internal
