// memory/factory.cc — the registry of memory component families: Options::memtable's name ->
// the family's factory (memory_component_factory.h), built with the family's options from the
// public Options. Every family is registered here, once.

#include <algorithm>
#include <cassert>
#include <functional>
#include <string>
#include <vector>

#include "memory/adaptive/adaptive_factory.h"
#include "memory/encoded_entry.h"
#include "memory/flodb/flodb_factory.h"
#include "memory/memory_component.h"
#include "memory/memory_component_factory.h"
#include "memory/simple_component_factory.h"

namespace sluice {

namespace {

struct Registration {
  const char* name;
  std::function<std::unique_ptr<MemoryComponentFactory>(const Options&)> make;
};

// A single-structure family, by the name simple_component_factory.cc knows it under.
std::function<std::unique_ptr<MemoryComponentFactory>(const Options&)> Simple(const char* name) {
  return [name](const Options& o) {
    std::unique_ptr<MemoryComponentFactory> f;
    Status s = NewSimpleComponentFactory(name, SimpleComponentOptionsFrom(o), &f);
    assert(s.ok());  // every name registered here is one of its kinds
    (void)s;
    return f;
  };
}

const std::vector<Registration>& Registry() {
  static const std::vector<Registration>* registry = new std::vector<Registration>{
      {"adaptive",
       [](const Options& o) {
         return std::make_unique<AdaptiveComponentFactory>(AdaptiveOptionsFrom(o));
       }},
      {"flodb",
       [](const Options& o) {
         return std::make_unique<FloDBComponentFactory>(FloDBOptionsFrom(o));
       }},
      {"skiplist", Simple("skiplist")},
      {"hash-skiplist", Simple("hash-skiplist")},
      {"hash-linklist", Simple("hash-linklist")},
      {"vector", Simple("vector")},
      {"vector-prealloc", Simple("vector-prealloc")},
  };
  return *registry;
}

}  // namespace

size_t BucketCountFor(const Options& options) {
  if (options.bucket_count != 0) return options.bucket_count;
  return BucketCountForSize(options.write_buffer_size);
}

size_t BucketCountForSize(size_t write_buffer_size) {
  return std::clamp<size_t>(write_buffer_size / 1024, 16, size_t{1} << 20);
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

Status NewMemoryComponentFactory(const Options& options,
                                 std::unique_ptr<MemoryComponentFactory>* result) {
  for (const Registration& r : Registry()) {
    if (options.memtable == r.name) {
      *result = r.make(options);
      return Status::OK();
    }
  }
  return ValidateMemoryComponentName(options.memtable);  // InvalidArgument: not registered
}

Status ValidateMemoryComponentName(const std::string& name) {
  for (const Registration& r : Registry()) {
    if (name == r.name) return Status::OK();
  }
  return Status::InvalidArgument("Options::memtable: unknown memory component '" + name + "'",
                                 "known: " + KnownMemoryComponents());
}

}  // namespace sluice
