// memory/range_tombstone_set.cc — see range_tombstone_set.h.

#include "memory/range_tombstone_set.h"

#include "util/epoch.h"

namespace sluice {

void RangeTombstoneSet::Add(const Slice& begin, const Slice& end, SequenceNumber seq) {
  MutexLock l(&mu_);
  RangeTombstone t{begin.ToString(), end.ToString(), seq};
  all_.push_back(t);
  since_base_.push_back(std::move(t));
  auto next = std::make_unique<Indexes>();
  const Indexes* old = current_.load(std::memory_order_relaxed);  // only Add stores it (mu_)
  const size_t base_size = all_.size() - since_base_.size();
  if (since_base_.size() >= std::max<size_t>(16, base_size / 16)) {
    next->base = std::make_shared<const FragmentedRangeTombstones>(all_);
    since_base_.clear();
  } else {
    if (old != nullptr) next->base = old->base;
    next->delta = std::make_shared<const FragmentedRangeTombstones>(since_base_);
  }
  // release: the indexes are built before a reader that acquires the pointer uses them.
  current_.store(next.release(), std::memory_order_release);
  count_.store(all_.size(), std::memory_order_relaxed);
  // A reader inside an epoch section may still hold the old pair: free it after them.
  if (old != nullptr) epoch::RetireDelete(const_cast<Indexes*>(old));
}

std::shared_ptr<const FragmentedRangeTombstones> RangeTombstoneSet::All() const {
  const Indexes* p = Current();
  if (p == nullptr) return nullptr;
  if (p->delta == nullptr) return p->base;
  if (p->base == nullptr) return p->delta;
  std::vector<RangeTombstone> all = p->base->ToTombstones();
  std::vector<RangeTombstone> delta = p->delta->ToTombstones();
  all.insert(all.end(), delta.begin(), delta.end());
  return std::make_shared<const FragmentedRangeTombstones>(all);
}

}  // namespace sluice
