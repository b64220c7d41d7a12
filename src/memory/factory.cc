// memory/factory.cc — creates a memory component from its name (Options::memtable). Every
// component is registered here, once.

#include <functional>
#include <string>
#include <vector>

#include "memory/memory_component.h"
#include "memory/skiplist_rep.h"

namespace sluice {

namespace {

struct Registration {
  const char* name;
  std::function<std::unique_ptr<MemoryComponent>(const Options&)> make;
};

const std::vector<Registration>& Registry() {
  static const std::vector<Registration>* registry = new std::vector<Registration>{
      {"skiplist",
       [](const Options& o) { return std::make_unique<SkipListRep>(o.write_buffer_size); }},
  };
  return *registry;
}

}  // namespace

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

Status NewMemoryComponent(const Options& options, std::unique_ptr<MemoryComponent>* result) {
  for (const Registration& r : Registry()) {
    if (options.memtable == r.name) {
      *result = r.make(options);
      return Status::OK();
    }
  }
  return Status::InvalidArgument(
      "Options::memtable: unknown memory component '" + options.memtable + "'",
      "known: " + KnownMemoryComponents());
}

}  // namespace sluice
