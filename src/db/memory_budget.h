// db/memory_budget.h — the engine's side of a WriteBufferManager (sluice/write_buffer_manager.h):
// the byte counts, the DBs that share the budget (its clients), the choice of the component to
// flush, and the stall wait; plus MemoryCharge, one memory component's part of the count.
//
// Invariants:
//   * usage() is the sum of the charges of the live MemoryCharges not yet released, and
//     mutable_usage() the sum of those not yet marked immutable; headroom() and
//     mutable_charges() are the sum of the headrooms and the number of those same mutable
//     charges; a client's filled_bytes is
//     the sum over its own mutable charges of what each charged beyond its first charge (the
//     component's empty structure). (Read while charges move, each is a moment's value.)
//   * At most one flush request is outstanding: from MaybeRequestFlush picking a client until
//     that client's FlushRequestDone (or its Unregister).
//   * Lock order: a DB calls into the budget without its own mutex held, except Release and
//     the charge updates, which take only the charge's and the stall's leaf locks; the budget
//     calls a client's request_flush under mu_, and that only queues a task (the scheduler's
//     lock is a leaf).

#ifndef SLUICE_DB_MEMORY_BUDGET_H_
#define SLUICE_DB_MEMORY_BUDGET_H_

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sluice/write_buffer_manager.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class MemoryBudget {
 public:
  // A DB that uses the budget.
  struct Client {
    // The bytes its mutable components took beyond what each held when it was created (its
    // empty structure): what switching them out and flushing them gives back. The budget asks
    // the client with the most for a flush. (relaxed: a heuristic's input, ordering nothing.)
    std::atomic<size_t> filled_bytes{0};
    // Queues the DB's task that switches its largest mutable component out (and then calls
    // FlushRequestDone). Never blocks. Cleared by Unregister.
    std::function<void()> request_flush;
  };

  MemoryBudget(size_t cap, bool allow_stall);
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  size_t cap() const { return cap_; }
  bool allow_stall() const { return allow_stall_; }
  // A mutable component's charge runs at most this far behind the bytes it reports.
  size_t step() const { return step_; }
  // relaxed loads: see the counters below.
  size_t usage() const { return usage_.load(std::memory_order_relaxed); }
  size_t mutable_usage() const { return mutable_usage_.load(std::memory_order_relaxed); }
  uint64_t flushes_requested() const { return flushes_requested_.load(std::memory_order_relaxed); }
  uint64_t stalled_writes() const { return stalled_writes_.load(std::memory_order_relaxed); }
  uint64_t stall_micros() const { return stall_micros_.load(std::memory_order_relaxed); }

  // From now on the client may be asked for flushes.
  void Register(std::shared_ptr<Client> client) EXCLUDES(mu_);
  // After it returns the client's request_flush is never called again.
  void Unregister(const std::shared_ptr<Client>& client) EXCLUDES(mu_);

  // The sum of the mutable charges' headrooms (MemoryCharge), and how many they are.
  size_t headroom() const { return headroom_.load(std::memory_order_relaxed); }
  size_t mutable_charges() const { return mutable_charges_.load(std::memory_order_relaxed); }
  // Where flushes are asked for and writes start to wait: the cap less the mutable
  // components' headroom (what each can still add without a write seeing the count: its
  // charge's lag, the blocks one write can allocate, the structure of the component that
  // replaces it at a switch), and at least an eighth of the cap (RocksDB's 7/8 rule); never
  // below half the cap. So, while no more than half the cap is headroom, the bytes stay under
  // the cap with stalls allowed.
  size_t soft_limit() const {
    const size_t reserve = std::max(cap_ / 8, headroom());
    return reserve >= cap_ / 2 ? cap_ - cap_ / 2 : cap_ - reserve;
  }
  // Whether a flush should be asked for: the mutable bytes passed the soft limit, or all bytes
  // reached the cap while the mutable ones hold at least half (RocksDB's rule, with the soft
  // limit for its 7/8). Cheap (relaxed loads): the write path asks on every write.
  bool ShouldFlush() const {
    if (cap_ == 0) return false;
    const size_t mutable_bytes = mutable_usage();
    return mutable_bytes > soft_limit() || (usage() >= cap_ && mutable_bytes >= cap_ / 2);
  }
  // Whether a write must wait: stalls are allowed, the soft limit is reached, and something can
  // bring the bytes down: immutable components (their flushes are under way), or a flush
  // request outstanding or yet to be made. Not when the last request found nothing to switch
  // and nothing changed since (every byte is in empty or fresh components): the write goes
  // ahead.
  bool ShouldStall() const {
    if (!allow_stall_ || cap_ == 0) return false;
    const size_t total = usage();
    if (total < soft_limit()) return false;
    return total > mutable_usage() || request_pending_.load(std::memory_order_relaxed) ||
           !idle_.load(std::memory_order_relaxed);
  }
  // The write_buffer_size for a new component under this budget: its share of the cap with
  // `mutable_charges()` others (a quarter of it at most, 64 KiB at least), or `wanted` if
  // smaller. A component's structure is laid out for its size (FloDB's tables, about a seventh
  // of it), so sizes follow the number of components that share the budget.
  size_t ComponentSize(size_t wanted) const {
    const size_t share = cap_ / std::max<size_t>(4, mutable_charges() + 1);
    return std::min(wanted, std::max<size_t>(share, 64 << 10));
  }
  // Asks the client with the most mutable bytes for a flush, unless a request is outstanding
  // or the last one found nothing to switch and nothing has changed since.
  void MaybeRequestFlush() EXCLUDES(mu_);
  // A client's task is done with the request (switched: it moved a component out).
  void FlushRequestDone(const Client* client, bool switched) EXCLUDES(mu_);

  // Counts releases (a flush installed, a component freed): a stalled write waits for one.
  uint64_t releases() const { return releases_.load(std::memory_order_acquire); }
  // Waits until releases() differs from seen, or timeout.
  void WaitForRelease(uint64_t seen, std::chrono::microseconds timeout) EXCLUDES(stall_mu_);
  void RecordStall(uint64_t micros) {
    stalled_writes_.fetch_add(1, std::memory_order_relaxed);
    stall_micros_.fetch_add(micros, std::memory_order_relaxed);
  }

 private:
  friend class MemoryCharge;
  // A charge's change: total, mutable and filled deltas (two's complement for decreases).
  void Add(Client* client, size_t total_delta, size_t mutable_delta, size_t filled_delta);
  // A mutable charge with this headroom appears (+1) or leaves the mutable count (-1).
  void AddMutable(size_t headroom, int sign);
  void NoteRelease() EXCLUDES(stall_mu_);

  const size_t cap_;
  const bool allow_stall_;
  const size_t step_;
  // relaxed: inputs to the flush and stall heuristics, which tolerate a stale value (a write
  // that misses a just-passed threshold is followed by one that sees it).
  std::atomic<size_t> usage_{0};
  std::atomic<size_t> mutable_usage_{0};
  std::atomic<size_t> headroom_{0};
  std::atomic<size_t> mutable_charges_{0};
  std::atomic<uint64_t> flushes_requested_{0};
  std::atomic<uint64_t> stalled_writes_{0};
  std::atomic<uint64_t> stall_micros_{0};
  // release: pairs with the acquire in releases(), though what a waiter reads after it (the
  // counters above) orders nothing either; the stall loop re-checks under its own timeout.
  std::atomic<uint64_t> releases_{0};
  // Set while a flush request is outstanding (acq_rel exchange in MaybeRequestFlush: one
  // caller wins; the winner then works under mu_).
  std::atomic<bool> request_pending_{false};

  Mutex mu_;
  std::vector<std::shared_ptr<Client>> clients_ GUARDED_BY(mu_);
  const Client* requested_ GUARDED_BY(mu_) = nullptr;
  // After a request that switched nothing: the mutable bytes and releases then (no new
  // request until either has moved). idle_ is written under mu_; relaxed loads by ShouldStall.
  std::atomic<bool> idle_{false};
  size_t idle_mutable_ GUARDED_BY(mu_) = 0;
  uint64_t idle_releases_ GUARDED_BY(mu_) = 0;

  Mutex stall_mu_;
  CondVar stall_cv_{&stall_mu_};
};

// One memory component's bytes in a budget, from its creation until Release (its flush
// installed) or its destruction. Update and the marks may be called from any thread.
class MemoryCharge {
 public:
  // empty_usage: what the new, empty component reports (charged at once, never "filled").
  // headroom: what the component can add before a write sees it in the count (at least the
  // step), while it is mutable: counted in the budget's headroom() until MarkImmutable.
  MemoryCharge(std::shared_ptr<WriteBufferManager> manager,
               std::shared_ptr<MemoryBudget::Client> client, size_t empty_usage,
               size_t headroom = 0);
  ~MemoryCharge() { Release(); }
  MemoryCharge(const MemoryCharge&) = delete;
  MemoryCharge& operator=(const MemoryCharge&) = delete;

  // The component reports `usage` bytes: charged once it is a step past the charge.
  void Update(size_t usage) {
    // relaxed: a stale value only defers the charge to a later write (or charges under mu_).
    if (usage < charged_.load(std::memory_order_relaxed) + step_) return;
    Charge(usage);
  }
  // Switched out: its bytes leave the mutable count (they stay in the total).
  void MarkImmutable();
  // Its flush is installed (or it is gone): its bytes leave the count. Idempotent.
  void Release();

 private:
  void Charge(size_t usage);

  const std::shared_ptr<WriteBufferManager> manager_;  // keeps budget_ alive
  MemoryBudget* const budget_;
  const std::shared_ptr<MemoryBudget::Client> client_;
  const size_t step_;
  Mutex mu_;  // a leaf: orders the charge's own changes
  // relaxed loads outside mu_ (Update's fast path); written under mu_.
  std::atomic<size_t> charged_{0};
  const size_t baseline_;  // empty_usage
  const size_t headroom_;
  bool immutable_ GUARDED_BY(mu_) = false;
  bool released_ GUARDED_BY(mu_) = false;
};

}  // namespace sluice

#endif  // SLUICE_DB_MEMORY_BUDGET_H_
