// memory/memory_component.h — the one interface every memory component implements.
//
// A memory component holds the newest writes of the database, as versions tagged with sequence
// numbers (see db/dbformat.h), until it is full, becomes immutable and is flushed to an L0 SST
// file. Implementations ("skiplist", and the components of later issues) live one per file and
// are created by name in factory.cc; the same engine tests run over all of them.
//
// Contract:
//   * Add() is safe for many concurrent callers and concurrent readers. The pair (key, seq) is
//     unique: the engine never adds the same key twice with one sequence number.
//   * Get() returns the version of `key` with the largest sequence number <= read_seq.
//   * Iterators yield internal keys in InternalKeyComparator order (user key ascending,
//     sequence descending). An iterator over a component that is still receiving writes sees
//     every version added before it was created and possibly some added later (weak
//     consistency); readers filter by sequence number.
//   * ApproximateMemoryUsage() counts every byte the component holds, metadata included.
//   * Nothing is freed while a reader may still see it: components are destroyed through the
//     epoch mechanism (util/epoch.h) or when the last iterator over them is gone.

#ifndef SLUICE_MEMORY_MEMORY_COMPONENT_H_
#define SLUICE_MEMORY_MEMORY_COMPONENT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "sluice/options.h"
#include "sluice/slice.h"
#include "sluice/status.h"
#include "table/internal_iterator.h"

namespace sluice {

// What Get() found.
struct MemoryLookup {
  SequenceNumber sequence = 0;
  ValueType type = kTypeValue;
  std::string value;  // set only for kTypeValue
};

class MemoryComponent {
 public:
  virtual ~MemoryComponent() = default;

  // The registered name ("skiplist", ...).
  virtual const char* Name() const = 0;

  virtual void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value) = 0;

  // True if a version of key with sequence <= read_seq exists (filled into *result).
  virtual bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) = 0;

  // Iterator over every version (internal keys). The component must outlive it.
  virtual std::unique_ptr<InternalIterator> NewIterator() = 0;

  // Bytes used, metadata included.
  virtual size_t ApproximateMemoryUsage() const = 0;

  // Versions added so far.
  virtual uint64_t NumEntries() const = 0;

  // Called once, after the last Add(), when the component becomes immutable.
  virtual void MarkImmutable() {}

  // Component-specific statistics for GetProperty ("" if none).
  virtual std::string StatsString() const { return std::string(); }
};

// Creates the memory component named options.memtable, with options.write_buffer_size as its
// budget. InvalidArgument naming the option if the name is unknown.
Status NewMemoryComponent(const Options& options, std::unique_ptr<MemoryComponent>* result);

// Names accepted by NewMemoryComponent, comma-separated (for messages and docs).
std::string KnownMemoryComponents();
// The same names, one per element (tests run over every one).
std::vector<std::string> MemoryComponentNames();

}  // namespace sluice

#endif  // SLUICE_MEMORY_MEMORY_COMPONENT_H_
