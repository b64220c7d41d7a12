// memory/simple_component_factory.h — the factories of the single-structure memory components:
// "skiplist" (skiplist_rep.h), "vector" and "vector-prealloc" (vector_rep.h), "hash-skiplist"
// and "hash-linklist" (hash_rep.h). Their components share no state, so a factory holds only
// the family's options; the adaptive family (adaptive/adaptive_factory.h) creates its chosen
// representations through these.

#ifndef SLUICE_MEMORY_SIMPLE_COMPONENT_FACTORY_H_
#define SLUICE_MEMORY_SIMPLE_COMPONENT_FACTORY_H_

#include <cstddef>
#include <memory>
#include <string>

#include "memory/memory_component_factory.h"

namespace sluice {

// The options of the single-structure components, from the public Options.
struct SimpleComponentOptions {
  // Each component's budget (Options::write_buffer_size).
  size_t write_buffer_size = 64 << 20;
  // Hash components: leading key bytes that choose the bucket (Options::prefix_length).
  size_t prefix_length = 8;
  // Hash components: buckets, resolved (BucketCountFor): at least 1.
  size_t bucket_count = 16;
  // Options::bucket_count was 0: each component's count follows its own size.
  bool derived_bucket_count = false;
};

SimpleComponentOptions SimpleComponentOptionsFrom(const Options& options);
// The options of one component the DB sized (MemoryComponentContext::write_buffer_size; 0: as
// configured): its budget, and a derived bucket count that follows it (a bucket array chosen
// for the full size would not fit a small component's budget).
SimpleComponentOptions SizedFor(const SimpleComponentOptions& options, size_t write_buffer_size);

class SimpleComponentFactory final : public MemoryComponentFactory {
 public:
  enum class Kind { kSkipList, kHashSkipList, kHashLinkList, kVector, kVectorPrealloc };

  SimpleComponentFactory(Kind kind, const SimpleComponentOptions& options)
      : kind_(kind), options_(options) {}

  const char* Name() const override;
  Status NewComponent(const MemoryComponentContext& context,
                      std::unique_ptr<MemoryComponent>* result) override;

 private:
  const Kind kind_;
  const SimpleComponentOptions options_;
};

// The factory of the single-structure family named `name`; InvalidArgument naming
// Options::memtable if `name` is none of them.
Status NewSimpleComponentFactory(const std::string& name, const SimpleComponentOptions& options,
                                 std::unique_ptr<MemoryComponentFactory>* result);

}  // namespace sluice

#endif  // SLUICE_MEMORY_SIMPLE_COMPONENT_FACTORY_H_
