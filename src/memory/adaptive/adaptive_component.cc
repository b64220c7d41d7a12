// memory/adaptive/adaptive_component.cc — the "adaptive" memory component (see
// adaptive_component.h).

#include "memory/adaptive/adaptive_component.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "memory/adaptive/adaptive_policy.h"

namespace sluice {

namespace {

// Counts an iterator's positionings and steps; records them in the mix when destroyed. The
// mix is shared, so it outlives the component if an iterator does.
class ObservedIterator final : public InternalIterator {
 public:
  ObservedIterator(std::unique_ptr<InternalIterator> target, std::shared_ptr<OperationMix> mix)
      : target_(std::move(target)), mix_(std::move(mix)) {}
  ~ObservedIterator() override { mix_->RecordScans(positionings_, steps_); }

  bool Valid() const override { return target_->Valid(); }
  void SeekToFirst() override {
    Positioned();
    target_->SeekToFirst();
  }
  void SeekToLast() override {
    Positioned();
    target_->SeekToLast();
  }
  void Seek(const Slice& target) override {
    Positioned();
    target_->Seek(target);
  }
  void Next() override {
    steps_++;
    target_->Next();
  }
  void Prev() override {
    steps_++;
    target_->Prev();
  }
  Slice key() const override { return target_->key(); }
  Slice value() const override { return target_->value(); }
  Status status() const override { return target_->status(); }

 private:
  void Positioned() {
    positionings_++;
    mix_->NoteRead();
  }

  const std::unique_ptr<InternalIterator> target_;
  const std::shared_ptr<OperationMix> mix_;
  uint64_t positionings_ = 0;
  uint64_t steps_ = 0;
};

}  // namespace

AdaptiveComponent::AdaptiveComponent(std::unique_ptr<MemoryComponent> chosen,
                                     std::shared_ptr<OperationMix> mix, size_t budget,
                                     size_t bucket_count)
    : chosen_(std::move(chosen)),
      mix_(std::move(mix)),
      name_(std::string("adaptive:") + chosen_->Name()),
      budget_(budget),
      bucket_count_(bucket_count) {}

void AdaptiveComponent::Add(SequenceNumber seq, ValueType type, const Slice& key,
                            const Slice& value, bool keep_older) {
  if (!immutable_.load(std::memory_order_relaxed)) {
    mix_->RecordInsert(seq, key);
    // One writer in kEvaluateEvery (by sequence number) re-estimates.
    if (seq % kEvaluateEvery == 0) Reevaluate();
  }
  chosen_->Add(seq, type, key, value, keep_older);
}

void AdaptiveComponent::Reevaluate() {
  const double fill = static_cast<double>(chosen_->ApproximateMemoryUsage()) /
                      static_cast<double>(std::max<size_t>(budget_, 1));
  mix_->NoteFill(fill);
  if (wants_switch_.load(std::memory_order_relaxed) || fill < 0.125 || fill >= 1) return;
  // Judged as if the whole component saw this mix.
  const CostEstimate est = EstimateCosts(ScaleMix(mix_->Snapshot(), 1 / fill), bucket_count_);
  const std::string_view mine = chosen_->Name();
  for (size_t i = 0; i < kAdaptiveCandidates.size(); i++) {
    if (mine != kAdaptiveCandidates[i]) continue;
    if (est.nanos[i] > kEarlySwitchMargin * est.nanos[est.best]) {
      wants_switch_.store(true, std::memory_order_relaxed);
    }
  }
}

bool AdaptiveComponent::Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) {
  if (!immutable_.load(std::memory_order_relaxed)) mix_->RecordPointRead();
  return chosen_->Get(key, read_seq, result);
}

std::unique_ptr<InternalIterator> AdaptiveComponent::NewIterator() {
  std::unique_ptr<InternalIterator> it = chosen_->NewIterator();
  if (immutable_.load(std::memory_order_relaxed)) return it;
  return std::make_unique<ObservedIterator>(std::move(it), mix_);
}

void AdaptiveComponent::MarkImmutable() {
  immutable_.store(true, std::memory_order_relaxed);
  chosen_->MarkImmutable();
}

}  // namespace sluice
