// memory/adaptive/adaptive_factory.h — the factory of the "adaptive" memory components
// (adaptive_component.h).
//
// It owns the AdaptivePolicy (adaptive_policy.h) that chooses the representation of each new
// component from what the previous one observed, and creates the chosen representation through
// its single-structure factory (simple_component_factory.h). GetProperty
// ("sluice.memtable-choices") lists the policy's decisions. Components whose operations are no
// workload (NewUnobservedComponent: WAL replay, tools) start as kAdaptiveInitial, record into a
// mix of their own that no one reads, and are no decision of the policy.

#ifndef SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_FACTORY_H_
#define SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_FACTORY_H_

#include <memory>
#include <string>
#include <vector>

#include "memory/adaptive/adaptive_policy.h"
#include "memory/memory_component_factory.h"
#include "memory/simple_component_factory.h"

namespace sluice {

struct AdaptiveOptions {
  // The options of the representations chosen between (kAdaptiveCandidates); their budget is
  // the adaptive component's, their prefix_length and bucket_count the policy's too.
  SimpleComponentOptions candidates;
};

AdaptiveOptions AdaptiveOptionsFrom(const Options& options);

class AdaptiveComponentFactory final : public MemoryComponentFactory {
 public:
  // With a policy of its own, built from the options.
  explicit AdaptiveComponentFactory(const AdaptiveOptions& options);
  // With the given policy (tests: a policy with other parameters). REQUIRES: policy not null.
  AdaptiveComponentFactory(const AdaptiveOptions& options, std::shared_ptr<AdaptivePolicy> policy);

  const char* Name() const override { return "adaptive"; }
  // The policy chooses the representation (and records its decision).
  Status NewComponent(const MemoryComponentContext& context,
                      std::unique_ptr<MemoryComponent>* result) override;
  // kAdaptiveInitial, without the policy.
  Status NewUnobservedComponent(const MemoryComponentContext& context,
                                std::unique_ptr<MemoryComponent>* result) override;
  // "sluice.memtable-choices": the policy's decisions (AdaptivePolicy::ChoicesString).
  bool GetProperty(const Slice& property, std::string* value) const override;

  const AdaptivePolicy& policy() const { return *policy_; }

 private:
  // A component of the representation `chosen` observed into `mix`.
  Status NewAdaptive(const MemoryComponentContext& context, const std::string& chosen,
                     std::shared_ptr<OperationMix> mix, std::unique_ptr<MemoryComponent>* result);

  const AdaptiveOptions options_;
  const std::shared_ptr<AdaptivePolicy> policy_;
  // One factory per kAdaptiveCandidates entry, in that order.
  std::vector<std::unique_ptr<MemoryComponentFactory>> candidates_;
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_ADAPTIVE_ADAPTIVE_FACTORY_H_
