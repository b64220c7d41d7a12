// base/iterator_wrapper.h — an owning handle on a child InternalIterator that remembers the
// child's Valid() and key() after every move made through it.
//
// Iterators nest (a level over its files' tables, a table over its blocks), and a parent asks
// its child whether it is valid, and for its key, several times per step. Through the handle
// each such question is a load instead of a chain of virtual calls down to the block.
// Invariant: whenever the child is moved through this handle (or Update() was called after
// moving it otherwise), valid_ == child->Valid() and, if valid_, key_ == child->key(). A handle
// without a child is not valid.

#ifndef SLUICE_BASE_ITERATOR_WRAPPER_H_
#define SLUICE_BASE_ITERATOR_WRAPPER_H_

#include <cassert>
#include <memory>

#include "base/internal_iterator.h"

namespace sluice {

class IteratorWrapper {
 public:
  IteratorWrapper() = default;

  // Takes `child` (may be null) in place of the previous one, which is destroyed. (A caller
  // that must release the previous child before making the next calls Reset() first.)
  void Set(std::unique_ptr<InternalIterator> child) {
    iter_ = std::move(child);
    Update();
  }
  void Reset() { Set(nullptr); }
  bool has_iter() const { return iter_ != nullptr; }

  bool Valid() const { return valid_; }
  Slice key() const {
    assert(valid_);
    return key_;
  }
  Slice value() const {
    assert(valid_);
    return iter_->value();
  }
  Status status() const { return iter_ != nullptr ? iter_->status() : Status::OK(); }

  void Next() {
    iter_->Next();
    Update();
  }
  void Prev() {
    iter_->Prev();
    Update();
  }
  void Seek(const Slice& target) {
    iter_->Seek(target);
    Update();
  }
  void SeekToFirst() {
    iter_->SeekToFirst();
    Update();
  }
  void SeekToLast() {
    iter_->SeekToLast();
    Update();
  }

 private:
  void Update() {
    valid_ = iter_ != nullptr && iter_->Valid();
    if (valid_) key_ = iter_->key();
  }

  std::unique_ptr<InternalIterator> iter_;
  bool valid_ = false;
  Slice key_;  // iter_->key() while valid_
};

}  // namespace sluice

#endif  // SLUICE_BASE_ITERATOR_WRAPPER_H_
