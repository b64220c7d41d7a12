// sluice/write_batch.h — a group of updates applied to the database atomically.
//
// DB::Write applies every update of a batch or none of them, and the updates become visible to
// readers together: a reader sees either all of a batch or nothing of it. Within one batch, a
// later update to a key replaces an earlier one. A batch may update several column families of
// one database (the overloads taking a ColumnFamilyHandle; the others update the default
// family): all of it still applies atomically. A WriteBatch is not thread-safe.

#ifndef SLUICE_WRITE_BATCH_H_
#define SLUICE_WRITE_BATCH_H_

#include <cstdint>
#include <string>

#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice {
// The engine's access to a batch's encoding: not part of the API, so declared before the
// exported region below (its friend declaration must not make it exported).
class WriteBatchInternal;
}  // namespace sluice

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class ColumnFamilyHandle;

class WriteBatch {
 public:
  // Receives the updates of a batch, in the order they were added.
  class Handler {
   public:
    virtual ~Handler() = default;
    virtual void Put(const Slice& key, const Slice& value) = 0;
    virtual void Delete(const Slice& key) = 0;
    // A DeleteRange(begin, end) of the batch.
    virtual void DeleteRange(const Slice& begin, const Slice& end) = 0;
    // The updates of a column family other than the default one (`family`: its id). A handler
    // that does not override these receives them through the three above, as if they were the
    // default family's.
    virtual void PutCF(uint32_t family, const Slice& key, const Slice& value) {
      (void)family;
      Put(key, value);
    }
    virtual void DeleteCF(uint32_t family, const Slice& key) {
      (void)family;
      Delete(key);
    }
    virtual void DeleteRangeCF(uint32_t family, const Slice& begin, const Slice& end) {
      (void)family;
      DeleteRange(begin, end);
    }
  };

  WriteBatch();
  WriteBatch(const WriteBatch&) = default;
  WriteBatch& operator=(const WriteBatch&) = default;
  WriteBatch(WriteBatch&&) = default;
  WriteBatch& operator=(WriteBatch&&) = default;
  ~WriteBatch() = default;

  void Put(const Slice& key, const Slice& value);
  void Delete(const Slice& key);
  // Deletes every key in [begin, end) (bytewise) that exists when the batch is applied; keys
  // written later in the same batch stay. begin > end makes DB::Write fail (InvalidArgument);
  // begin == end deletes nothing.
  void DeleteRange(const Slice& begin, const Slice& end);
  // The same in the column family `family` (nullptr: the default one). DB::Write refuses, with
  // InvalidArgument and nothing applied, a batch naming a family the database does not have.
  void Put(ColumnFamilyHandle* family, const Slice& key, const Slice& value);
  void Delete(ColumnFamilyHandle* family, const Slice& key);
  void DeleteRange(ColumnFamilyHandle* family, const Slice& begin, const Slice& end);
  // Appends every update of `source` to this batch.
  void Append(const WriteBatch& source);
  void Clear();

  // Number of updates in the batch.
  uint32_t Count() const;
  // Bytes of the batch's encoded form (a little more than its keys and values).
  size_t ApproximateSize() const { return rep_.size(); }

  // Calls `handler` for each update in order; Corruption if the batch is malformed.
  Status Iterate(Handler* handler) const;

 private:
  friend class WriteBatchInternal;
  // Starts a record of kind `type` in family `id` and counts it.
  void AddRecord(uint32_t family, unsigned char type);
  // See src/db/write_batch_internal.h for the layout (also documented in docs/formats.md).
  std::string rep_;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_WRITE_BATCH_H_
