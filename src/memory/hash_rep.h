// memory/hash_rep.h — the hash memory components (Anatomy of the LSM Memory Buffer, DBTest'24):
// a fixed array of H buckets (Options::bucket_count), the bucket of a key chosen by hashing its
// first X bytes (Options::prefix_length), each bucket a sorted concurrent list of versions.
//
//   "hash-skiplist"  each bucket is a lock-free skiplist (concurrent_skiplist.h) whose nodes
//                    are at most kSkipListHeight tall: point reads and inserts cost a hash and
//                    a search among the bucket's keys only.
//   "hash-linklist"  each bucket is a sorted singly linked list: one next pointer per version,
//                    the least metadata of any sorted buffer. A bucket that outgrows
//                    kLinkListThreshold versions (too few buckets, or a skewed prefix) gives its
//                    later nodes skip levels, so a bad choice of X and H costs a logarithmic
//                    rather than a linear search, as RocksDB's hash linked list does by turning
//                    such a bucket into a skiplist.
//
// Both are lock-free: a bucket's list is created on the first insert into it (one CAS on the
// bucket's slot; the loser's allocation stays unused in the arena, counted), and lists are the
// engine's concurrent skiplist, with its invariants. Nothing is freed before the component.
//
// Order: a bucket holds every version of the keys hashed to it, in internal-key order; an
// iterator merges the iterators of the buckets that were non-empty when it was created (the
// DB creates iterators after the writes they must see have completed). A seek therefore costs
// a seek in every non-empty bucket: range scans are what these components are slow at.
//
// Memory accounting: the bucket array (H pointers), and the arena that holds the bucket
// lists (their objects and heads) and every node (tower, header, encoded entry).

#ifndef SLUICE_MEMORY_HASH_REP_H_
#define SLUICE_MEMORY_HASH_REP_H_

#include <atomic>
#include <memory>
#include <type_traits>

#include "memory/memory_component.h"
#include "memory/skiplist_rep.h"
#include "util/arena.h"

namespace sluice {

class HashRep final : public MemoryComponent {
 public:
  enum class Buckets { kSkipList, kLinkList };

  // A bucket skiplist's height limit: 4^11 versions per bucket before searches slow down.
  static constexpr int kSkipListHeight = 12;
  // A linked-list bucket's head height, and the versions it holds before new nodes get
  // skip levels.
  static constexpr int kLinkListHeadHeight = 6;
  static constexpr uint32_t kLinkListThreshold = 256;

  // prefix_length >= 1, bucket_count >= 1 (Options validation ensures both).
  HashRep(Buckets kind, size_t write_buffer_size, size_t prefix_length, size_t bucket_count,
          std::function<SequenceNumber()> announced_sequence);

  const char* Name() const override {
    return kind_ == Buckets::kSkipList ? "hash-skiplist" : "hash-linklist";
  }
  void Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
           bool keep_older) override;
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) override;
  std::unique_ptr<InternalIterator> NewIterator() override;
  size_t ApproximateMemoryUsage() const override;
  uint64_t NumEntries() const override { return entries_.load(std::memory_order_relaxed); }
  SequenceNumber PrepareScan(bool allow_piggyback, bool* piggybacked) override {
    *piggybacked = false;
    return announced_sequence_();  // every version is in its bucket as soon as Add returns
  }

  // Buckets holding at least one version (for tests and the benchmark).
  size_t NonEmptyBuckets() const;
  // The bucket of a user key.
  size_t BucketOf(const Slice& user_key) const;

 private:
  struct Bucket {
    Bucket(ConcurrentArena* arena, int height_limit)
        : list(EntryComparator(), arena, height_limit) {}
    EntryList list;
    // Linked-list buckets: versions added, counted up to kLinkListThreshold (when new nodes
    // start getting skip levels) and no further.
    std::atomic<uint32_t> versions{0};
  };
  // Buckets live in the arena and are never destroyed one by one: nothing to run for them.
  static_assert(std::is_trivially_destructible_v<Bucket>);

  Bucket* BucketFor(const Slice& user_key);  // creates it if needed

  const Buckets kind_;
  const size_t prefix_length_;
  const size_t bucket_count_;
  const std::function<SequenceNumber()> announced_sequence_;
  ConcurrentArena arena_;
  std::unique_ptr<std::atomic<Bucket*>[]> buckets_;
  std::atomic<uint64_t> entries_{0};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_HASH_REP_H_
