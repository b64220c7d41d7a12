// db/snapshot_list.cc — see snapshot_list.h.

#include "db/snapshot_list.h"

#include <algorithm>

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

const Snapshot* SnapshotList::Create(const std::function<SequenceNumber()>& pick) {
  std::lock_guard<std::mutex> l(mu_);
  list_.push_back(std::make_unique<Impl>(pick()));
  return list_.back().get();
}

void SnapshotList::Release(const Snapshot* snapshot) {
  // A linear search, so a pointer that is not (or no longer) ours is ignored, not freed.
  if (snapshot == nullptr) return;
  std::lock_guard<std::mutex> l(mu_);
  for (auto it = list_.begin(); it != list_.end(); ++it) {
    if (it->get() == snapshot) {
      list_.erase(it);
      return;
    }
  }
}

std::vector<SequenceNumber> SnapshotList::Sequences() const {
  std::vector<SequenceNumber> seqs;
  {
    std::lock_guard<std::mutex> l(mu_);
    seqs.reserve(list_.size());
    for (const auto& s : list_) seqs.push_back(s->sequence());
  }
  std::sort(seqs.begin(), seqs.end());
  return seqs;
}

size_t SnapshotList::size() const {
  std::lock_guard<std::mutex> l(mu_);
  return list_.size();
}

SequenceNumber SnapshotList::Oldest() const {
  std::lock_guard<std::mutex> l(mu_);
  SequenceNumber oldest = kMaxSequenceNumber;
  for (const auto& s : list_) oldest = std::min<SequenceNumber>(oldest, s->sequence());
  return oldest;
}

}  // namespace sluice
