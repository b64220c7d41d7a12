// db/snapshot_list.cc — see snapshot_list.h.

#include "db/snapshot_list.h"

#include <algorithm>
#include <cassert>

#include "util/sync_point.h"

namespace sluice {

class SnapshotList::Impl final : public Snapshot {
 public:
  explicit Impl(SequenceNumber seq) : seq_(seq) {}
  ~Impl() override = default;
  uint64_t sequence() const override { return seq_; }

 private:
  const SequenceNumber seq_;
};

SnapshotList::SnapshotList() = default;
SnapshotList::~SnapshotList() = default;

const Snapshot* SnapshotList::RegisterLocked(SequenceNumber seq) {
  list_.push_back(std::make_unique<Impl>(seq));
  if (!any_.load(std::memory_order_relaxed) || seq > newest_.load(std::memory_order_relaxed)) {
    newest_.store(seq, std::memory_order_seq_cst);
  }
  any_.store(true, std::memory_order_seq_cst);
  return list_.back().get();
}

void SnapshotList::RecomputeNewestLocked() {
  SequenceNumber newest = 0;
  for (const auto& s : list_) newest = std::max<SequenceNumber>(newest, s->sequence());
  newest_.store(newest, std::memory_order_seq_cst);
  any_.store(!list_.empty(), std::memory_order_seq_cst);
}

const Snapshot* SnapshotList::Create(const std::function<SequenceNumber()>& pick) {
  MutexLock l(&mu_);
  return RegisterLocked(pick());
}

const Snapshot* SnapshotList::CreateProtected(const std::function<SequenceNumber()>& pick) {
  pending_.fetch_add(1, std::memory_order_seq_cst);
  const Snapshot* result = nullptr;
  while (result == nullptr) {
    // seq_cst, against the increment in Sequences(): a reader whose increment this load misses
    // copies the list after it; one whose increment it sees chose its inputs before this load.
    const uint64_t reads_before = list_reads_.load(std::memory_order_seq_cst);
    const SequenceNumber seq = pick();
    TEST_SYNC_POINT("SnapshotList::CreateProtected:Picked");
    MutexLock l(&mu_);
    // A flush or compaction copied the list while seq was picked and not yet registered: it
    // may drop versions seq reads. Pick again; the new number is picked after that copy.
    if (list_reads_.load(std::memory_order_relaxed) == reads_before) result = RegisterLocked(seq);
  }
  const int was_pending = pending_.fetch_sub(1, std::memory_order_seq_cst);
  assert(was_pending > 0);
  (void)was_pending;
  return result;
}

void SnapshotList::Release(const Snapshot* snapshot) {
  // A linear search, so a pointer that is not (or no longer) ours is ignored, not freed.
  if (snapshot == nullptr) return;
  MutexLock l(&mu_);
  for (auto it = list_.begin(); it != list_.end(); ++it) {
    if (it->get() == snapshot) {
      list_.erase(it);
      RecomputeNewestLocked();
      return;
    }
  }
}

std::vector<SequenceNumber> SnapshotList::Sequences() const {
  std::vector<SequenceNumber> seqs;
  {
    MutexLock l(&mu_);
    // seq_cst: see CreateProtected (under mu_, so its check at registration sees it).
    list_reads_.fetch_add(1, std::memory_order_seq_cst);
    seqs.reserve(list_.size());
    for (const auto& s : list_) seqs.push_back(s->sequence());
  }
  std::sort(seqs.begin(), seqs.end());
  return seqs;
}

size_t SnapshotList::size() const {
  MutexLock l(&mu_);
  return list_.size();
}

bool SnapshotList::MustKeep(SequenceNumber older, SequenceNumber newer) const {
  if (pending_.load(std::memory_order_seq_cst) > 0) return true;
  // Conservative: keep any version not newer than the newest registered snapshot.
  return any_.load(std::memory_order_seq_cst) && older <= newest_.load(std::memory_order_seq_cst);
}

}  // namespace sluice
