// memory/factory.cc — creates a memory component from its name (Options::memtable). Every
// component is registered here, once.

#include <algorithm>
#include <cassert>
#include <functional>
#include <string>
#include <vector>

#include "memory/adaptive/adaptive_component.h"
#include "memory/adaptive/adaptive_policy.h"
#include "memory/encoded_entry.h"
#include "memory/flodb/flodb_component.h"
#include "memory/hash_rep.h"
#include "memory/memory_component.h"
#include "memory/skiplist_rep.h"
#include "memory/vector_rep.h"

namespace sluice {

namespace {

struct Registration {
  const char* name;
  std::function<std::unique_ptr<MemoryComponent>(const Options&, const MemoryComponentContext&)>
      make;
};

const std::vector<Registration>& Registry() {
  static const std::vector<Registration>* registry = new std::vector<Registration>{
      {"adaptive",
       [](const Options& o, const MemoryComponentContext& c) -> std::unique_ptr<MemoryComponent> {
         std::shared_ptr<OperationMix> mix;
         Options chosen = o;
         if (c.adaptive_policy != nullptr) {
           chosen.memtable = c.adaptive_policy->ChooseNext(&mix);
         } else {
           chosen.memtable = kAdaptiveInitial;
           mix = std::make_shared<OperationMix>(o.prefix_length);
         }
         std::unique_ptr<MemoryComponent> rep;
         // The policy names only registered components other than "adaptive".
         Status s = NewMemoryComponent(chosen, c, &rep);
         assert(s.ok());
         (void)s;
         return std::make_unique<AdaptiveComponent>(std::move(rep), std::move(mix),
                                                    o.write_buffer_size, BucketCountFor(o));
       }},
      {"flodb",
       [](const Options& o, const MemoryComponentContext& c) {
         FloDBOptions f;
         f.write_buffer_size = o.write_buffer_size;
         f.membuffer_fraction = o.membuffer_fraction;
         f.partition_bits = o.membuffer_partition_bits;
         f.bucket_slots = o.membuffer_bucket_slots;
         f.drain_threads = o.flodb_drain_threads;
         f.use_membuffer = o.flodb_use_membuffer;
         f.multi_insert = o.flodb_multi_insert;
         return std::make_unique<FloDBComponent>(f, c);
       }},
      {"skiplist",
       [](const Options& o, const MemoryComponentContext& c) {
         return std::make_unique<SkipListRep>(o.write_buffer_size, c.last_sequence);
       }},
      {"hash-skiplist",
       [](const Options& o, const MemoryComponentContext& c) {
         return std::make_unique<HashRep>(HashRep::Buckets::kSkipList, o.write_buffer_size,
                                          o.prefix_length, BucketCountFor(o), c.last_sequence);
       }},
      {"hash-linklist",
       [](const Options& o, const MemoryComponentContext& c) {
         return std::make_unique<HashRep>(HashRep::Buckets::kLinkList, o.write_buffer_size,
                                          o.prefix_length, BucketCountFor(o), c.last_sequence);
       }},
      {"vector",
       [](const Options& o, const MemoryComponentContext&) {
         return std::make_unique<VectorRep>(o.write_buffer_size, /*preallocate=*/false);
       }},
      {"vector-prealloc",
       [](const Options& o, const MemoryComponentContext&) {
         return std::make_unique<VectorRep>(o.write_buffer_size, /*preallocate=*/true);
       }},
  };
  return *registry;
}

}  // namespace

size_t BucketCountFor(const Options& options) {
  if (options.bucket_count != 0) return options.bucket_count;
  return std::clamp<size_t>(options.write_buffer_size / 1024, 16, size_t{1} << 20);
}

std::vector<std::string> MemoryComponentNames() {
  std::vector<std::string> names;
  for (const Registration& r : Registry()) names.emplace_back(r.name);
  return names;
}

std::string KnownMemoryComponents() {
  std::string names;
  for (const Registration& r : Registry()) {
    if (!names.empty()) names += ", ";
    names += r.name;
  }
  return names;
}

bool LookupFromEntry(const char* entry, const Slice& user_key, MemoryLookup* result) {
  const Slice ikey = EntryInternalKey(entry);
  if (ExtractUserKey(ikey) != user_key) return false;
  const uint64_t trailer = ExtractTrailer(ikey);
  result->sequence = trailer >> 8;
  result->type = static_cast<ValueType>(trailer & 0xff);
  if (result->type == kTypeValue) {
    const Slice v = EntryValue(entry);
    result->value.assign(v.data(), v.size());
  } else {
    result->value.clear();
  }
  return true;
}

SequenceNumber MemoryComponent::PrepareScan(bool /*allow_piggyback*/, bool* piggybacked) {
  *piggybacked = false;
  return kMaxSequenceNumber;
}

Status NewMemoryComponent(const Options& options, const MemoryComponentContext& context,
                          std::unique_ptr<MemoryComponent>* result) {
  MemoryComponentContext filled = context;
  if (!filled.last_sequence) filled.last_sequence = [] { return kMaxSequenceNumber; };
  for (const Registration& r : Registry()) {
    if (options.memtable == r.name) {
      *result = r.make(options, filled);
      return Status::OK();
    }
  }
  return Status::InvalidArgument(
      "Options::memtable: unknown memory component '" + options.memtable + "'",
      "known: " + KnownMemoryComponents());
}

Status NewMemoryComponent(const Options& options, std::unique_ptr<MemoryComponent>* result) {
  return NewMemoryComponent(options, MemoryComponentContext(), result);
}

Status ValidateMemoryComponentName(const std::string& name) {
  for (const Registration& r : Registry()) {
    if (name == r.name) return Status::OK();
  }
  return Status::InvalidArgument("Options::memtable: unknown memory component '" + name + "'",
                                 "known: " + KnownMemoryComponents());
}

}  // namespace sluice
