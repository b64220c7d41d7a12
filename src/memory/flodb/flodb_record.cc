// memory/flodb/flodb_record.cc — see flodb_record.h.

#include "memory/flodb/flodb_record.h"

#include <cstring>
#include <new>

#include "util/coding.h"
#include "util/hash.h"

namespace sluice {

uint64_t FloDBRecord::HashKey(const Slice& key) { return Hash64(key); }

FloDBRecord* FloDBRecord::Make(void* mem, uint64_t hash, SequenceNumber seq, ValueType type,
                               const Slice& key, const Slice& value, bool keep_older) {
  auto* r = new (mem) FloDBRecord;
  r->trailer = PackSequenceAndType(seq, type);
  r->older.store(0, std::memory_order_relaxed);
  r->hash = hash;
  r->key_size = static_cast<uint32_t>(key.size());
  r->value_size = static_cast<uint32_t>(value.size());
  r->draining.store(false, std::memory_order_relaxed);
  r->keep_older = keep_older;
  char* data = reinterpret_cast<char*>(r + 1);
  if (!key.empty()) std::memcpy(data, key.data(), key.size());
  if (!value.empty()) std::memcpy(data + key.size(), value.data(), value.size());
  return r;
}

}  // namespace sluice
