// db/memory_budget.cc — see memory_budget.h and sluice/write_buffer_manager.h.

#include "db/memory_budget.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "sluice/write_buffer_manager.h"

namespace sluice {

WriteBufferManager::WriteBufferManager(size_t buffer_size, bool allow_stall)
    : budget_(std::make_unique<MemoryBudget>(buffer_size, allow_stall)) {}

WriteBufferManager::~WriteBufferManager() = default;

size_t WriteBufferManager::buffer_size() const { return budget_->cap(); }
bool WriteBufferManager::allow_stall() const { return budget_->allow_stall(); }
size_t WriteBufferManager::memory_usage() const { return budget_->usage(); }
size_t WriteBufferManager::mutable_memtable_memory_usage() const {
  return budget_->mutable_usage();
}
uint64_t WriteBufferManager::flushes_requested() const { return budget_->flushes_requested(); }
uint64_t WriteBufferManager::stalled_writes() const { return budget_->stalled_writes(); }
uint64_t WriteBufferManager::stall_micros() const { return budget_->stall_micros(); }

namespace {

// A 256th of the cap, between 4 KiB and 64 KiB: fine enough that the charges' lag is a small
// share of any cap, coarse enough that a write charges (takes a lock) once per many entries.
size_t StepFor(size_t cap) {
  constexpr size_t kMinStep = 4 << 10;
  constexpr size_t kMaxStep = 64 << 10;
  return cap == 0 ? kMaxStep : std::clamp(cap / 256, kMinStep, kMaxStep);
}

}  // namespace

MemoryBudget::MemoryBudget(size_t cap, bool allow_stall)
    : cap_(cap), allow_stall_(allow_stall), step_(StepFor(cap)) {}

void MemoryBudget::Register(std::shared_ptr<Client> client) {
  MutexLock l(&mu_);
  clients_.push_back(std::move(client));
}

void MemoryBudget::Unregister(const std::shared_ptr<Client>& client) {
  MutexLock l(&mu_);
  std::erase(clients_, client);
  if (requested_ == client.get()) {
    requested_ = nullptr;
    request_pending_.store(false, std::memory_order_release);
  }
}

void MemoryBudget::MaybeRequestFlush() {
  // relaxed pre-check, then acq_rel: one caller takes the request; the others return at once.
  if (request_pending_.load(std::memory_order_relaxed) ||
      request_pending_.exchange(true, std::memory_order_acq_rel)) {
    return;
  }
  MutexLock l(&mu_);
  if (idle_.load(std::memory_order_relaxed) && mutable_usage() < idle_mutable_ + step_ &&
      releases() == idle_releases_) {
    request_pending_.store(false, std::memory_order_release);
    return;
  }
  idle_.store(false, std::memory_order_relaxed);
  Client* best = nullptr;
  size_t best_bytes = 0;
  for (const auto& c : clients_) {
    const size_t bytes = c->filled_bytes.load(std::memory_order_relaxed);
    if (bytes > best_bytes) {
      best = c.get();
      best_bytes = bytes;
    }
  }
  if (best == nullptr) {  // nothing anywhere that a flush would give back
    idle_mutable_ = mutable_usage();
    idle_releases_ = releases();
    idle_.store(true, std::memory_order_relaxed);
    request_pending_.store(false, std::memory_order_release);
    return;
  }
  requested_ = best;
  flushes_requested_.fetch_add(1, std::memory_order_relaxed);
  best->request_flush();
}

void MemoryBudget::FlushRequestDone(const Client* client, bool switched) {
  MutexLock l(&mu_);
  if (requested_ != client) return;  // unregistered meanwhile, or not the one asked
  requested_ = nullptr;
  if (!switched) {
    idle_mutable_ = mutable_usage();
    idle_releases_ = releases();
    idle_.store(true, std::memory_order_relaxed);
  }
  request_pending_.store(false, std::memory_order_release);
}

void MemoryBudget::WaitForRelease(uint64_t seen, std::chrono::microseconds timeout) {
  MutexLock l(&stall_mu_);
  stall_cv_.WaitFor(timeout, [&] { return releases() != seen; });
}

void MemoryBudget::Add(Client* client, size_t total_delta, size_t mutable_delta,
                       size_t filled_delta) {
  // Unsigned wrap-around adds a negative delta: the sums stay exact.
  usage_.fetch_add(total_delta, std::memory_order_relaxed);
  if (mutable_delta != 0) mutable_usage_.fetch_add(mutable_delta, std::memory_order_relaxed);
  if (filled_delta != 0) client->filled_bytes.fetch_add(filled_delta, std::memory_order_relaxed);
}

void MemoryBudget::AddMutable(size_t headroom, int sign) {
  // Unsigned wrap-around for the decrease, as in Add.
  headroom_.fetch_add(sign > 0 ? headroom : 0 - headroom, std::memory_order_relaxed);
  mutable_charges_.fetch_add(sign > 0 ? 1 : static_cast<size_t>(0) - 1, std::memory_order_relaxed);
}

void MemoryBudget::NoteRelease() {
  {
    // Under stall_mu_ so that a waiter between its check and its wait cannot miss it.
    MutexLock l(&stall_mu_);
    releases_.fetch_add(1, std::memory_order_release);
  }
  stall_cv_.SignalAll();
}

MemoryCharge::MemoryCharge(std::shared_ptr<WriteBufferManager> manager,
                           std::shared_ptr<MemoryBudget::Client> client, size_t empty_usage,
                           size_t headroom)
    : manager_(std::move(manager)),
      budget_(&manager_->budget()),
      client_(std::move(client)),
      step_(budget_->step()),
      charged_(empty_usage),
      baseline_(empty_usage),
      headroom_(headroom) {
  budget_->Add(client_.get(), empty_usage, empty_usage, 0);
  budget_->AddMutable(headroom_, +1);
}

void MemoryCharge::Charge(size_t usage) {
  MutexLock l(&mu_);
  const size_t charged = charged_.load(std::memory_order_relaxed);
  if (released_ || usage <= charged) return;
  const size_t delta = usage - charged;
  charged_.store(usage, std::memory_order_relaxed);
  // (charged >= baseline_: charges only grow.)
  budget_->Add(client_.get(), delta, immutable_ ? 0 : delta, immutable_ ? 0 : delta);
}

void MemoryCharge::MarkImmutable() {
  MutexLock l(&mu_);
  if (released_ || immutable_) return;
  immutable_ = true;
  const size_t charged = charged_.load(std::memory_order_relaxed);
  budget_->Add(client_.get(), 0, 0 - charged, 0 - (charged - baseline_));
  budget_->AddMutable(headroom_, -1);
  budget_->NoteRelease();  // the mutable bytes fell: a flush request may be due elsewhere
}

void MemoryCharge::Release() {
  {
    MutexLock l(&mu_);
    if (released_) return;
    released_ = true;
    const size_t charged = charged_.load(std::memory_order_relaxed);
    // Past any usage: Update's fast path returns from now on.
    charged_.store(std::numeric_limits<size_t>::max() - step_, std::memory_order_relaxed);
    budget_->Add(client_.get(), 0 - charged, immutable_ ? 0 : 0 - charged,
                 immutable_ ? 0 : 0 - (charged - baseline_));
    if (!immutable_) budget_->AddMutable(headroom_, -1);
  }
  budget_->NoteRelease();
}

}  // namespace sluice
