// db/write_stamps.h — a counter of committed writes per key hash: the conflict detector of the
// lock-free read-modify-write (db/db_rmw.cc).
//
// Every write bumps the counter of each key it wrote, after inserting the key's new version and
// before leaving the Active set. A read-modify-write reads the counter of its key before its
// optimistic read and again after its fence; if the counter moved, a write to the key (or to a
// key of the same hash, a harmless false conflict) committed in between.
//
// Ordering: Bump is a release RMW after the insertion; Read is an acquire load. So a reader
// that sees a bump sees the version inserted before it, and a bump made before a writer
// releases its Active slot is visible to anyone who saw the slot released.

#ifndef SLUICE_DB_WRITE_STAMPS_H_
#define SLUICE_DB_WRITE_STAMPS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace sluice {

class WriteStamps {
 public:
  static constexpr int kBits = 14;  // 16384 counters, 128 KiB

  WriteStamps() : stamps_(std::make_unique<std::atomic<uint64_t>[]>(size_t{1} << kBits)) {}
  WriteStamps(const WriteStamps&) = delete;
  WriteStamps& operator=(const WriteStamps&) = delete;

  // key_hash: a 64-bit hash of the key (SequenceOracle::KeyTag); its top bits pick the counter.
  uint64_t Read(uint64_t key_hash) const {
    return stamps_[Index(key_hash)].load(std::memory_order_acquire);
  }
  void Bump(uint64_t key_hash) { stamps_[Index(key_hash)].fetch_add(1, std::memory_order_release); }

 private:
  static size_t Index(uint64_t key_hash) { return static_cast<size_t>(key_hash >> (64 - kBits)); }

  std::unique_ptr<std::atomic<uint64_t>[]> stamps_;
};

}  // namespace sluice

#endif  // SLUICE_DB_WRITE_STAMPS_H_
