// table/two_level_iterator.cc — see two_level_iterator.h.

#include "table/two_level_iterator.h"

#include <cassert>
#include <string>

#include "base/iterator_wrapper.h"

namespace sluice {

namespace {

class TwoLevelIterator final : public InternalIterator {
 public:
  TwoLevelIterator(std::unique_ptr<InternalIterator> index_iter, BlockOpener open_block)
      : index_iter_(std::move(index_iter)), open_block_(std::move(open_block)) {}

  // (An error resets data_, so a valid data_ means no error.)
  bool Valid() const override { return data_.Valid(); }
  Slice key() const override {
    assert(Valid());
    return data_.key();
  }
  Slice value() const override {
    assert(Valid());
    return data_.value();
  }
  Status status() const override {
    if (!status_.ok()) return status_;
    if (!index_iter_->status().ok()) return index_iter_->status();
    return data_.status();
  }

  void Seek(const Slice& target) override {
    if (!status_.ok()) return;
    index_iter_->Seek(target);
    OpenBlock();
    if (data_.has_iter()) data_.Seek(target);
    SkipEmptyBlocksForward();
  }
  void SeekToFirst() override {
    if (!status_.ok()) return;
    index_iter_->SeekToFirst();
    OpenBlock();
    if (data_.has_iter()) data_.SeekToFirst();
    SkipEmptyBlocksForward();
  }
  void SeekToLast() override {
    if (!status_.ok()) return;
    index_iter_->SeekToLast();
    OpenBlock();
    if (data_.has_iter()) data_.SeekToLast();
    SkipEmptyBlocksBackward();
  }
  void Next() override {
    assert(Valid());
    data_.Next();
    if (!data_.Valid()) SkipEmptyBlocksForward();
  }
  void Prev() override {
    assert(Valid());
    data_.Prev();
    if (!data_.Valid()) SkipEmptyBlocksBackward();
  }

 private:
  // Records the first error of the index or the current block; the iterator then stops.
  bool CheckForError() {
    if (!status_.ok()) return true;
    if (!index_iter_->status().ok()) {
      status_ = index_iter_->status();
    } else if (!data_.status().ok()) {
      status_ = data_.status();
    }
    if (status_.ok()) return false;
    data_.Reset();
    return true;
  }

  // Makes data_ the iterator of the block the index iterator points at (null if none).
  void OpenBlock() {
    if (!index_iter_->Valid()) {
      data_.Reset();
      CheckForError();
      return;
    }
    const Slice handle = index_iter_->value();
    if (data_.has_iter() && handle == Slice(data_block_handle_)) return;  // same block
    data_.Reset();  // release the previous block before reading the next one
    data_.Set(open_block_(handle));
    data_block_handle_.assign(handle.data(), handle.size());
    CheckForError();
  }

  void SkipEmptyBlocksForward() {
    while (status_.ok() && !data_.Valid()) {
      if (CheckForError() || !index_iter_->Valid()) {
        data_.Reset();
        return;
      }
      index_iter_->Next();
      OpenBlock();
      if (data_.has_iter()) data_.SeekToFirst();
    }
  }

  void SkipEmptyBlocksBackward() {
    while (status_.ok() && !data_.Valid()) {
      if (CheckForError() || !index_iter_->Valid()) {
        data_.Reset();
        return;
      }
      index_iter_->Prev();
      OpenBlock();
      if (data_.has_iter()) data_.SeekToLast();
    }
  }

  std::unique_ptr<InternalIterator> index_iter_;
  BlockOpener open_block_;
  IteratorWrapper data_;           // the current block's iterator; may have none
  std::string data_block_handle_;  // index value data_ was opened from
  Status status_;                  // first error met; sticky
};

}  // namespace

std::unique_ptr<InternalIterator> NewTwoLevelIterator(std::unique_ptr<InternalIterator> index_iter,
                                                      BlockOpener open_block) {
  return std::make_unique<TwoLevelIterator>(std::move(index_iter), std::move(open_block));
}

}  // namespace sluice
