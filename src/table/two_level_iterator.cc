// table/two_level_iterator.cc — see two_level_iterator.h.

#include "table/two_level_iterator.h"

#include <cassert>
#include <string>

namespace sluice {

namespace {

class TwoLevelIterator final : public InternalIterator {
 public:
  TwoLevelIterator(std::unique_ptr<InternalIterator> index_iter, BlockOpener open_block)
      : index_iter_(std::move(index_iter)), open_block_(std::move(open_block)) {}

  bool Valid() const override {
    return status_.ok() && data_iter_ != nullptr && data_iter_->Valid();
  }
  Slice key() const override {
    assert(Valid());
    return data_iter_->key();
  }
  Slice value() const override {
    assert(Valid());
    return data_iter_->value();
  }
  Status status() const override {
    if (!status_.ok()) return status_;
    if (!index_iter_->status().ok()) return index_iter_->status();
    if (data_iter_ != nullptr && !data_iter_->status().ok()) return data_iter_->status();
    return Status::OK();
  }

  void Seek(const Slice& target) override {
    if (!status_.ok()) return;
    index_iter_->Seek(target);
    OpenBlock();
    if (data_iter_ != nullptr) data_iter_->Seek(target);
    SkipEmptyBlocksForward();
  }
  void SeekToFirst() override {
    if (!status_.ok()) return;
    index_iter_->SeekToFirst();
    OpenBlock();
    if (data_iter_ != nullptr) data_iter_->SeekToFirst();
    SkipEmptyBlocksForward();
  }
  void SeekToLast() override {
    if (!status_.ok()) return;
    index_iter_->SeekToLast();
    OpenBlock();
    if (data_iter_ != nullptr) data_iter_->SeekToLast();
    SkipEmptyBlocksBackward();
  }
  void Next() override {
    assert(Valid());
    data_iter_->Next();
    SkipEmptyBlocksForward();
  }
  void Prev() override {
    assert(Valid());
    data_iter_->Prev();
    SkipEmptyBlocksBackward();
  }

 private:
  // Records the first error of the index or the current block; the iterator then stops.
  bool CheckForError() {
    if (!status_.ok()) return true;
    if (!index_iter_->status().ok()) {
      status_ = index_iter_->status();
    } else if (data_iter_ != nullptr && !data_iter_->status().ok()) {
      status_ = data_iter_->status();
    }
    if (status_.ok()) return false;
    data_iter_.reset();
    return true;
  }

  // Makes data_iter_ the iterator of the block the index iterator points at (null if none).
  void OpenBlock() {
    if (!index_iter_->Valid()) {
      data_iter_.reset();
      CheckForError();
      return;
    }
    const Slice handle = index_iter_->value();
    if (data_iter_ != nullptr && handle == Slice(data_block_handle_)) return;  // same block
    data_iter_.reset();  // release the previous block before reading the next one
    data_iter_ = open_block_(handle);
    data_block_handle_.assign(handle.data(), handle.size());
    CheckForError();
  }

  void SkipEmptyBlocksForward() {
    while (status_.ok() && (data_iter_ == nullptr || !data_iter_->Valid())) {
      if (CheckForError() || !index_iter_->Valid()) {
        data_iter_.reset();
        return;
      }
      index_iter_->Next();
      OpenBlock();
      if (data_iter_ != nullptr) data_iter_->SeekToFirst();
    }
  }

  void SkipEmptyBlocksBackward() {
    while (status_.ok() && (data_iter_ == nullptr || !data_iter_->Valid())) {
      if (CheckForError() || !index_iter_->Valid()) {
        data_iter_.reset();
        return;
      }
      index_iter_->Prev();
      OpenBlock();
      if (data_iter_ != nullptr) data_iter_->SeekToLast();
    }
  }

  std::unique_ptr<InternalIterator> index_iter_;
  BlockOpener open_block_;
  std::unique_ptr<InternalIterator> data_iter_;  // may be null
  std::string data_block_handle_;                // index value data_iter_ was opened from
  Status status_;                                // first error met; sticky
};

}  // namespace

std::unique_ptr<InternalIterator> NewTwoLevelIterator(std::unique_ptr<InternalIterator> index_iter,
                                                      BlockOpener open_block) {
  return std::make_unique<TwoLevelIterator>(std::move(index_iter), std::move(open_block));
}

}  // namespace sluice
