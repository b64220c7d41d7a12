// util/guarded_mapping.h — read-only file mappings that survive the file shrinking under them.
//
// Reading a page of a mapping whose file has lost it (truncated by another process, or an I/O
// error of the disk) raises SIGBUS, which kills the process. A GuardedMapping registers its
// address range in a process-wide table of kMaxGuardedMappings slots. The SIGBUS handler,
// installed with the first mapping, finds the range holding the faulting address, counts the
// fault there and maps a page of zeros over the lost one: the read that faulted completes, with
// zeros, instead of killing the process. Readers copy out of the mapping (CopyOut), or use a
// view of it for one call (UseInPlace), and check the count afterwards, so what they return was
// the file's bytes and a lost page is Corruption naming the file. A fault at an address no mapping
// holds goes to the handler installed before the first mapping, or to the default action (the
// process dies as it would have).
//
// Invariants: a range is in the table from Map until the destructor, which removes it before
// unmapping; the handler reads the table with lock-free atomics only (no lock, no allocation);
// once a mapping has faulted, every later CopyOut of it fails (its zero pages never pass for
// data).

#ifndef SLUICE_UTIL_GUARDED_MAPPING_H_
#define SLUICE_UTIL_GUARDED_MAPPING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sluice/env.h"
#include "sluice/status.h"

namespace sluice {

// The most mappings guarded at once in a process; a file opened past it is read with pread.
inline constexpr size_t kMaxGuardedMappings = 4096;

class GuardedMapping {
 public:
  // Maps the first length bytes (> 0) of fd read-only and registers them. OK with *result null
  // when every slot is taken: the caller reads the file another way. An mmap failure is an
  // IOError naming fname.
  static Status Map(int fd, size_t length, const std::string& fname,
                    std::unique_ptr<GuardedMapping>* result);

  ~GuardedMapping();
  GuardedMapping(const GuardedMapping&) = delete;
  GuardedMapping& operator=(const GuardedMapping&) = delete;

  // Copies [offset, offset + n) of the mapping (within length()) into dst. Corruption naming
  // fname if any page of the mapping has been lost, during this copy or before.
  Status CopyOut(size_t offset, size_t n, char* dst, const std::string& fname) const;

  // Calls consumer->Use with a view of [offset, offset + n) (within length()) and returns its
  // status, or Corruption naming fname if any page of the mapping has been lost, before or
  // during the call. Use must copy what it keeps.
  Status UseInPlace(size_t offset, size_t n, ReadConsumer* consumer,
                    const std::string& fname) const;

  size_t length() const { return length_; }
  // Faults the handler has absorbed in this mapping.
  uint64_t faults() const;

  // Opaque: a slot of the process-wide table (guarded_mapping.cc).
  struct Slot;

 private:
  GuardedMapping(const char* base, size_t length, Slot* slot)
      : base_(base), length_(length), slot_(slot) {}

  const char* const base_;
  const size_t length_;
  Slot* const slot_;  // in the process-wide table, ours until the destructor
};

}  // namespace sluice

#endif  // SLUICE_UTIL_GUARDED_MAPPING_H_
