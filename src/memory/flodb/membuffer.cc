// memory/flodb/membuffer.cc — see membuffer.h.

#include "memory/flodb/membuffer.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>

#include "util/coding.h"
#include "util/thread_slot.h"

namespace sluice {

MembufferEntry* Membuffer::NewEntry(uint64_t hash, SequenceNumber seq, ValueType type,
                                    const Slice& key, const Slice& value) {
  void* mem = pool_->Allocate(FloDBRecord::AllocationSize(key.size(), value.size()));
  return FloDBRecord::Make(mem, hash, seq, type, key, value, /*keep_older=*/false);
}

namespace {

size_t BucketCount(size_t capacity, size_t partitions) {
  // Sized for entries of ~128 bytes at about half the slots when the byte budget is reached
  // (or fewer: rounded up to a power of two, so that a bucket is found with a mask): buckets
  // rarely fill unless keys are skewed towards few partitions.
  return std::bit_ceil(std::max<size_t>(capacity / 128 / 3 / partitions, 1));
}

// Pool blocks: a few per thread for a small Membuffer, 1 MB for a large one.
size_t PoolBlockSize(size_t capacity) {
  return std::clamp<size_t>(capacity / 32, 16 << 10, 1 << 20);
}

}  // namespace

Membuffer::Membuffer(size_t capacity, int partition_bits, int slots_per_bucket, EpochPool* pool)
    : capacity_(capacity),
      partition_bits_(partition_bits),
      partitions_(size_t{1} << partition_bits),
      buckets_per_partition_(BucketCount(capacity, size_t{1} << partition_bits)),
      bucket_mask_(buckets_per_partition_ - 1),
      slots_(std::clamp(slots_per_bucket, 1, kMaxSlots)),
      bucket_memory_(AllocateHugePageBuffer(partitions_ * buckets_per_partition_ * sizeof(Bucket))),
      buckets_(reinterpret_cast<Bucket*>(bucket_memory_.get())),
      table_bytes_(partitions_ * buckets_per_partition_ * sizeof(Bucket) + sizeof(*this) +
                   partitions_ * sizeof(PartitionStats) + kPendingSlots * sizeof(PendingBytes)),
      budget_(capacity),
      stats_(new PartitionStats[partitions_]),
      pending_limit_(
          static_cast<int64_t>(std::min<size_t>((capacity >> partition_bits) >> 10, 16 << 10))),
      pending_(new PendingBytes[kPendingSlots]),
      own_pool_(pool == nullptr ? std::make_unique<EpochPool>(PoolBlockSize(capacity)) : nullptr),
      pool_(pool != nullptr ? pool : own_pool_.get()) {
  const size_t words = (partitions_ * buckets_per_partition_ + 63) / 64;
  occupied_.reset(new std::atomic<uint64_t>[words]);
  for (size_t i = 0; i < words; i++) occupied_[i].store(0, std::memory_order_relaxed);
  for (size_t i = 0; i < partitions_ * buckets_per_partition_; i++) {
    new (&buckets_[i]) Bucket();
    for (auto& slot : buckets_[i].slots) slot.store(nullptr, std::memory_order_relaxed);
  }
}

Membuffer::~Membuffer() {
  // Not concurrent with anything (the component is being destroyed after a grace period).
  // The pool's blocks go with the pool; entries larger than its records live on the heap. No
  // entry left in a slot is in a chain of the sorted level: a drainer takes what it links out
  // of its slot before its batch ends (flodb_record.h).
  if (NumEntries() == 0) return;  // the usual case: it was drained
  for (size_t i = 0; i < partitions_ * buckets_per_partition_; i++) {
    for (auto& slot : buckets_[i].slots) {
      MembufferEntry* e = slot.load(std::memory_order_relaxed);
      if (e != nullptr) pool_->FreeIfOnHeap(e, e->AllocatedSize());
    }
  }
}

uint64_t Membuffer::PartitionOf(const Slice& key) const {
  if (partition_bits_ == 0) return 0;
  return KeyPrefix64(key) >> (64 - partition_bits_);  // the key's most significant bits
}

void Membuffer::AccountInPlace(uint64_t partition, int64_t bytes) {
  const uint32_t slot = ThreadSlot();
  if (slot >= kPendingSlots) {
    stats_[partition].bytes.fetch_add(bytes, std::memory_order_relaxed);
    return;
  }
  PendingBytes& pending = pending_[slot];
  const uint64_t pending_partition = pending.partition.load(std::memory_order_relaxed);
  int64_t sum = pending.bytes.load(std::memory_order_relaxed);
  if (pending_partition != partition) {
    if (sum != 0) stats_[pending_partition].bytes.fetch_add(sum, std::memory_order_relaxed);
    pending.partition.store(partition, std::memory_order_relaxed);
    sum = 0;
  }
  sum += bytes;
  if (sum > pending_limit_ || sum < -pending_limit_) {
    stats_[partition].bytes.fetch_add(sum, std::memory_order_relaxed);
    sum = 0;
  }
  pending.bytes.store(sum, std::memory_order_relaxed);
}

size_t Membuffer::EntryBytes() const {
  int64_t sum = 0;
  for (size_t p = 0; p < partitions_; p++) sum += stats_[p].bytes.load(std::memory_order_relaxed);
  return sum > 0 ? static_cast<size_t>(sum) : 0;
}

uint64_t Membuffer::NumEntries() const {
  int64_t sum = 0;
  for (size_t p = 0; p < partitions_; p++) {
    // acquire: pairs with RemoveDrained's release decrement (see FloDBComponent).
    sum += stats_[p].entries.load(std::memory_order_acquire);
  }
  return sum > 0 ? static_cast<uint64_t>(sum) : 0;
}

bool Membuffer::AnyEntriesSeqCst() const {
  for (size_t p = 0; p < partitions_; p++) {
    if (stats_[p].entries.load(std::memory_order_seq_cst) != 0) return true;
  }
  return false;
}

bool Membuffer::IsEmpty() const {
  // acquire: pairs with the release of RemoveDrained's bucket unlock; once every partition
  // reads zero after the last add has finished, every entry has been removed.
  for (size_t p = 0; p < partitions_; p++) {
    if (stats_[p].entries.load(std::memory_order_acquire) != 0) return false;
  }
  return true;
}

bool Membuffer::Get(const Slice& key, uint64_t hash, SequenceNumber read_seq, MemoryLookup* result,
                    bool* shadowed) const {
  *shadowed = false;
  const Bucket* b = BucketFor(key, hash);
  for (int i = 0; i < slots_; i++) {
    // acquire: pairs with the release store that published the entry.
    const MembufferEntry* e = b->slots[i].load(std::memory_order_acquire);
    if (e == nullptr || e->hash != hash || e->key() != key) continue;
    if (e->sequence() > read_seq) {
      *shadowed = true;
      return false;
    }
    result->sequence = e->sequence();
    result->type = e->type();
    if (e->type() == kTypeValue) {
      result->value.assign(e->value().data(), e->value().size());
    } else {
      result->value.clear();
    }
    return true;
  }
  return false;
}

void Membuffer::CollectBucket(Bucket* b, std::vector<MembufferEntry*>* out,
                              SequenceNumber max_seq) {
  bool left = false;
  Lock(b);
  for (int s = 0; s < slots_; s++) {
    MembufferEntry* e = b->slots[s].load(std::memory_order_relaxed);
    if (e == nullptr || e->draining.load(std::memory_order_relaxed)) continue;
    if (e->sequence() > max_seq) {
      left = true;
      continue;
    }
    // Marked under the lock: this drainer is the entry's only mover.
    e->draining.store(true, std::memory_order_relaxed);
    out->push_back(e);
  }
  if (left) MarkOccupied(b);  // entries above max_seq stay: keep the bucket flagged
  Unlock(b);
}

void Membuffer::CollectChunk(size_t partition, size_t max_entries,
                             std::vector<MembufferEntry*>* out, SequenceNumber max_seq) {
  const size_t first = partition * buckets_per_partition_;
  const size_t last = first + buckets_per_partition_;
  const size_t first_word = first / 64;
  const size_t words = (last + 63) / 64 - first_word;
  const size_t start = stats_[partition].cursor.fetch_add(1, std::memory_order_relaxed) % words;
  const size_t wanted = out->size() + max_entries;
  for (size_t n = 0; n < words && out->size() < wanted; n++) {
    const size_t w = first_word + (start + n) % words;
    const uint64_t flagged = occupied_[w].load(std::memory_order_relaxed);
    // A bucket and each of its entries are a cache miss apiece (the Membuffer is far larger
    // than the cache): fetch the word's buckets, then their entries (relaxed loads of the
    // slots: only a hint, CollectBucket reads them again under the lock), then collect.
    for (uint64_t bits = flagged; bits != 0; bits &= bits - 1) {
      __builtin_prefetch(&buckets_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))], 1);
    }
    for (uint64_t bits = flagged; bits != 0; bits &= bits - 1) {
      const Bucket& b = buckets_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))];
      for (int s = 0; s < slots_; s++) {
        const MembufferEntry* e = b.slots[s].load(std::memory_order_relaxed);
        if (e != nullptr) __builtin_prefetch(e, 1);
      }
    }
    for (uint64_t bits = flagged; bits != 0; bits &= bits - 1) {
      const size_t index = w * 64 + static_cast<size_t>(__builtin_ctzll(bits));
      if (index < first || index >= last) continue;
      // Cleared before CollectBucket takes the bucket lock: a writer whose critical section
      // follows reads the bit clear and sets it again (see MarkOccupied).
      occupied_[w].fetch_and(~(uint64_t{1} << (index % 64)), std::memory_order_relaxed);
      CollectBucket(&buckets_[index], out, max_seq);
    }
    // Where the next chunk of this partition starts (approximately: chunks may overlap).
    stats_[partition].cursor.store((start + n + 1) % words, std::memory_order_relaxed);
  }
}

bool Membuffer::RemoveDrained(MembufferEntry* entry) {
  const uint64_t partition = PartitionOf(entry->key());
  Bucket* b = BucketIn(partition, entry->hash);
  Lock(b);
  for (int i = 0; i < slots_; i++) {
    if (b->slots[i].load(std::memory_order_relaxed) == entry) {
      b->slots[i].store(nullptr, std::memory_order_release);
      if (entry->sequence() > b->max_out_seq) b->max_out_seq = entry->sequence();
      // Counted before the unlock (release), so IsEmpty never reads zero while it is here.
      stats_[partition].bytes.fetch_sub(static_cast<int64_t>(entry->Charge()),
                                        std::memory_order_relaxed);
      stats_[partition].entries.fetch_sub(1, std::memory_order_release);
      Unlock(b);
      return true;
    }
  }
  Unlock(b);
  return false;
}

}  // namespace sluice
