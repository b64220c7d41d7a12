// memory/flodb/sorted_level.h — FloDB's sorted level (the paper's Memtable): a lock-free
// skiplist with one node per user key, each node holding a chain of versions, newest first.
//
// Versions are FloDB records (flodb_record.h): made here for writes that come straight down,
// or handed over whole by the drain (Link / MultiLink), which moves a Membuffer entry without
// copying it. A write of a key that is already present replaces the newest version in place
// (one CAS on the node's head; the replaced version is retired to the records' pool, which
// reuses it only after an epoch grace period, util/epoch_pool.h) unless a reader may still
// need it (keep(older_seq, newer_seq) says so, or the write belongs to a multi-update batch),
// in which case the old version stays in the chain behind the new one. A version older than
// the newest (a writer that was overtaken) is linked at its place in the chain if a reader
// may need it (keep says so, or the version just above it belongs to a multi-update batch,
// which point reads pass over while it is in flight), and dropped otherwise. Nodes are never removed.
//
// Chain invariants and memory ordering:
//   * Sequence numbers strictly decrease along a chain; versions are immutable once linked,
//     except for their `older` link.
//   * A version is published by a release CAS (on the node's head or a predecessor's `older`)
//     after its fields are written; readers follow links with acquire loads.
//   * Only the head is ever unlinked. Before unlinking it, the replacer marks the head's `older`
//     link (low bit), so a concurrent insert below the head (a CAS on that link) fails and
//     retries; the mark is cleared if the head CAS then fails.
// MultiLink is FloDB's multi-insert: a sorted batch of distinct keys is located with path
// sharing (ConcurrentSkipList::MultiFindOrInsert), then each version is linked as above.
//
// Keys the level holds and updates again and again are found without a search, through a hash
// index of their nodes (node_index.h): their drain, or a read of them, costs a probe or two. A
// node is indexed when a write finds it already there; fresh keys cost an empty probe. A read
// of a key the level does not hold at all is answered by a Bloom filter of the nodes' keys
// (util/concurrent_bloom.h), without a search.

#ifndef SLUICE_MEMORY_FLODB_SORTED_LEVEL_H_
#define SLUICE_MEMORY_FLODB_SORTED_LEVEL_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/internal_key.h"
#include "memory/concurrent_skiplist.h"
#include "memory/flodb/flodb_record.h"
#include "memory/flodb/flodb_stats.h"
#include "memory/flodb/node_index.h"
#include "memory/memory_component.h"
#include "util/arena.h"
#include "util/concurrent_bloom.h"
#include "util/epoch_pool.h"

namespace sluice {

class SortedLevel {
 public:
  // Whether a version with sequence `older` must stay readable once one with `newer` exists.
  using KeepFn = std::function<bool(SequenceNumber older, SequenceNumber newer)>;

  struct Update {
    Slice key;
    SequenceNumber sequence;
    ValueType type;
    Slice value;
    bool keep_older;  // part of a multi-update batch: never replace the previous version
  };

  // stats: shared counters, not owned (must outlive the memtable). pool: where versions come
  // from and go back to (not owned; the Membuffer that drains into this level must share it);
  // null: a pool of its own. index_slots: the node index's size (node_index.h; it indexes up
  // to three quarters of that many updated keys, the rest are found by searching the skiplist).
  // filter_bytes: the size of the Bloom filter of the level's keys (0: none), which lets a read
  // of a key the level does not hold skip the skiplist search.
  SortedLevel(size_t arena_block_size, KeepFn keep, FloDBStats* stats, EpochPool* pool = nullptr,
              size_t index_slots = kDefaultIndexSlots, size_t filter_bytes = 0);
  static constexpr size_t kDefaultIndexSlots = size_t{1} << 16;
  // The hash the level indexes keys by: a handed-over record's `hash` (flodb_record.h).
  static uint64_t HashKey(const Slice& key) { return FloDBRecord::HashKey(key); }
  ~SortedLevel();
  SortedLevel(const SortedLevel&) = delete;
  SortedLevel& operator=(const SortedLevel&) = delete;

  // Thread-safe, lock-free.
  void Apply(const Update& u);

  // Links records made by the Membuffer that shares this level's pool, as they are (the drain's
  // hand-over, flodb_record.h). Each record linked belongs to the level from then on; one the
  // chain drops (a newer version is there, or the same one) is appended to *dropped: it was
  // published, so its owner retires it once no slot holds it. REQUIRES: records sorted by key
  // ascending, keys distinct, none linked before, each with older == 0.
  void MultiLink(FloDBRecord* const* records, size_t n, std::vector<FloDBRecord*>* dropped);
  // One record, the same way; false if dropped.
  bool Link(FloDBRecord* record);

  // The newest version of key with sequence <= read_seq. REQUIRES: inside an epoch section.
  bool Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) const {
    return Get(key, HashKey(key), read_seq, result);
  }
  // The same, with the key's HashKey already computed.
  bool Get(const Slice& key, uint64_t hash, SequenceNumber read_seq, MemoryLookup* result) const;

  // Starts fetching the filter bits Get will read for a key of this hash (HashKey).
  void PrefetchForGet(uint64_t hash) const { filter_.PrefetchForRead(hash); }

  // Every version, in internal-key order. Each move copies the entry it lands on, so the
  // iterator is safe without holding an epoch section between calls.
  // stable: no version will ever be replaced again (no more writes), so the iterator may point
  // into the versions instead of copying them.
  std::unique_ptr<InternalIterator> NewIterator(bool stable = false) const;

  // The nodes' arena and every byte of the versions' pool (live, retired and free versions;
  // with a shared pool, the Membuffer's entries too).
  size_t ApproximateMemoryUsage() const {
    return arena_.MemoryUsage() + pool_->MemoryUsage() + index_.MemoryUsage() +
           filter_.MemoryUsage();
  }
  uint64_t NumVersions() const { return versions_.load(std::memory_order_relaxed); }

  // Node keys: [8-byte version-chain head][8-byte KeyPrefix64 of the key][fixed32 key length]
  // [key bytes]. Most comparisons end at the prefix (one integer compare); the rest compare the
  // bytes past the first 8. Probes have the same layout (with a zero head).
  static constexpr size_t kNodeHeader = 8 + 8 + 4;  // head, prefix, length
  struct NodeKeyComparator {
    int operator()(const char* a, const char* b) const;
  };
  using List = ConcurrentSkipList<NodeKeyComparator>;

  using Version = FloDBRecord;

 private:
  friend class SortedLevelIterator;

  Version* NewVersion(const Update& u);
  // A version that ApplyToNode dropped and that nobody ever saw: reused at once.
  void FreeVersion(Version* v);
  // Finds or makes key's node and applies v there (Apply's and Link's path); false if the
  // chain dropped v (the caller's to free or retire). hash: HashKey(key).
  bool LinkOne(const Slice& key, uint64_t hash, Version* v);
  // The node of key through the index, else through the skiplist, made (and indexed) if
  // missing.
  const char* FindOrMakeNode(const Slice& key, uint64_t hash);

  // What ApplyToNode did with v.
  enum class Applied {
    kLinked,     // the first version of its key, or inserted below a newer one
    kKeptOlder,  // the newest; the previous head stays behind it for readers
    kReplaced,   // the newest; the previous head was unlinked and retired
    kOvertaken,  // dropped: a newer version hides it from every reader
    kSame,       // dropped: the chain has this version already
  };
  // Outcomes of a batch, settled into the counters once (shared lines, written once a batch).
  struct Tally {
    uint64_t kept = 0, replaced = 0, overtaken = 0, same = 0;
    bool Count(Applied a);  // true if v is linked
  };
  // Links v into the chain whose head is at `head` (see the chain invariants). Counters are
  // the caller's (AddVersions before, Settle after); a dropped v is the caller's to free or
  // retire.
  Applied ApplyToNode(std::atomic<uintptr_t>* head, Version* v);
  // n versions about to be applied count as versions from now on.
  void AddVersions(size_t n);
  void Settle(const Tally& tally);
  // The node of each of n keys (sorted ascending, distinct), made if missing (then (*made)[i]
  // is 1), in a thread-local vector reused between calls.
  template <typename KeyAt, typename HashAt>
  const std::vector<const char*>& FindOrMakeNodes(size_t n, KeyAt&& key_at, HashAt&& hash_at,
                                                  std::vector<uint8_t>* made);
  // Adds hash (HashKey(key)) to the filter before the node can be published.
  const char* MakeNode(const Slice& key, uint64_t hash);
  static void EncodeProbe(const Slice& key, std::string* probe);
  static void EncodeNodeHeader(const Slice& key, char* dst);
  const char* FindNode(const Slice& key) const;
  static Slice NodeUserKey(const char* node_key);

  ConcurrentArena arena_;
  List list_;
  NodeIndex index_;
  ConcurrentBloom filter_;  // the hash of every node's key (added before the node is linked)
  KeepFn keep_;
  std::atomic<uint64_t> versions_{0};
  FloDBStats* const stats_;
  const std::unique_ptr<EpochPool> own_pool_;  // null when given a pool
  EpochPool* const pool_;                      // the versions
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_FLODB_SORTED_LEVEL_H_
