// base/internal_iterator.h — the iterator interface inside the engine.
//
// Like the public Iterator, but over the engine's own keys (internal keys for memory
// components, SST files and merges; plain keys inside index and meta blocks), and with cleanup
// callbacks so an iterator can keep alive (and then release) whatever it reads from: a cached
// block, a table reader, a memory component. key() and value() stay valid until the iterator
// moves.

#ifndef SLUICE_BASE_INTERNAL_ITERATOR_H_
#define SLUICE_BASE_INTERNAL_ITERATOR_H_

#include <functional>
#include <memory>
#include <vector>

#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice {

class InternalIterator {
 public:
  InternalIterator() = default;
  InternalIterator(const InternalIterator&) = delete;
  InternalIterator& operator=(const InternalIterator&) = delete;
  // Runs the registered cleanups, most recent first.
  virtual ~InternalIterator();

  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // First entry with key >= target.
  virtual void Seek(const Slice& target) = 0;
  virtual void Next() = 0;
  virtual void Prev() = 0;
  virtual Slice key() const = 0;
  virtual Slice value() const = 0;
  virtual Status status() const = 0;

  // Runs fn when the iterator is destroyed.
  void RegisterCleanup(std::function<void()> fn) { cleanups_.push_back(std::move(fn)); }

 private:
  std::vector<std::function<void()>> cleanups_;
};

// An iterator over nothing (with the given status).
std::unique_ptr<InternalIterator> NewEmptyIterator();
std::unique_ptr<InternalIterator> NewErrorIterator(const Status& status);

}  // namespace sluice

#endif  // SLUICE_BASE_INTERNAL_ITERATOR_H_
