// memory/adaptive/adaptive_factory.cc — the "adaptive" components' factory (see
// adaptive_factory.h).

#include "memory/adaptive/adaptive_factory.h"

#include <cassert>
#include <utility>

#include "memory/adaptive/adaptive_component.h"

namespace sluice {

AdaptiveOptions AdaptiveOptionsFrom(const Options& options) {
  AdaptiveOptions a;
  a.candidates = SimpleComponentOptionsFrom(options);
  return a;
}

AdaptiveComponentFactory::AdaptiveComponentFactory(const AdaptiveOptions& options)
    : AdaptiveComponentFactory(options,
                               std::make_shared<AdaptivePolicy>(options.candidates.prefix_length,
                                                                options.candidates.bucket_count)) {}

AdaptiveComponentFactory::AdaptiveComponentFactory(const AdaptiveOptions& options,
                                                   std::shared_ptr<AdaptivePolicy> policy)
    : options_(options), policy_(std::move(policy)) {
  assert(policy_ != nullptr);
  for (const char* name : kAdaptiveCandidates) {
    std::unique_ptr<MemoryComponentFactory> f;
    // Every candidate is a single-structure component.
    Status s = NewSimpleComponentFactory(name, options_.candidates, &f);
    assert(s.ok());
    (void)s;
    candidates_.push_back(std::move(f));
  }
}

Status AdaptiveComponentFactory::NewComponent(const MemoryComponentContext& context,
                                              std::unique_ptr<MemoryComponent>* result) {
  std::shared_ptr<OperationMix> mix;
  const std::string chosen = policy_->ChooseNext(&mix);
  return NewAdaptive(context, chosen, std::move(mix), result);
}

Status AdaptiveComponentFactory::NewUnobservedComponent(const MemoryComponentContext& context,
                                                        std::unique_ptr<MemoryComponent>* result) {
  return NewAdaptive(context, kAdaptiveInitial,
                     std::make_shared<OperationMix>(options_.candidates.prefix_length), result);
}

bool AdaptiveComponentFactory::GetProperty(const Slice& property, std::string* value) const {
  if (property != Slice("sluice.memtable-choices")) return false;
  *value = policy_->ChoicesString();
  return true;
}

Status AdaptiveComponentFactory::NewAdaptive(const MemoryComponentContext& context,
                                             const std::string& chosen,
                                             std::shared_ptr<OperationMix> mix,
                                             std::unique_ptr<MemoryComponent>* result) {
  for (size_t i = 0; i < kAdaptiveCandidates.size(); i++) {
    if (chosen != kAdaptiveCandidates[i]) continue;
    std::unique_ptr<MemoryComponent> rep;
    Status s = candidates_[i]->NewComponent(context, &rep);
    if (!s.ok()) return s;
    // The size the DB chose for this component, and the bucket count the hash candidates
    // took for it.
    const SimpleComponentOptions c = SizedFor(options_.candidates, context.write_buffer_size);
    *result = std::make_unique<AdaptiveComponent>(std::move(rep), std::move(mix),
                                                  c.write_buffer_size, c.bucket_count);
    return Status::OK();
  }
  // The policy names only candidates.
  return Status::InvalidArgument("adaptive memory component: unknown representation", chosen);
}

}  // namespace sluice
