// memory/hash_rep.cc — see hash_rep.h.

#include "memory/hash_rep.h"

#include <algorithm>
#include <new>
#include <vector>

#include "base/merging_iterator.h"
#include "util/hash.h"

namespace sluice {

HashRep::HashRep(Buckets kind, size_t write_buffer_size, size_t prefix_length, size_t bucket_count,
                 std::function<SequenceNumber()> announced_sequence)
    : kind_(kind),
      prefix_length_(std::max<size_t>(prefix_length, 1)),
      bucket_count_(std::max<size_t>(bucket_count, 1)),
      announced_sequence_(std::move(announced_sequence)),
      arena_(ArenaBlockSizeFor(write_buffer_size)),
      buckets_(new std::atomic<Bucket*>[bucket_count_]) {
  for (size_t i = 0; i < bucket_count_; i++) buckets_[i].store(nullptr, std::memory_order_relaxed);
}

size_t HashRep::BucketOf(const Slice& user_key) const {
  const Slice prefix(user_key.data(), std::min(prefix_length_, user_key.size()));
  return static_cast<size_t>(Hash64(prefix) % bucket_count_);
}

HashRep::Bucket* HashRep::BucketFor(const Slice& user_key) {
  std::atomic<Bucket*>& slot = buckets_[BucketOf(user_key)];
  // acquire: pairs with the release CAS below, so the list's head is seen initialised.
  Bucket* b = slot.load(std::memory_order_acquire);
  if (b != nullptr) return b;
  const int height = kind_ == Buckets::kSkipList ? kSkipListHeight : kLinkListHeadHeight;
  Bucket* fresh = new (arena_.Allocate(sizeof(Bucket))) Bucket(&arena_, height);
  // acq_rel: publishes the new list (release); on failure, reads the winner's (acquire). The
  // loser's list stays unused in the arena (and counted): at most one per racing writer.
  if (slot.compare_exchange_strong(b, fresh, std::memory_order_acq_rel,
                                   std::memory_order_acquire)) {
    return fresh;
  }
  return b;
}

void HashRep::Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
                  bool /*keep_older: versions are never replaced here*/) {
  Bucket* b = BucketFor(key);
  int height;
  if (kind_ == Buckets::kSkipList) {
    height = EntryList::RandomHeight(kSkipListHeight);
  } else {
    // relaxed: only a heuristic; a few extra single-level nodes around the threshold are fine.
    // Past the threshold the count is only read, so writers of a busy bucket stop contending
    // on it.
    const bool short_list =
        b->versions.load(std::memory_order_relaxed) < kLinkListThreshold &&
        b->versions.fetch_add(1, std::memory_order_relaxed) < kLinkListThreshold;
    height = short_list ? 1 : EntryList::RandomHeight(kLinkListHeadHeight);
  }
  AddToEntryList(&b->list, height, seq, type, key, value);
  entries_.fetch_add(1, std::memory_order_relaxed);
}

bool HashRep::Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) {
  const Bucket* b = buckets_[BucketOf(key)].load(std::memory_order_acquire);
  return b != nullptr && GetFromEntryList(&b->list, key, read_seq, result);
}

std::unique_ptr<InternalIterator> HashRep::NewIterator() {
  std::vector<std::unique_ptr<InternalIterator>> children;
  for (size_t i = 0; i < bucket_count_; i++) {
    const Bucket* b = buckets_[i].load(std::memory_order_acquire);
    if (b != nullptr) children.push_back(NewEntryListIterator(&b->list));
  }
  // A user key lives in one bucket, so the children never hold equal internal keys.
  return NewMergingIterator(DefaultInternalKeyComparator(), std::move(children));
}

size_t HashRep::ApproximateMemoryUsage() const {
  return arena_.MemoryUsage() + bucket_count_ * sizeof(std::atomic<Bucket*>) + sizeof(*this);
}

size_t HashRep::NonEmptyBuckets() const {
  size_t n = 0;
  for (size_t i = 0; i < bucket_count_; i++) {
    if (buckets_[i].load(std::memory_order_acquire) != nullptr) n++;
  }
  return n;
}

}  // namespace sluice
