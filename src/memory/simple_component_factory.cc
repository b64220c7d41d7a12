// memory/simple_component_factory.cc — the single-structure components' factories (see
// simple_component_factory.h).

#include "memory/simple_component_factory.h"

#include <array>
#include <utility>

#include "memory/hash_rep.h"
#include "memory/skiplist_rep.h"
#include "memory/vector_rep.h"

namespace sluice {

namespace {

using Kind = SimpleComponentFactory::Kind;

constexpr std::array<std::pair<Kind, const char*>, 5> kKinds = {{
    {Kind::kSkipList, "skiplist"},
    {Kind::kHashSkipList, "hash-skiplist"},
    {Kind::kHashLinkList, "hash-linklist"},
    {Kind::kVector, "vector"},
    {Kind::kVectorPrealloc, "vector-prealloc"},
}};

}  // namespace

SimpleComponentOptions SimpleComponentOptionsFrom(const Options& options) {
  SimpleComponentOptions o;
  o.write_buffer_size = options.write_buffer_size;
  o.prefix_length = options.prefix_length;
  o.bucket_count = BucketCountFor(options);
  o.derived_bucket_count = options.bucket_count == 0;
  return o;
}

SimpleComponentOptions SizedFor(const SimpleComponentOptions& options, size_t write_buffer_size) {
  SimpleComponentOptions o = options;
  if (write_buffer_size != 0 && write_buffer_size != o.write_buffer_size) {
    if (o.derived_bucket_count) o.bucket_count = BucketCountForSize(write_buffer_size);
    o.write_buffer_size = write_buffer_size;
  }
  return o;
}

const char* SimpleComponentFactory::Name() const {
  for (const auto& [kind, name] : kKinds) {
    if (kind == kind_) return name;
  }
  return "";
}

Status SimpleComponentFactory::NewComponent(const MemoryComponentContext& context,
                                            std::unique_ptr<MemoryComponent>* result) {
  const SimpleComponentOptions o = SizedFor(options_, context.write_buffer_size);
  switch (kind_) {
    case Kind::kSkipList:
      *result = std::make_unique<SkipListRep>(o.write_buffer_size, context.announced_sequence);
      break;
    case Kind::kHashSkipList:
      *result =
          std::make_unique<HashRep>(HashRep::Buckets::kSkipList, o.write_buffer_size,
                                    o.prefix_length, o.bucket_count, context.announced_sequence);
      break;
    case Kind::kHashLinkList:
      *result =
          std::make_unique<HashRep>(HashRep::Buckets::kLinkList, o.write_buffer_size,
                                    o.prefix_length, o.bucket_count, context.announced_sequence);
      break;
    case Kind::kVector:
      *result = std::make_unique<VectorRep>(o.write_buffer_size, /*preallocate=*/false);
      break;
    case Kind::kVectorPrealloc:
      *result = std::make_unique<VectorRep>(o.write_buffer_size, /*preallocate=*/true);
      break;
  }
  return Status::OK();
}

Status NewSimpleComponentFactory(const std::string& name, const SimpleComponentOptions& options,
                                 std::unique_ptr<MemoryComponentFactory>* result) {
  for (const auto& [kind, kind_name] : kKinds) {
    if (name == kind_name) {
      *result = std::make_unique<SimpleComponentFactory>(kind, options);
      return Status::OK();
    }
  }
  return Status::InvalidArgument(
      "Options::memtable: '" + name + "' is not a single-structure memory component",
      "known: skiplist, hash-skiplist, hash-linklist, vector, vector-prealloc");
}

}  // namespace sluice
