// memory/adaptive/adaptive_component.h — the "adaptive" memory component: a memory component of the
// representation AdaptivePolicy chose when it was created (adaptive_policy.h), observed while it
// is the mutable component so that the policy can choose the next one.
//
// It forwards every call to the chosen component and records, in its OperationMix
// (operation_mix.h): each insert (and a sample of the inserted keys' prefixes), each point read,
// and, per iterator, its positionings and steps (added up in the iterator and recorded once when
// it is destroyed, so scans share no counter per step). Nothing is recorded once the component
// is immutable: the flush's iteration, and reads that reach an immutable component, are not the
// workload of a mutable one.
//
// Thread-safety and memory ordering are the chosen component's; observing only adds relaxed
// statistics counters and an early-switch hint (WantsEarlySwitch). The policy is shared by the
// components of one DB (it belongs to the DB's factory, adaptive_factory.h); a component created
// without it (WAL replay during recovery) starts as kAdaptiveInitial and reports to no one.

#ifndef SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_COMPONENT_H_
#define SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_COMPONENT_H_

#include <atomic>
#include <memory>
#include <string>

#include "memory/adaptive/operation_mix.h"
#include "memory/memory_component.h"

namespace sluice {

class AdaptiveComponent final : public MemoryComponent {
 public:
  // budget: the write_buffer_size the component fills; bucket_count: the hash buffers' H (for
  // the re-estimates).
  AdaptiveComponent(std::unique_ptr<MemoryComponent> chosen, std::shared_ptr<OperationMix> mix,
                    size_t budget, size_t bucket_count);

  // "adaptive:" followed by the chosen representation's name.
  const char* Name() const override { return name_.c_str(); }
  void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
           bool keep_older) override;
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) override;
  std::unique_ptr<InternalIterator> NewIterator() override;
  // The chosen component's bytes. The observations (sizeof(OperationMix), about 8 KiB, fixed,
  // shared with the policy) are not counted: they do not grow with the data, and counting them
  // would make a small budget full before its first write.
  size_t ApproximateMemoryUsage() const override { return chosen_->ApproximateMemoryUsage(); }
  uint64_t NumEntries() const override { return chosen_->NumEntries(); }
  bool HasEntries() const override { return chosen_->HasEntries(); }
  void MarkImmutable() override;
  bool ReplacesInPlace() const override { return chosen_->ReplacesInPlace(); }
  SequenceNumber PrepareScan(bool allow_piggyback, bool* piggybacked) override {
    return chosen_->PrepareScan(allow_piggyback, piggybacked);
  }
  std::string StatsString() const override { return chosen_->StatsString(); }
  // Once an eighth of the budget is used, every kEvaluateEvery inserts the component
  // re-estimates its own mix; if another representation would cost less than
  // 1/kEarlySwitchMargin of this one's estimate, it asks to be switched out early, so a wrong
  // initial choice or a workload shift costs an eighth of a component, not a whole one.
  bool WantsEarlySwitch() const override { return wants_switch_.load(std::memory_order_relaxed); }
  static constexpr uint64_t kEvaluateEvery = 1024;
  static constexpr double kEarlySwitchMargin = 1.25;

  const MemoryComponent& chosen() const { return *chosen_; }
  const OperationMix& mix() const { return *mix_; }

 private:
  const std::unique_ptr<MemoryComponent> chosen_;
  const std::shared_ptr<OperationMix> mix_;
  const std::string name_;
  void Reevaluate();

  const size_t budget_;
  const size_t bucket_count_;
  // Set by MarkImmutable; relaxed: a few operations racing with it may still be recorded.
  std::atomic<bool> immutable_{false};
  // Set once by Reevaluate (relaxed: a hint read by writers; a late reader switches later).
  std::atomic<bool> wants_switch_{false};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_COMPONENT_H_
