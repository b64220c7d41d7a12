// db/write_batch_internal.h — the encoded form of a WriteBatch, which is also the payload of a
// WAL record:
//
//     fixed64 sequence | fixed32 count | record*
//     record := kTypeValue         varint32-length key    varint32-length value
//             | kTypeDeletion      varint32-length key
//             | kTypeRangeDeletion varint32-length begin  varint32-length end   (begin <= end)
//             | kFamilyBit|kind    varint32 family id     (the fields of kind, above)
//
// A record without kFamilyBit updates the default column family (id 0), so batches and WAL
// files written before column families read unchanged; the writer never sets the bit with id 0.
//
// The top bit of count marks an aborted batch: a read-modify-write that reserved its WAL record
// and then found a conflict fills the record with its batch marked so (the reservation must be
// filled); recovery and InsertInto skip it. Count() excludes the bit.
//
// Every update of a batch carries the batch's one sequence number, so a reader at a snapshot
// sees all of a batch or none of it. Within a batch a later update to a key replaces an earlier
// one: InsertInto applies only the last update of each key.

#ifndef SLUICE_DB_WRITE_BATCH_INTERNAL_H_
#define SLUICE_DB_WRITE_BATCH_INTERNAL_H_

#include <functional>
#include <vector>

#include "base/internal_key.h"
#include "sluice/write_batch.h"

namespace sluice {

class MemoryComponent;

class WriteBatchInternal {
 public:
  static constexpr size_t kHeader = 12;
  static constexpr uint32_t kAbortedBit = uint32_t{1} << 31;
  static constexpr unsigned char kFamilyBit = 0x10;

  static uint32_t Count(const WriteBatch* b);
  static void SetCount(WriteBatch* b, uint32_t n);
  static bool IsAborted(const WriteBatch* b);
  static void MarkAborted(WriteBatch* b);
  static SequenceNumber Sequence(const WriteBatch* b);
  static void SetSequence(WriteBatch* b, SequenceNumber seq);

  static Slice Contents(const WriteBatch* b) { return Slice(b->rep_); }
  static size_t ByteSize(const WriteBatch* b) { return b->rep_.size(); }
  // Replaces the batch's contents (from a WAL record); Corruption if malformed.
  static Status SetContents(WriteBatch* b, const Slice& contents);

  // Adds every update to the component of its column family, mem(id), with the batch's sequence
  // number (last update per key wins); an update whose family mem(id) answers nullptr for is
  // passed over (recovery: a dropped family, or one whose SST files have it already).
  static Status InsertInto(const WriteBatch* b,
                           const std::function<MemoryComponent*(uint32_t family)>& mem);
  // The same with mem for the default family (other families' updates passed over).
  static Status InsertInto(const WriteBatch* b, MemoryComponent* mem);

  // Calls fn(key) for every point update (a key updated twice is passed twice); range
  // deletions are not passed. Returns whether the batch holds one.
  static bool ForEachKey(const WriteBatch* b, const std::function<void(const Slice&)>& fn);

  // The key of a batch of exactly one point update (false for other batches).
  static bool SingleKey(const WriteBatch* b, Slice* key);

  // Largest key and value sizes in the batch (a range's ends count as keys), the ids of the
  // column families it updates (sorted, each once; may be null), and InvalidArgument if a range
  // deletion's begin is after its end (for validation, one pass).
  static Status CheckUpdates(const WriteBatch* b, size_t* max_key, size_t* max_value,
                             std::vector<uint32_t>* families = nullptr);
};

}  // namespace sluice

#endif  // SLUICE_DB_WRITE_BATCH_INTERNAL_H_
