// util/cache.cc — the sharded LRU cache (see cache.h).
//
// Each shard keeps its entries in a chained hash table that owns them (HandleTable: the chains
// are unique_ptr links inside the entries, so a lookup walks no separate nodes and hashes the
// key once), plus an intrusive doubly linked LRU list threaded through the entries that are in
// the cache and unreferenced (oldest first).
// Referenced entries are off the list, so eviction never considers them. An entry that leaves
// the table while referenced moves to the shard's `detached_` map, which owns it until its last
// Release. Values are destroyed outside the shard mutex so a deleter may itself use a cache.

#include "util/cache.h"

#include <atomic>
#include <cassert>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "util/hash.h"
#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

Cache::~Cache() = default;

namespace {

// Links of the LRU list; the list head is a bare node, every other node is a Cache::Handle.
struct LruNode {
  LruNode* prev = this;
  LruNode* next = this;
};

}  // namespace

struct Cache::Handle : LruNode {
  Handle(const Slice& k, void* v, size_t c, Deleter d, uint64_t h)
      : key(k.data(), k.size()), value(v), deleter(d), charge(c), hash(h) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { deleter(key, value); }

  const std::string key;
  void* const value;
  const Deleter deleter;
  const size_t charge;
  const uint64_t hash;
  uint32_t refs = 0;      // handles held by callers
  bool in_cache = false;  // in the shard's table (and, when refs == 0, on its LRU list)
  // The next entry of its hash chain while in the table; of a Garbage list after.
  std::unique_ptr<Handle> next_hash;
};

namespace {

using Entry = Cache::Handle;
using EntryPtr = std::unique_ptr<Entry>;

// Entries to destroy once the shard's mutex is released (a deleter may use a cache), linked
// through next_hash: collecting them allocates nothing.
class Garbage {
 public:
  Garbage() = default;
  Garbage(const Garbage&) = delete;
  Garbage& operator=(const Garbage&) = delete;
  ~Garbage() {
    while (head_ != nullptr) head_ = std::move(head_->next_hash);  // iterative: no deep recursion
  }
  void Add(EntryPtr e) {
    e->next_hash = std::move(head_);
    head_ = std::move(e);
  }

 private:
  EntryPtr head_;
};

// A hash table of entries, chained through Entry::next_hash, keyed by (hash, key). Grows to
// keep at most one entry per bucket on average, so chains stay short. Not thread-safe.
class HandleTable {
 public:
  HandleTable() : buckets_(kInitialBuckets) {}
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;
  ~HandleTable() {
    for (EntryPtr& head : buckets_) {
      while (head != nullptr) head = std::move(head->next_hash);
    }
  }

  // The link that points at the entry for key, or the null link ending its chain.
  EntryPtr* Find(std::string_view key, uint64_t hash) {
    EntryPtr* link = &buckets_[hash & (buckets_.size() - 1)];
    while (*link != nullptr && ((*link)->hash != hash || (*link)->key != key)) {
      link = &(*link)->next_hash;
    }
    return link;
  }
  // The link that points at e, an entry of the table: found by identity, so the walk reads
  // only the chain's links, never a key.
  EntryPtr* LinkTo(const Entry* e) {
    EntryPtr* link = &buckets_[e->hash & (buckets_.size() - 1)];
    while (link->get() != e) {
      assert(*link != nullptr && "the entry is not in its bucket's chain");
      link = &(*link)->next_hash;
    }
    return link;
  }
  // Adds e, whose key is not in the table.
  void Add(EntryPtr e) {
    EntryPtr& head = buckets_[e->hash & (buckets_.size() - 1)];
    e->next_hash = std::move(head);
    head = std::move(e);
    if (++size_ > buckets_.size()) Grow();
  }
  // Unlinks and returns the entry *link points at (a link Find returned, not null).
  EntryPtr Remove(EntryPtr* link) {
    EntryPtr e = std::move(*link);
    *link = std::move(e->next_hash);
    size_--;
    return e;
  }
  size_t size() const { return size_; }
  template <typename Fn>
  void ForEach(Fn fn) const {
    for (const EntryPtr& head : buckets_) {
      for (const Entry* e = head.get(); e != nullptr; e = e->next_hash.get()) fn(*e);
    }
  }

 private:
  static constexpr size_t kInitialBuckets = 16;  // a power of two, as every size after

  void Grow() {
    std::vector<EntryPtr> bigger(buckets_.size() * 2);
    for (EntryPtr& head : buckets_) {
      while (head != nullptr) {
        EntryPtr e = std::move(head);
        head = std::move(e->next_hash);
        EntryPtr& dest = bigger[e->hash & (bigger.size() - 1)];
        e->next_hash = std::move(dest);
        dest = std::move(e);
      }
    }
    buckets_.swap(bigger);
  }

  std::vector<EntryPtr> buckets_;
  size_t size_ = 0;
};

class alignas(64) LRUShard {
 public:
  LRUShard() = default;
  LRUShard(const LRUShard&) = delete;
  LRUShard& operator=(const LRUShard&) = delete;
  ~LRUShard() {
    assert(detached_.empty() && "a Cache::Handle was not released before the cache died");
    table_.ForEach([](const Entry& e) {
      assert(e.refs == 0 && "a Cache::Handle was not released before the cache died");
    });
  }

  void set_capacity(size_t capacity) {
    MutexLock lock(&mu_);
    capacity_ = capacity;
  }

  Entry* Insert(const Slice& key, uint64_t hash, void* value, size_t charge,
                Cache::Deleter deleter) {
    auto entry = std::make_unique<Entry>(key, value, charge, deleter, hash);
    Entry* const raw = entry.get();
    raw->refs = 1;
    Garbage garbage;  // destroyed after the lock is released
    {
      MutexLock lock(&mu_);
      if (capacity_ == 0) {
        // Nothing is cached: the entry lives only as long as the caller's handle.
        detached_.emplace(raw, std::move(entry));
      } else {
        EntryPtr* link = table_.Find(raw->key, hash);
        if (*link != nullptr) RemoveFromTable(link, &garbage);
        raw->in_cache = true;
        usage_ += charge;
        table_.Add(std::move(entry));
        EvictOverflow(&garbage);
      }
    }
    return raw;
  }

  Entry* Lookup(const Slice& key, uint64_t hash) {
    MutexLock lock(&mu_);
    Entry* e = table_.Find(key.ToStringView(), hash)->get();
    if (e == nullptr) {
      misses_.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    if (e->refs == 0) Unlink(e);
    e->refs++;
    hits_.fetch_add(1, std::memory_order_relaxed);
    return e;
  }

  void Release(Entry* e) {
    Garbage garbage;
    {
      MutexLock lock(&mu_);
      assert(e->refs > 0);
      if (--e->refs > 0) return;
      if (e->in_cache) {
        Append(e);
        EvictOverflow(&garbage);
      } else {
        auto it = detached_.find(e);
        assert(it != detached_.end());
        garbage.Add(std::move(it->second));
        detached_.erase(it);
      }
    }
  }

  void Erase(const Slice& key, uint64_t hash) {
    Garbage garbage;
    {
      MutexLock lock(&mu_);
      EntryPtr* link = table_.Find(key.ToStringView(), hash);
      if (*link != nullptr) RemoveFromTable(link, &garbage);
    }
  }

  size_t TotalCharge() const {
    MutexLock lock(&mu_);
    return usage_;
  }
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

 private:
  // Takes the entry *link points at out of the cache.
  void RemoveFromTable(EntryPtr* link, Garbage* garbage) REQUIRES(mu_) {
    EntryPtr owned = table_.Remove(link);
    Entry* e = owned.get();
    e->in_cache = false;
    usage_ -= e->charge;
    if (e->refs == 0) {
      Unlink(e);
      garbage->Add(std::move(owned));
    } else {
      detached_.emplace(e, std::move(owned));
    }
  }

  // Evicts unreferenced entries, oldest first, until the charge fits.
  void EvictOverflow(Garbage* garbage) REQUIRES(mu_) {
    while (usage_ > capacity_ && lru_.next != &lru_) {
      Entry* oldest = static_cast<Entry*>(lru_.next);
      RemoveFromTable(table_.LinkTo(oldest), garbage);
    }
  }

  // Makes e the most recently used unreferenced entry.
  void Append(Entry* e) REQUIRES(mu_) {
    e->next = &lru_;
    e->prev = lru_.prev;
    e->prev->next = e;
    e->next->prev = e;
  }
  static void Unlink(Entry* e) {
    e->next->prev = e->prev;
    e->prev->next = e->next;
    e->prev = e->next = e;
  }

  // Also guards the entries' refs, in_cache and LRU links (which the analysis cannot see).
  mutable Mutex mu_;
  size_t capacity_ GUARDED_BY(mu_) = 0;
  size_t usage_ GUARDED_BY(mu_) = 0;   // charge of the entries in table_
  HandleTable table_ GUARDED_BY(mu_);  // entries in the cache (owned)
  LruNode lru_ GUARDED_BY(mu_);        // unreferenced entries of table_, oldest at lru_.next
  // Out of the cache, still referenced.
  std::unordered_map<Entry*, EntryPtr> detached_ GUARDED_BY(mu_);
  std::atomic<uint64_t> hits_{0};
  std::atomic<uint64_t> misses_{0};
};

class ShardedLRUCache final : public Cache {
 public:
  ShardedLRUCache(size_t capacity, int num_shard_bits)
      : capacity_(capacity),
        shard_bits_(num_shard_bits),
        shards_(std::make_unique<LRUShard[]>(size_t{1} << num_shard_bits)) {
    const size_t n = size_t{1} << num_shard_bits;
    const size_t per_shard = capacity / n + (capacity % n != 0 ? 1 : 0);
    for (size_t i = 0; i < n; i++) shards_[i].set_capacity(per_shard);
  }

  Handle* Insert(const Slice& key, void* value, size_t charge, Deleter deleter) override {
    const uint64_t hash = Hash64(key);
    return ShardFor(hash).Insert(key, hash, value, charge, deleter);
  }
  Handle* Lookup(const Slice& key) override {
    const uint64_t hash = Hash64(key);
    return ShardFor(hash).Lookup(key, hash);
  }
  void Release(Handle* handle) override { ShardFor(handle->hash).Release(handle); }
  void* Value(Handle* handle) override { return handle->value; }
  void Erase(const Slice& key) override {
    const uint64_t hash = Hash64(key);
    ShardFor(hash).Erase(key, hash);
  }
  uint64_t NewId() override { return last_id_.fetch_add(1, std::memory_order_relaxed) + 1; }

  size_t TotalCharge() const override {
    size_t total = 0;
    for (size_t i = 0; i < num_shards(); i++) total += shards_[i].TotalCharge();
    return total;
  }
  size_t Capacity() const override { return capacity_; }
  uint64_t Hits() const override {
    uint64_t total = 0;
    for (size_t i = 0; i < num_shards(); i++) total += shards_[i].hits();
    return total;
  }
  uint64_t Misses() const override {
    uint64_t total = 0;
    for (size_t i = 0; i < num_shards(); i++) total += shards_[i].misses();
    return total;
  }

 private:
  size_t num_shards() const { return size_t{1} << shard_bits_; }
  LRUShard& ShardFor(uint64_t hash) {
    return shards_[shard_bits_ == 0 ? 0 : static_cast<size_t>(hash >> (64 - shard_bits_))];
  }

  const size_t capacity_;
  const int shard_bits_;
  std::unique_ptr<LRUShard[]> shards_;
  std::atomic<uint64_t> last_id_{0};
};

}  // namespace

int BlockCacheShardBits(size_t capacity) {
  constexpr size_t kMinShardBytes = 512 << 10;
  constexpr int kMaxBits = 6;
  int bits = 0;
  while (bits < kMaxBits && (capacity >> (bits + 1)) >= kMinShardBytes) bits++;
  return bits;
}

std::shared_ptr<Cache> NewLRUCache(size_t capacity, int num_shard_bits) {
  if (num_shard_bits < 0) num_shard_bits = BlockCacheShardBits(capacity);
  if (num_shard_bits > 16) num_shard_bits = 16;
  return std::make_shared<ShardedLRUCache>(capacity, num_shard_bits);
}

}  // namespace sluice
