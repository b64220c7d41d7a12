// db/write_batch_internal.h — the encoded form of a WriteBatch, which is also the payload of a
// WAL record:
//
//     fixed64 sequence | fixed32 count | record*
//     record := kTypeValue    varint32-length key  varint32-length value
//             | kTypeDeletion varint32-length key
//
// Every update of a batch carries the batch's one sequence number, so a reader at a snapshot
// sees all of a batch or none of it. Within a batch a later update to a key replaces an earlier
// one: InsertInto applies only the last update of each key.

#ifndef SLUICE_DB_WRITE_BATCH_INTERNAL_H_
#define SLUICE_DB_WRITE_BATCH_INTERNAL_H_

#include "db/dbformat.h"
#include "sluice/write_batch.h"

namespace sluice {

class MemoryComponent;

class WriteBatchInternal {
 public:
  static constexpr size_t kHeader = 12;

  static uint32_t Count(const WriteBatch* b);
  static void SetCount(WriteBatch* b, uint32_t n);
  static SequenceNumber Sequence(const WriteBatch* b);
  static void SetSequence(WriteBatch* b, SequenceNumber seq);

  static Slice Contents(const WriteBatch* b) { return Slice(b->rep_); }
  static size_t ByteSize(const WriteBatch* b) { return b->rep_.size(); }
  // Replaces the batch's contents (from a WAL record); Corruption if malformed.
  static Status SetContents(WriteBatch* b, const Slice& contents);

  // Adds every update to mem with the batch's sequence number (last update per key wins).
  static Status InsertInto(const WriteBatch* b, MemoryComponent* mem);

  // Largest key and value sizes in the batch (for validation).
  static void MaxSizes(const WriteBatch* b, size_t* max_key, size_t* max_value);
};

}  // namespace sluice

#endif  // SLUICE_DB_WRITE_BATCH_INTERNAL_H_
