// sluice/write_batch.h — a group of updates applied to the database atomically.
//
// DB::Write applies every update of a batch or none of them, and the updates become visible to
// readers together: a reader sees either all of a batch or nothing of it. Within one batch, a
// later update to a key replaces an earlier one. A WriteBatch is not thread-safe.

#ifndef SLUICE_WRITE_BATCH_H_
#define SLUICE_WRITE_BATCH_H_

#include <cstdint>
#include <string>

#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice {

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
  // See src/db/write_batch_internal.h for the layout (also documented in docs/formats.md).
  std::string rep_;
};

}  // namespace sluice

#endif  // SLUICE_WRITE_BATCH_H_
