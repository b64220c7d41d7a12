// memory/concurrent_skiplist.h — a lock-free skiplist that many threads insert into at once
// while others read, with no lock anywhere.
//
// Keys are opaque byte strings owned by the list's nodes (AllocateKey, fill, Insert) and
// ordered by Cmp, a functor `int operator()(const char* a, const char* b) const`. Nodes are
// allocated from a ConcurrentArena and never removed or freed individually: the whole list goes
// away with its arena. That makes reads simple: a reader follows next pointers with acquire
// loads and can never meet freed memory.
//
// Node layout (one arena allocation, 8-byte aligned):
//     [next(h-1)] ... [next(1)] [next(0)] [Node: height] [key bytes ...]
// so a key pointer leads back to its node and tower in O(1).
//
// Invariants and memory ordering:
//   * Each level is a sorted singly linked list; level i+1's nodes are a subset of level i's.
//   * A node is linked bottom-up, each level by one CAS on the predecessor's next pointer. The
//     new node's own next pointer is written (relaxed) before that CAS, and the CAS is a
//     release, so a reader that acquires the pointer to the node sees its key and next pointers.
//   * A node becomes a member of the set when it is linked at level 0; links at higher levels
//     only speed up searches. A failed CAS means a concurrent insert changed the neighbourhood:
//     the splice for that level is recomputed from the old predecessor (still a lower bound,
//     since nothing is ever removed).
//   * Two inserts of equal keys race at level 0: one CAS wins, the other sees the equal key
//     when it recomputes its splice and gives up (Insert returns false).
//   * max_height_ only grows (CAS); a reader that sees a stale, smaller value searches from a
//     lower level, which is still correct.

#ifndef SLUICE_MEMORY_CONCURRENT_SKIPLIST_H_
#define SLUICE_MEMORY_CONCURRENT_SKIPLIST_H_

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "util/arena.h"
#include "util/random.h"

namespace sluice {

template <typename Cmp>
class ConcurrentSkipList {
 private:
  struct Node;

 public:
  static constexpr int kMaxHeight = 20;
  static constexpr unsigned kBranching = 4;

  // height_limit (1..kMaxHeight): the tallest a node may be; the head has this height. A small
  // limit saves memory in lists expected to stay short (one per hash bucket); 1 makes the list
  // a sorted singly linked list.
  ConcurrentSkipList(Cmp cmp, ConcurrentArena* arena, int height_limit = kMaxHeight)
      : cmp_(cmp),
        arena_(arena),
        height_limit_(std::clamp(height_limit, 1, kMaxHeight)),
        head_(AllocateNode(0, height_limit_)) {
    for (int i = 0; i < height_limit_; i++) head_->SetNextRelaxed(i, nullptr);
  }
  ConcurrentSkipList(const ConcurrentSkipList&) = delete;
  ConcurrentSkipList& operator=(const ConcurrentSkipList&) = delete;

  // Returns room for a key of key_size bytes inside a new node with a random height. Fill it,
  // then pass the pointer to Insert(). Thread-safe.
  char* AllocateKey(size_t key_size) { return AllocateKey(key_size, RandomHeight(height_limit_)); }
  // The same with a chosen height (clamped to [1, height_limit]).
  char* AllocateKey(size_t key_size, int height) {
    return const_cast<char*>(AllocateNode(key_size, std::clamp(height, 1, height_limit_))->Key());
  }

  // A height drawn from the skiplist distribution (1 with probability 3/4, 2 with 3/16, ...),
  // at most limit. Thread-safe (a generator per thread).
  static int RandomHeight(int limit) {
    thread_local Random rnd(0xdecafbadull ^ reinterpret_cast<uintptr_t>(&rnd));
    int height = 1;
    while (height < limit && rnd.OneIn(kBranching)) height++;
    return height;
  }

  // Bytes of a node holding a key of key_size bytes at the given height (arena alignment
  // aside): its tower of next pointers, its header and the key.
  static constexpr size_t NodeBytes(size_t key_size, int height) {
    return sizeof(std::atomic<Node*>) * static_cast<size_t>(height) + sizeof(Node) + key_size;
  }
  int height_limit() const { return height_limit_; }

  // Links the node of `key` (from AllocateKey). Returns false, leaving the node unused, if an
  // equal key is already in the list. Thread-safe, lock-free.
  bool Insert(const char* key) {
    Node* x = Node::FromKey(key);
    const int height = x->height;
    // Raise the list's height if needed (relaxed: see the file comment).
    int max_height = max_height_.load(std::memory_order_relaxed);
    while (height > max_height) {
      if (max_height_.compare_exchange_weak(max_height, height, std::memory_order_relaxed)) {
        max_height = height;
        break;
      }
    }
    Node* prev[kMaxHeight];
    Node* next[kMaxHeight];
    Node* before = head_;
    for (int level = max_height - 1; level >= 0; level--) {
      FindSpliceForLevel(key, before, level, &prev[level], &next[level]);
      before = prev[level];
    }
    for (int level = 0; level < height; level++) {
      for (;;) {
        if (level == 0 && next[0] != nullptr && cmp_(next[0]->Key(), key) == 0) {
          return false;  // an equal key won the race (or was there before)
        }
        x->SetNextRelaxed(level, next[level]);
        if (prev[level]->CasNext(level, next[level], x)) break;
        FindSpliceForLevel(key, prev[level], level, &prev[level], &next[level]);
      }
    }
    return true;
  }

  // Statistics of FindOrInsert / MultiFindOrInsert (for FloDB's "path reuse" figures).
  struct InsertStats {
    uint64_t keys = 0;           // keys looked up
    uint64_t inserted = 0;       // of which linked as new nodes
    uint64_t hops = 0;           // next pointers followed while searching
    uint64_t levels_reused = 0;  // levels whose splice was kept from the previous key (no search)
  };

  // Returns the key of the node equal to `probe` (a key in the list's format), linking a new
  // node first if there is none: make_node() must return a key from AllocateKey, equal to
  // probe. make_node is called only when needed (at most once). Thread-safe, lock-free.
  template <typename MakeNode>
  const char* FindOrInsert(const char* probe, MakeNode&& make_node, InsertStats* stats = nullptr) {
    Node* prev[kMaxHeight];
    Node* next[kMaxHeight];
    for (int i = 0; i < kMaxHeight; i++) prev[i] = head_;
    return FindOrInsertFrom(probe, make_node, prev, next, /*reuse=*/false, stats);
  }

  // FloDB's multi-insert: FindOrInsert for probes[0..n), which must be sorted ascending and
  // distinct. The search for each probe starts from the predecessors found for the previous one
  // wherever they are further along (path sharing), so a batch of neighbouring keys costs far
  // fewer hops than n separate inserts. Concurrent with inserts and reads like FindOrInsert;
  // each element is linked atomically, the batch as a whole is not. out[i] receives the key of
  // the node of probes[i].
  template <typename MakeNodeAt>
  void MultiFindOrInsert(const char* const* probes, size_t n, MakeNodeAt&& make_node_at,
                         const char** out, InsertStats* stats = nullptr) {
    Node* prev[kMaxHeight];
    Node* next[kMaxHeight];
    for (int i = 0; i < kMaxHeight; i++) prev[i] = head_;
    for (size_t i = 0; i < n; i++) {
      auto make_node = [&] { return make_node_at(i); };
      out[i] = FindOrInsertFrom(probes[i], make_node, prev, next, /*reuse=*/i > 0, stats);
    }
  }

  bool Contains(const char* key) const {
    Node* x = FindGreaterOrEqual(key);
    return x != nullptr && cmp_(key, x->Key()) == 0;
  }

  // Iterates over the list; valid as long as the list is. Not thread-safe itself, but any
  // number of iterators may run concurrently with inserts.
  class Iterator {
   public:
    explicit Iterator(const ConcurrentSkipList* list) : list_(list), node_(nullptr) {}
    bool Valid() const { return node_ != nullptr; }
    const char* key() const {
      assert(Valid());
      return node_->Key();
    }
    void Next() {
      assert(Valid());
      node_ = node_->Next(0);
    }
    void Prev() {
      assert(Valid());
      node_ = list_->FindLessThan(node_->Key());
      if (node_ == list_->head_) node_ = nullptr;
    }
    // For a forward scan that is about to move on: the next node's key (nullptr at the end),
    // whose node the previous call started fetching, and starts fetching the node after it
    // (its level-0 link just before it, its key just after), so that each step's cache misses
    // overlap the steps before.
    const char* NextKeyPrefetchingAfter() const {
      assert(Valid());
      Node* next = node_->Next(0);
      if (next == nullptr) return nullptr;
      if (Node* after = next->Next(0); after != nullptr) {
        __builtin_prefetch(after->Slot(0));
        __builtin_prefetch(after->Key());
      }
      return next->Key();
    }
    void Seek(const char* target) { node_ = list_->FindGreaterOrEqual(target); }
    // Last key <= target.
    void SeekForPrev(const char* target) {
      Seek(target);
      if (!Valid()) {
        SeekToLast();
      }
      while (Valid() && list_->cmp_(target, node_->Key()) < 0) Prev();
    }
    void SeekToFirst() { node_ = list_->head_->Next(0); }
    void SeekToLast() {
      node_ = list_->FindLast();
      if (node_ == list_->head_) node_ = nullptr;
    }

   private:
    const ConcurrentSkipList* list_;
    Node* node_;
  };

 private:
  struct Node {
    uint32_t height;
    uint32_t unused;

    static Node* FromKey(const char* key) {
      return reinterpret_cast<Node*>(const_cast<char*>(key) - sizeof(Node));
    }
    const char* Key() const { return reinterpret_cast<const char*>(this) + sizeof(Node); }
    std::atomic<Node*>* Slot(int level) {
      assert(level < static_cast<int>(height));
      return reinterpret_cast<std::atomic<Node*>*>(this) - (level + 1);
    }
    // acquire: pairs with the release CAS that linked the successor.
    Node* Next(int level) { return Slot(level)->load(std::memory_order_acquire); }
    // relaxed: the node is not reachable yet; the linking CAS publishes this store.
    void SetNextRelaxed(int level, Node* x) { Slot(level)->store(x, std::memory_order_relaxed); }
    bool CasNext(int level, Node* expected, Node* x) {
      // release: publishes x's key and tower to readers that acquire the pointer.
      return Slot(level)->compare_exchange_strong(expected, x, std::memory_order_release,
                                                  std::memory_order_relaxed);
    }
  };

  Node* AllocateNode(size_t key_size, int height) {
    const size_t tower = sizeof(std::atomic<Node*>) * static_cast<size_t>(height);
    char* mem = arena_->Allocate(tower + sizeof(Node) + key_size);
    Node* node = reinterpret_cast<Node*>(mem + tower);
    node->height = static_cast<uint32_t>(height);
    node->unused = 0;
    return node;
  }

  // Sets *out_prev to the last node at `level` (starting from `before`, which must be less
  // than key) whose key is < key, and *out_next to its successor (>= key, or null).
  void FindSpliceForLevel(const char* key, Node* before, int level, Node** out_prev,
                          Node** out_next, InsertStats* stats = nullptr) const {
    Node* x = before;
    for (;;) {
      Node* next = x->Next(level);
      if (next == nullptr || cmp_(next->Key(), key) >= 0) {
        *out_prev = x;
        *out_next = next;
        return;
      }
      if (stats != nullptr) stats->hops++;
      x = next;
    }
  }

  // Core of FindOrInsert / MultiFindOrInsert. prev[] holds, per level, a node known to be
  // before the probe (the head, or the previous probe's predecessor: nodes are never removed,
  // so it stays a valid lower bound). On return prev[]/next[] bracket the probe at every level.
  template <typename MakeNode>
  const char* FindOrInsertFrom(const char* probe, MakeNode& make_node, Node** prev, Node** next,
                               bool reuse, InsertStats* stats) {
    if (stats != nullptr) stats->keys++;
    int max_height = max_height_.load(std::memory_order_relaxed);
    // Path sharing, part 1: the previous probe's splice still brackets this (larger) probe on
    // every level from the lowest one whose successor is not below the probe up (a higher
    // level's successor is never nearer), so those levels need no search. A node linked there
    // concurrently only makes the splice stale: the insertion's CAS then fails and the splice
    // is recomputed, as for any race.
    int kept = max_height;  // levels [kept, max_height) keep their splice
    if (reuse) {
      kept = 0;
      while (kept < max_height && next[kept] != nullptr && cmp_(next[kept]->Key(), probe) < 0) {
        kept++;
      }
      if (stats != nullptr) stats->levels_reused += static_cast<uint64_t>(max_height - kept);
    }
    Node* before = kept < max_height ? prev[kept] : head_;
    for (int level = kMaxHeight - 1; level >= 0; level--) {
      if (level >= max_height) {
        prev[level] = head_;
        next[level] = nullptr;
        continue;
      }
      if (level >= kept) continue;
      // Part 2: start from whichever is further along, the node found on the level above or
      // the previous probe's predecessor on this level.
      Node* start = before;
      if (reuse && prev[level] != head_ &&
          (before == head_ || cmp_(prev[level]->Key(), before->Key()) > 0)) {
        start = prev[level];
      }
      FindSpliceForLevel(probe, start, level, &prev[level], &next[level], stats);
      before = prev[level];
    }
    if (next[0] != nullptr && cmp_(next[0]->Key(), probe) == 0) return next[0]->Key();

    Node* x = Node::FromKey(make_node());
    const int height = static_cast<int>(x->height);
    while (height > max_height) {
      if (max_height_.compare_exchange_weak(max_height, height, std::memory_order_relaxed)) {
        max_height = height;
        break;
      }
    }
    for (int level = 0; level < height; level++) {
      for (;;) {
        if (level == 0 && next[0] != nullptr && cmp_(next[0]->Key(), probe) == 0) {
          return next[0]->Key();  // a concurrent insert won; our node stays unlinked
        }
        x->SetNextRelaxed(level, next[level]);
        if (prev[level]->CasNext(level, next[level], x)) break;
        FindSpliceForLevel(probe, prev[level], level, &prev[level], &next[level], stats);
      }
    }
    if (stats != nullptr) stats->inserted++;
    // The new node is now the predecessor bound for the next (larger) probe.
    for (int level = 0; level < height; level++) prev[level] = x;
    return x->Key();
  }

  Node* FindGreaterOrEqual(const char* key) const {
    Node* x = head_;
    int level = max_height_.load(std::memory_order_relaxed) - 1;
    for (;;) {
      Node* next = x->Next(level);
      if (next != nullptr && cmp_(next->Key(), key) < 0) {
        x = next;
      } else if (level == 0) {
        return next;
      } else {
        level--;
      }
    }
  }

  Node* FindLessThan(const char* key) const {
    Node* x = head_;
    int level = max_height_.load(std::memory_order_relaxed) - 1;
    for (;;) {
      Node* next = x->Next(level);
      if (next != nullptr && cmp_(next->Key(), key) < 0) {
        x = next;
      } else if (level == 0) {
        return x;
      } else {
        level--;
      }
    }
  }

  Node* FindLast() const {
    Node* x = head_;
    int level = max_height_.load(std::memory_order_relaxed) - 1;
    for (;;) {
      Node* next = x->Next(level);
      if (next != nullptr) {
        x = next;
      } else if (level == 0) {
        return x;
      } else {
        level--;
      }
    }
  }

  const Cmp cmp_;
  ConcurrentArena* const arena_;
  const int height_limit_;
  Node* const head_;
  std::atomic<int> max_height_{1};
};

}  // namespace sluice

#endif  // SLUICE_MEMORY_CONCURRENT_SKIPLIST_H_
