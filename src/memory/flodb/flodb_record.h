// memory/flodb/flodb_record.h — the one record type of the "flodb" memory component: a key's
// version, first as a Membuffer entry (membuffer.h) and then, handed over by the drain as it
// is, as a version in a sorted-level chain (sorted_level.h). A drained write is thus allocated
// and copied once, and retired once.
//
// Layout: this header, then the key bytes, then the value bytes, so that a short key shares
// the header's cache line (the Membuffer, the drain's sort and its removal read both).
// Versions that the sorted level makes itself (writes that go straight below) carry no key
// (key_size 0): their node holds it.
//
// Ownership (who may retire a record to the component's EpochPool, and when):
//   * A record that is in a Membuffer slot is never retired; whoever takes it out of its slot
//     decides, under the bucket lock.
//   * An entry a drainer has marked (draining, set under the bucket lock) belongs to that
//     drainer until it has linked it into a chain: a writer that displaces it, or pushes it
//     below, leaves it alone. The drainer links the record itself; once linked, the chain owns
//     it and retires it when it unlinks it (only a newer version of the key does that, and a
//     newer version exists only after the record left its slot). If the chain drops it
//     (overtaken, or the same version again), the drainer retires it after taking it out of
//     its slot.
//   * An entry nobody marked is retired by the writer that displaced it.
//   * A record is linked into a chain at most once: only its marking drainer links it; every
//     other path that moves a version below (push-down, late writes) copies it.
// Fields are written before the record is published (a slot's or a chain link's release
// store) and are immutable afterwards, except `older` (the chain link) and `draining`.

#ifndef SLUICE_MEMORY_FLODB_FLODB_RECORD_H_
#define SLUICE_MEMORY_FLODB_FLODB_RECORD_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "base/internal_key.h"
#include "sluice/slice.h"

namespace sluice {

struct FloDBRecord {
  uint64_t trailer;              // sequence << 8 | type
  std::atomic<uintptr_t> older;  // the next older version in a chain (FloDBRecord* | mark bit)
  uint64_t hash;                 // of the key, for the Membuffer (0 for a key-less version)
  uint32_t key_size;
  uint32_t value_size;
  std::atomic<bool> draining;  // marked by the drainer that moves it below
  bool keep_older;             // part of a multi-update batch: never replace older versions

  // Placement-constructs a record in `mem` (AllocationSize(key, value) bytes).
  static FloDBRecord* Make(void* mem, uint64_t hash, SequenceNumber seq, ValueType type,
                           const Slice& key, const Slice& value, bool keep_older);
  // The hash of a key that `hash` holds: the Membuffer's buckets and the sorted level's node
  // index both use it, so a drained record carries its index hash along.
  static uint64_t HashKey(const Slice& key);
  static size_t AllocationSize(size_t key_size, size_t value_size) {
    return sizeof(FloDBRecord) + key_size + value_size;
  }

  Slice key() const { return Slice(data(), key_size); }
  Slice value() const { return Slice(data() + key_size, value_size); }
  SequenceNumber sequence() const { return trailer >> 8; }
  ValueType type() const { return static_cast<ValueType>(trailer & 0xff); }
  // Bytes of its allocation (what it is retired or freed with).
  size_t AllocatedSize() const { return AllocationSize(key_size, value_size); }
  // Bytes a Membuffer entry accounts for (its allocation plus an estimate of the pool's
  // rounding).
  size_t Charge() const { return AllocatedSize() + 16; }

 private:
  const char* data() const { return reinterpret_cast<const char*>(this + 1); }
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_FLODB_RECORD_H_
