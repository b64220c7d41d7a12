// memory/flodb/sorted_level.cc — see sorted_level.h for the invariants.

#include "memory/flodb/sorted_level.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <new>
#include <optional>

#include "util/coding.h"
#include "util/cpu.h"
#include "util/epoch.h"

namespace sluice {

namespace {

constexpr uintptr_t kMarked = 1;

using Version = SortedLevel::Version;

Version* Ptr(uintptr_t raw) { return reinterpret_cast<Version*>(raw & ~kMarked); }

std::atomic<uintptr_t>* HeadOf(const char* node_key) {
  return reinterpret_cast<std::atomic<uintptr_t>*>(const_cast<char*>(node_key));
}

Slice UserKeyOf(const char* node_key) {
  return Slice(node_key + SortedLevel::kNodeHeader, DecodeFixed32(node_key + 16));
}

}  // namespace

int SortedLevel::NodeKeyComparator::operator()(const char* a, const char* b) const {
  const uint64_t pa = DecodeFixed64(a + 8), pb = DecodeFixed64(b + 8);
  if (pa != pb) return pa < pb ? -1 : 1;
  // Equal prefixes: the first min(8, length) bytes are equal, and a key shorter than 8 bytes is
  // a prefix of the other (its zero padding matched), so only bytes past 8 and the lengths are
  // left to compare.
  const uint32_t la = DecodeFixed32(a + 16), lb = DecodeFixed32(b + 16);
  if (la > 8 && lb > 8) {
    // The bytes past 8, shorter first on a tie (the same order as la against lb). Keys that
    // share their first 8 bytes, such as db_bench's zero-padded decimal keys, end here.
    return BytewiseCompare(Slice(a + kNodeHeader + 8, la - 8), Slice(b + kNodeHeader + 8, lb - 8));
  }
  return la < lb ? -1 : (la > lb ? 1 : 0);
}

SortedLevel::SortedLevel(size_t arena_block_size, KeepFn keep, FloDBStats* stats, EpochPool* pool,
                         size_t index_slots, size_t filter_bytes)
    : arena_(arena_block_size),
      list_(NodeKeyComparator(), &arena_),
      index_(index_slots, &SortedLevel::NodeUserKey),
      filter_(filter_bytes),
      keep_(std::move(keep)),
      stats_(stats),
      own_pool_(pool == nullptr ? std::make_unique<EpochPool>(arena_block_size) : nullptr),
      pool_(pool != nullptr ? pool : own_pool_.get()) {}

SortedLevel::~SortedLevel() {
  // Not concurrent with anything. The pool's blocks go with the pool; versions too large for
  // its records live on the heap and are freed here (handed-over records included: the chain
  // owns them).
  List::Iterator it(&list_);
  for (it.SeekToFirst(); it.Valid(); it.Next()) {
    Version* v = Ptr(HeadOf(it.key())->load(std::memory_order_relaxed));
    while (v != nullptr) {
      Version* older = Ptr(v->older.load(std::memory_order_relaxed));
      pool_->FreeIfOnHeap(v, v->AllocatedSize());
      v = older;
    }
  }
}

Slice SortedLevel::NodeUserKey(const char* node_key) { return UserKeyOf(node_key); }

Version* SortedLevel::NewVersion(const Update& u) {
  // No key: the node holds it.
  void* mem = pool_->Allocate(FloDBRecord::AllocationSize(0, u.value.size()));
  return FloDBRecord::Make(mem, /*hash=*/0, u.sequence, u.type, Slice(), u.value, u.keep_older);
}

void SortedLevel::AddVersions(size_t n) {
  versions_.fetch_add(n, std::memory_order_relaxed);
  stats_->versions_added.Add(n);
}

bool SortedLevel::Tally::Count(Applied a) {
  switch (a) {
    case Applied::kLinked: return true;
    case Applied::kKeptOlder: kept++; return true;
    case Applied::kReplaced: replaced++; return true;
    case Applied::kOvertaken: overtaken++; return false;
    case Applied::kSame: same++; return false;
  }
  return false;
}

void SortedLevel::Settle(const Tally& t) {
  // Versions that left the chains (replaced) or never entered them (dropped).
  const uint64_t gone = t.replaced + t.overtaken + t.same;
  if (gone != 0) versions_.fetch_sub(gone, std::memory_order_relaxed);
  if (t.kept != 0) stats_->versions_kept.Add(t.kept);
  if (t.replaced != 0) stats_->in_place_updates.Add(t.replaced);
  if (t.overtaken != 0) stats_->overtaken_dropped.Add(t.overtaken);
}

void SortedLevel::FreeVersion(Version* v) { pool_->Free(v, v->AllocatedSize()); }

void SortedLevel::EncodeNodeHeader(const Slice& key, char* dst) {
  EncodeFixed64(dst + 8, KeyPrefix64(key));
  EncodeFixed32(dst + 16, static_cast<uint32_t>(key.size()));
}

void SortedLevel::EncodeProbe(const Slice& key, std::string* probe) {
  probe->resize(kNodeHeader + key.size());
  char* p = probe->data();
  EncodeFixed64(p, 0);
  EncodeNodeHeader(key, p);
  std::memcpy(p + kNodeHeader, key.data(), key.size());
}

const char* SortedLevel::MakeNode(const Slice& key, uint64_t hash) {
  // Before the list links (publishes) the node: see ConcurrentBloom and Get.
  filter_.Add(hash);
  char* mem = list_.AllocateKey(kNodeHeader + key.size());
  new (mem) std::atomic<uintptr_t>(0);
  EncodeNodeHeader(key, mem);
  std::memcpy(mem + kNodeHeader, key.data(), key.size());
  return mem;
}

const char* SortedLevel::FindNode(const Slice& key) const {
  thread_local std::string probe;
  EncodeProbe(key, &probe);
  List::Iterator it(&list_);
  it.Seek(probe.data());
  if (!it.Valid() || UserKeyOf(it.key()) != key) return nullptr;
  return it.key();
}

SortedLevel::Applied SortedLevel::ApplyToNode(std::atomic<uintptr_t>* head, Version* v) {
  const SequenceNumber seq = v->sequence();
  for (;;) {
    // acquire: see the fields of the versions we are about to read.
    const uintptr_t h_raw = head->load(std::memory_order_acquire);
    Version* h = Ptr(h_raw);
    if (h == nullptr || seq > h->sequence()) {
      // v becomes the newest version.
      const bool drop = h != nullptr && !v->keep_older && !keep_(h->sequence(), seq);
      if (!drop) {
        v->older.store(h_raw, std::memory_order_relaxed);
        uintptr_t expected = h_raw;
        // release: publishes v's fields with the pointer.
        if (head->compare_exchange_strong(expected, reinterpret_cast<uintptr_t>(v),
                                          std::memory_order_release, std::memory_order_relaxed)) {
          return h != nullptr ? Applied::kKeptOlder : Applied::kLinked;
        }
        continue;
      }
      // Replace h in place: mark h's older link so nothing is inserted below h meanwhile.
      uintptr_t n = h->older.load(std::memory_order_acquire);
      if ((n & kMarked) != 0) {
        CpuRelax();  // another writer is replacing h
        continue;
      }
      if (!h->older.compare_exchange_strong(n, n | kMarked, std::memory_order_acq_rel)) continue;
      v->older.store(n, std::memory_order_relaxed);
      uintptr_t expected = h_raw;
      if (head->compare_exchange_strong(expected, reinterpret_cast<uintptr_t>(v),
                                        std::memory_order_release, std::memory_order_relaxed)) {
        // Readers inside an epoch section may still be on h: free it after they leave. h is in
        // no Membuffer slot: v is newer, and a newer version of a key is made only after its
        // entry left its slot (flodb_record.h).
        pool_->Retire(h, h->AllocatedSize());
        return Applied::kReplaced;
      }
      h->older.store(n, std::memory_order_release);  // unmark and retry
      continue;
    }
    if (seq == h->sequence()) return Applied::kSame;  // e.g. drained and pushed down
    // v is older than the newest: find its place in the chain.
    std::atomic<uintptr_t>* link = &h->older;
    Version* newer = h;
    bool restart = false;
    for (;;) {
      const uintptr_t n_raw = link->load(std::memory_order_acquire);
      if ((n_raw & kMarked) != 0) {
        restart = true;  // h is being replaced: start over from the head
        break;
      }
      Version* n = Ptr(n_raw);
      if (n == nullptr || seq > n->sequence()) {
        // A newer version of a multi-update batch (keep_older) does not hide it: a point read
        // passes over the batch's versions while the batch is in flight, so v (a write that
        // took its sequence number first and may already be acknowledged) must be there.
        if (!newer->keep_older && !keep_(seq, newer->sequence())) {
          // No reader can need a version this old: the newer one hides it from all of them.
          return Applied::kOvertaken;
        }
        v->older.store(n_raw, std::memory_order_relaxed);
        uintptr_t expected = n_raw;
        if (link->compare_exchange_strong(expected, reinterpret_cast<uintptr_t>(v),
                                          std::memory_order_release, std::memory_order_relaxed)) {
          return Applied::kLinked;
        }
        restart = true;
        break;
      }
      if (seq == n->sequence()) return Applied::kSame;
      newer = n;
      link = &n->older;
    }
    if (restart) continue;
  }
}

const char* SortedLevel::FindOrMakeNode(const Slice& key, uint64_t hash) {
  const char* node = index_.Find(key, hash);
  if (node != nullptr) {
    stats_->index_hits.Add(1);
    return node;
  }
  thread_local std::string probe;
  EncodeProbe(key, &probe);
  List::InsertStats local;
  bool made = false;
  node = list_.FindOrInsert(
      probe.data(),
      [&] {
        made = true;
        return MakeNode(key, hash);
      },
      &local);
  stats_->single_insert_keys.Add(1);
  stats_->single_insert_hops.Add(local.hops);
  if (!made) index_.Insert(hash, node);  // an update: the key may come again
  return node;
}

bool SortedLevel::LinkOne(const Slice& key, uint64_t hash, Version* v) {
  const char* node = FindOrMakeNode(key, hash);
  AddVersions(1);
  Tally tally;
  const bool linked = tally.Count(ApplyToNode(HeadOf(node), v));
  Settle(tally);
  return linked;
}

void SortedLevel::Apply(const Update& u) {
  Version* v = NewVersion(u);
  if (!LinkOne(u.key, HashKey(u.key), v)) FreeVersion(v);  // nobody saw it
}

bool SortedLevel::Link(FloDBRecord* record) {
  assert(record->older.load(std::memory_order_relaxed) == 0);
  assert(record->hash == HashKey(record->key()));
  return LinkOne(record->key(), record->hash, record);
}

template <typename KeyAt, typename HashAt>
const std::vector<const char*>& SortedLevel::FindOrMakeNodes(size_t n, KeyAt&& key_at,
                                                             HashAt&& hash_at,
                                                             std::vector<uint8_t>* made) {
  thread_local std::vector<std::string> probe_storage;
  thread_local std::vector<const char*> probes;
  thread_local std::vector<const char*> nodes;
  if (probe_storage.size() < n) probe_storage.resize(n);
  probes.resize(n);
  nodes.resize(n);
  made->assign(n, 0);
  for (size_t i = 0; i < n; i++) {
    EncodeProbe(key_at(i), &probe_storage[i]);
    probes[i] = probe_storage[i].data();
  }
  List::InsertStats local;
  list_.MultiFindOrInsert(
      probes.data(), n,
      [&](size_t i) {
        (*made)[i] = 1;
        return MakeNode(key_at(i), hash_at(i));
      },
      nodes.data(), &local);
  stats_->multi_insert_batches.Add(1);
  stats_->multi_insert_keys.Add(n);
  stats_->multi_insert_hops.Add(local.hops);
  stats_->multi_insert_levels_reused.Add(local.levels_reused);
  return nodes;
}

void SortedLevel::MultiLink(FloDBRecord* const* records, size_t n,
                            std::vector<FloDBRecord*>* dropped) {
  if (n == 0) return;
  AddVersions(n);  // counted before any is linked (see FloDBComponent::LevelCountSum)
  // Nodes through the index first (its slots fetched a few keys ahead), then the keys it does
  // not know through the skiplist, with path sharing; those whose node was there already are
  // being updated, and are indexed for the next time.
  thread_local std::vector<const char*> nodes;
  thread_local std::vector<size_t> missing;
  nodes.resize(n);
  missing.clear();
  // The records themselves are fetched twice as far ahead: the probe reads their hashes.
  constexpr size_t kProbeAhead = 16;
  for (size_t i = 0; i < std::min(n, 2 * kProbeAhead); i++) __builtin_prefetch(records[i]);
  for (size_t i = 0; i < std::min(n, kProbeAhead); i++) index_.Prefetch(records[i]->hash);
  for (size_t i = 0; i < n; i++) {
    if (i + 2 * kProbeAhead < n) __builtin_prefetch(records[i + 2 * kProbeAhead]);
    if (i + kProbeAhead < n) index_.Prefetch(records[i + kProbeAhead]->hash);
    assert(records[i]->hash == HashKey(records[i]->key()));
    nodes[i] = index_.Find(records[i]->key(), records[i]->hash);
    if (nodes[i] == nullptr) {
      missing.push_back(i);
      filter_.Prefetch(records[i]->hash);  // a new key's node adds it there (MakeNode)
    }
  }
  if (missing.size() < n) stats_->index_hits.Add(n - missing.size());
  if (!missing.empty()) {
    thread_local std::vector<uint8_t> made;
    const auto& found = FindOrMakeNodes(
        missing.size(), [&](size_t j) { return records[missing[j]]->key(); },
        [&](size_t j) { return records[missing[j]]->hash; }, &made);
    for (size_t j = 0; j < missing.size(); j++) {
      nodes[missing[j]] = found[j];
      if (made[j] == 0) index_.Insert(records[missing[j]]->hash, found[j]);
    }
  }
  Tally tally;
  // Each link reads the node's chain head, the version there and the record it links, three
  // cache misses once a large batch has pushed them out of the cache: fetch them ahead, the
  // node and the record kFar entries ahead and the version the node points to kNear entries
  // ahead (by then its head is in the cache).
  constexpr size_t kFar = 16, kNear = 8;
  for (size_t i = 0; i < std::min(n, kFar); i++) {
    __builtin_prefetch(nodes[i]);
    __builtin_prefetch(records[i], 1);
  }
  for (size_t i = 0; i < n; i++) {
    if (i + kFar < n) {
      __builtin_prefetch(nodes[i + kFar]);
      __builtin_prefetch(records[i + kFar], 1);
    }
    if (i + kNear < n) {
      // relaxed: only a hint; ApplyToNode loads the head again with acquire.
      __builtin_prefetch(Ptr(HeadOf(nodes[i + kNear])->load(std::memory_order_relaxed)));
    }
    assert(records[i]->older.load(std::memory_order_relaxed) == 0);
    if (!tally.Count(ApplyToNode(HeadOf(nodes[i]), records[i]))) dropped->push_back(records[i]);
  }
  Settle(tally);
}

bool SortedLevel::Get(const Slice& key, uint64_t hash, SequenceNumber read_seq,
                      MemoryLookup* result) const {
  // No node was made for a key the filter has not seen: no index probe, no search. The caller
  // reached here after whatever published the node it must see (the write's return, or the
  // drain's release when it removed the Membuffer entry), and the node's bits were set before
  // that. The filter goes first: most reads that reach a memory component are for keys it
  // does not hold, and each probe is a cache miss.
  if (!filter_.MayContain(hash)) return false;
  const char* node = index_.Find(key, hash);
  if (node == nullptr) {
    node = FindNode(key);
    if (node == nullptr) return false;
  }
  for (Version* v = Ptr(HeadOf(node)->load(std::memory_order_acquire)); v != nullptr;
       v = Ptr(v->older.load(std::memory_order_acquire))) {
    if (v->sequence() <= read_seq) {
      result->sequence = v->sequence();
      result->type = v->type();
      if (v->type() == kTypeValue) {
        result->value.assign(v->value().data(), v->value().size());
      } else {
        result->value.clear();
      }
      return true;
    }
  }
  return false;
}

// Positions are (node, trailer): nodes are never freed, versions are found again by trailer on
// every move, inside an epoch section, and copied out.
class SortedLevelIterator final : public InternalIterator {
 public:
  SortedLevelIterator(const SortedLevel::List* list, bool stable) : it_(list), stable_(stable) {}

  bool Valid() const override { return valid_; }
  Slice key() const override { return key_; }
  Slice value() const override { return stable_ ? stable_value_ : Slice(value_); }
  Status status() const override { return Status::OK(); }

  void SeekToFirst() override {
    epoch::Guard guard;
    it_.SeekToFirst();
    SettleForward();
  }
  void SeekToLast() override {
    epoch::Guard guard;
    it_.SeekToLast();
    SettleBackward();
  }
  void Seek(const Slice& target) override {
    epoch::Guard guard;
    const Slice user_key = ExtractUserKey(target);
    const uint64_t trailer = ExtractTrailer(target);
    SortedLevel::EncodeProbe(user_key, &probe_);
    it_.Seek(probe_.data());
    // Internal order puts larger trailers first: the first version with trailer <= target's.
    if (it_.Valid() && UserKeyOf(it_.key()) == user_key) {
      if (LandOn([&](uint64_t t) { return t <= trailer; }, /*first=*/true)) return;
      it_.Next();
    }
    SettleForward();
  }
  void Next() override {
    // A stable iterator reads an immutable level: no version of it is retired while it lives.
    std::optional<epoch::Guard> guard;
    if (!stable_) guard.emplace();
    const uint64_t current = trailer_;
    if (LandOn([&](uint64_t t) { return t < current; }, /*first=*/true)) return;
    it_.Next();
    SettleForward();
    // A flush reads every node in key order, which is not the order they were allocated in:
    // fetch the next node's newest version now, and the node after it (the skiplist does).
    if (valid_) {
      if (const char* next = it_.NextKeyPrefetchingAfter(); next != nullptr) {
        // relaxed: only a hint; the move there loads the head again with acquire.
        __builtin_prefetch(Ptr(HeadOf(next)->load(std::memory_order_relaxed)));
      }
    }
  }
  void Prev() override {
    epoch::Guard guard;
    const uint64_t current = trailer_;
    if (LandOn([&](uint64_t t) { return t > current; }, /*first=*/false)) return;
    it_.Prev();
    SettleBackward();
  }

 private:
  // On the current node, lands on the first (or last) version in chain order whose trailer
  // satisfies pred. False if there is none.
  template <typename Pred>
  bool LandOn(Pred pred, bool first) {
    const Version* found = nullptr;
    for (const Version* v = Ptr(HeadOf(it_.key())->load(std::memory_order_acquire)); v != nullptr;
         v = Ptr(v->older.load(std::memory_order_acquire))) {
      if (pred(v->trailer)) {
        found = v;
        if (first) break;
      }
    }
    if (found == nullptr) return false;
    Set(found);
    return true;
  }

  // The newest version of the first node with one, from the current node on.
  void SettleForward() {
    for (; it_.Valid(); it_.Next()) {
      const Version* v = Ptr(HeadOf(it_.key())->load(std::memory_order_acquire));
      if (v != nullptr) {
        Set(v);
        return;
      }
    }
    valid_ = false;
  }

  // The oldest version of the last node with one, from the current node back.
  void SettleBackward() {
    for (; it_.Valid(); it_.Prev()) {
      if (LandOn([](uint64_t) { return true; }, /*first=*/false)) return;
    }
    valid_ = false;
  }

  void Set(const Version* v) {
    valid_ = true;
    trailer_ = v->trailer;
    const Slice user_key = UserKeyOf(it_.key());
    key_.assign(user_key.data(), user_key.size());
    PutFixed64(&key_, trailer_);
    if (stable_) {
      stable_value_ = v->value();
    } else {
      value_.assign(v->value().data(), v->value().size());
    }
  }

  SortedLevel::List::Iterator it_;
  const bool stable_;
  Slice stable_value_;
  bool valid_ = false;
  uint64_t trailer_ = 0;
  std::string key_;
  std::string value_;
  std::string probe_;  // Seek's target in the node format, reused
};

std::unique_ptr<InternalIterator> SortedLevel::NewIterator(bool stable) const {
  return std::make_unique<SortedLevelIterator>(&list_, stable);
}

}  // namespace sluice
