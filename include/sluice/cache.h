// sluice/cache.h — a thread-safe, sharded LRU cache from byte-string keys to type-erased
// values. One object can be the block cache of many databases (DBOptions::block_cache), as
// RocksDB's Cache is: each table's blocks are keyed by an id the cache hands out (NewId), so
// databases sharing a cache never see each other's blocks, and the capacity bounds them all.
//
// Invariants:
//   * An entry's value is destroyed (its deleter runs) exactly once, when the entry has left the
//     cache (evicted, erased or replaced) AND no Handle refers to it any more.
//   * TotalCharge() is the sum of the charges of the entries currently in the cache (referenced
//     or not); entries that have left the cache but are still referenced are not counted.
//   * Only unreferenced entries are evicted, least recently released first, while a shard's
//     charge exceeds its share of the capacity. A referenced entry is never freed.
//   * Capacity 0 caches nothing: Insert still returns a usable handle, and the value is deleted
//     when that handle is released.
//
// Every Handle returned by Insert or Lookup must be passed to Release exactly once, and all
// handles must be released before the cache is destroyed (a database releases its own when it
// closes; the blocks it left in a shared cache are plain values, evicted in their turn).

#ifndef SLUICE_CACHE_H_
#define SLUICE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "sluice/slice.h"

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class Cache {
 public:
  struct Handle;  // opaque
  // Destroys a value once it has left the cache and is unreferenced. The type-erased
  // (void* value, deleter) pair is how the cache owns values of any type.
  using Deleter = void (*)(const Slice& key, void* value);

  Cache() = default;
  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  virtual ~Cache();

  // Inserts key -> value, accounting `charge` against the capacity; the cache takes ownership
  // of value (deleter destroys it). Returns a handle the caller must Release. If the key is
  // already present, the old entry leaves the cache (and is deleted once unreferenced).
  virtual Handle* Insert(const Slice& key, void* value, size_t charge, Deleter deleter) = 0;
  // The entry for key (counted as a hit), or nullptr (counted as a miss). A non-null handle
  // must be Released.
  virtual Handle* Lookup(const Slice& key) = 0;
  virtual void Release(Handle* handle) = 0;
  // The value of a handle that has not been released yet.
  virtual void* Value(Handle* handle) = 0;
  // Removes key from the cache; its value is deleted once every handle to it is released.
  virtual void Erase(const Slice& key) = 0;
  // A fresh id (never 0, never returned twice by this cache), for key prefixes.
  virtual uint64_t NewId() = 0;
  virtual size_t TotalCharge() const = 0;
  virtual size_t Capacity() const = 0;
  // Lookups that found / did not find their key.
  virtual uint64_t Hits() const = 0;
  virtual uint64_t Misses() const = 0;
};

// An LRU cache of `capacity` (sum of charges) split into 2^num_shard_bits shards by the hash
// of the key, each with its own mutex and capacity / shards (rounded up). num_shard_bits < 0:
// as many shards as keep each at least 512 KiB, at most 64 (RocksDB's rule); values above 16
// are clamped to 16.
std::shared_ptr<Cache> NewLRUCache(size_t capacity, int num_shard_bits = -1);

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_CACHE_H_
