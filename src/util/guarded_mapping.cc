// util/guarded_mapping.cc — the slot table and the SIGBUS handler behind GuardedMapping.
//
// Each slot is a small seqlock: state = generation << 2 | phase, and every change of phase
// bumps the generation. Only a mapping's owner changes its slot (Map claims it, the destructor
// frees it); the handler, which may run on any thread while others map and unmap, accepts a
// slot's range only if it read the same live state before and after reading the range.

#include "util/guarded_mapping.h"

#include <fmt/format.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace sluice {

struct GuardedMapping::Slot {
  std::atomic<uint64_t> state{0};
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<uint64_t> faults{0};
};

namespace {

constexpr uint64_t kFree = 0;
constexpr uint64_t kClaimed = 1;
constexpr uint64_t kLive = 2;
constexpr uint64_t kPhaseMask = 3;
constexpr uint64_t kGenerationStep = 4;

static_assert(std::atomic<uint64_t>::is_always_lock_free &&
                  std::atomic<uintptr_t>::is_always_lock_free,
              "the SIGBUS handler reads the slots with lock-free atomics only");

using Slot = GuardedMapping::Slot;

// Zero-initialized static storage: every slot free, generation 0. Touched only by Map (from a
// rotating hint) and by the handler.
Slot g_slots[kMaxGuardedMappings];
std::atomic<size_t> g_next_slot{0};

// Written once, before the handler is installed (call_once orders it before any fault the
// handler sees); read-only afterwards.
struct sigaction g_previous_action;
size_t g_page_size = 0;
std::once_flag g_install_once;
bool g_installed = false;

// Finds the live slot whose range holds addr, counts the fault there and maps a page of zeros
// over the lost page. False if no slot holds addr (or the zero page could not be mapped).
bool AbsorbFault(uintptr_t addr) {
  for (Slot& slot : g_slots) {
    const uint64_t before = slot.state.load(std::memory_order_acquire);
    if ((before & kPhaseMask) != kLive) continue;
    const uintptr_t begin = slot.begin.load(std::memory_order_relaxed);
    const uintptr_t end = slot.end.load(std::memory_order_relaxed);
    // Seqlock read: the range loads stay before the second state load.
    std::atomic_thread_fence(std::memory_order_acquire);
    if (slot.state.load(std::memory_order_relaxed) != before) continue;
    if (addr < begin || addr >= end) continue;
    // Counted before the zero page exists: a reader on another thread that copies the zero
    // page (without faulting) then loads the count after its copy, with a full fence between,
    // and the zero page is only mapped after this increment, so it finds the count moved.
    slot.faults.fetch_add(1, std::memory_order_seq_cst);
    void* page = reinterpret_cast<void*>(addr & ~(uintptr_t{g_page_size} - 1));
    return ::mmap(page, g_page_size, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
           MAP_FAILED;
  }
  return false;
}

void OnBusError(int signo, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const bool absorbed = info != nullptr && info->si_code > 0 &&
                        AbsorbFault(reinterpret_cast<uintptr_t>(info->si_addr));
  errno = saved_errno;
  if (absorbed) return;  // the access runs again and reads the zero page
  // Not a mapping of ours: whatever was there before us.
  if ((g_previous_action.sa_flags & SA_SIGINFO) != 0) {
    if (g_previous_action.sa_sigaction != nullptr) {
      g_previous_action.sa_sigaction(signo, info, context);
      return;
    }
  } else if (g_previous_action.sa_handler != SIG_DFL && g_previous_action.sa_handler != SIG_IGN) {
    g_previous_action.sa_handler(signo);
    return;
  }
  // The default action: restored, then the faulting access runs again and ends the process as
  // it would have without us. A SIGBUS sent by kill() is not repeated by returning: raise it.
  struct sigaction default_action;
  std::memset(&default_action, 0, sizeof(default_action));
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(SIGBUS, &default_action, nullptr);
  if (info == nullptr || info->si_code <= 0) ::raise(SIGBUS);
}

void InstallHandler() {
  const long page = ::sysconf(_SC_PAGESIZE);
  g_page_size = page > 0 ? static_cast<size_t>(page) : 4096;
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_sigaction = &OnBusError;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  g_installed = ::sigaction(SIGBUS, &action, &g_previous_action) == 0;
}

// Claims a free slot for [begin, end) and makes it live; nullptr if every slot is taken.
Slot* ClaimSlot(uintptr_t begin, uintptr_t end) {
  const size_t start = g_next_slot.fetch_add(1, std::memory_order_relaxed);
  for (size_t i = 0; i < kMaxGuardedMappings; i++) {
    Slot& slot = g_slots[(start + i) % kMaxGuardedMappings];
    uint64_t state = slot.state.load(std::memory_order_relaxed);
    if ((state & kPhaseMask) != kFree) continue;
    const uint64_t claimed = (state & ~kPhaseMask) + kGenerationStep + kClaimed;
    if (!slot.state.compare_exchange_strong(state, claimed, std::memory_order_relaxed)) continue;
    // Seqlock write: a handler that read the range after these stores reads the claimed or the
    // live state afterwards, never the state it read before them.
    std::atomic_thread_fence(std::memory_order_release);
    slot.begin.store(begin, std::memory_order_relaxed);
    slot.end.store(end, std::memory_order_relaxed);
    slot.faults.store(0, std::memory_order_relaxed);
    slot.state.store((claimed & ~kPhaseMask) + kGenerationStep + kLive, std::memory_order_release);
    return &slot;
  }
  return nullptr;
}

}  // namespace

Status GuardedMapping::Map(int fd, size_t length, const std::string& fname,
                           std::unique_ptr<GuardedMapping>* result) {
  result->reset();
  std::call_once(g_install_once, InstallHandler);
  if (!g_installed || length == 0) return Status::OK();  // not guardable: read another way
  void* base = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return Status::IOError(fname, std::strerror(errno));
  const auto begin = reinterpret_cast<uintptr_t>(base);
  Slot* slot = ClaimSlot(begin, begin + length);
  if (slot == nullptr) {
    ::munmap(base, length);
    return Status::OK();
  }
  result->reset(new GuardedMapping(static_cast<const char*>(base), length, slot));
  return Status::OK();
}

GuardedMapping::~GuardedMapping() {
  // Out of the table before the range is unmapped (and may be mapped again by anyone).
  const uint64_t state = slot_->state.load(std::memory_order_relaxed);
  slot_->state.store((state & ~kPhaseMask) + kGenerationStep + kFree, std::memory_order_release);
  ::munmap(const_cast<char*>(base_), length_);
}

uint64_t GuardedMapping::faults() const { return slot_->faults.load(std::memory_order_acquire); }

namespace {
Status LostPage(size_t offset, size_t n, const std::string& fname) {
  return Status::Corruption(
      fmt::format("lost under its memory mapping (truncated or unreadable) reading {} bytes at "
                  "offset {}",
                  n, offset),
      fname);
}
}  // namespace

Status GuardedMapping::UseInPlace(size_t offset, size_t n, ReadConsumer* consumer,
                                  const std::string& fname) const {
  if (slot_->faults.load(std::memory_order_acquire) != 0) return LostPage(offset, n, fname);
  Status s = consumer->Use(Slice(base_ + offset, n));
  // As in CopyOut: the count is loaded after every read Use made of the view.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (slot_->faults.load(std::memory_order_relaxed) != 0) return LostPage(offset, n, fname);
  return s;
}

Status GuardedMapping::CopyOut(size_t offset, size_t n, char* dst, const std::string& fname) const {
  if (slot_->faults.load(std::memory_order_acquire) == 0) {
    std::memcpy(dst, base_ + offset, n);
    // A fault during the copy ran the handler on this thread, which counted it before
    // returning into the copy; a page zeroed by another thread's fault was counted before it
    // was mapped. The fence keeps the load below after the copy's loads.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (slot_->faults.load(std::memory_order_relaxed) == 0) return Status::OK();
  }
  return LostPage(offset, n, fname);
}

}  // namespace sluice
