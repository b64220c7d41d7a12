// sluice/iterator.h — ordered iteration over key/value pairs.
//
// An Iterator is positioned at one entry or is not Valid(). key() and value() stay valid until
// the iterator is moved or destroyed. An iterator reads a consistent snapshot of the database
// (the one given in ReadOptions, or an implicit one taken when it was created). Destroy every
// iterator before closing its DB.

#ifndef SLUICE_ITERATOR_H_
#define SLUICE_ITERATOR_H_

#include "sluice/slice.h"
#include "sluice/status.h"

// Exported from libsluice.so, which is built with hidden visibility: what the public headers
// declare is the library's whole ABI.
#pragma GCC visibility push(default)

namespace sluice {

class Iterator {
 public:
  Iterator() = default;
  Iterator(const Iterator&) = delete;
  Iterator& operator=(const Iterator&) = delete;
  virtual ~Iterator() = default;

  virtual bool Valid() const = 0;
  // Every move stays within ReadOptions' iterate bounds, if set: the first/last key means the
  // first/last key in bounds, and a move past a bound leaves the iterator not Valid().
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // Positions at the first key >= target (and >= the lower bound).
  virtual void Seek(const Slice& target) = 0;
  // Positions at the last key <= target (and below the upper bound).
  virtual void SeekForPrev(const Slice& target) = 0;
  // REQUIRES: Valid().
  virtual void Next() = 0;
  // REQUIRES: Valid().
  virtual void Prev() = 0;
  // REQUIRES: Valid().
  virtual Slice key() const = 0;
  // REQUIRES: Valid().
  virtual Slice value() const = 0;
  // Non-OK if an error (corruption, I/O) stopped the iteration early.
  virtual Status status() const = 0;
};

}  // namespace sluice

#pragma GCC visibility pop

#endif  // SLUICE_ITERATOR_H_
