// version/level_iterator.cc — see level_iterator.h.

#include "version/level_iterator.h"

#include "table/table_cache.h"

namespace sluice {

namespace {

class LevelIterator final : public InternalIterator {
 public:
  LevelIterator(const ReadOptions& options, TableCache* table_cache, FileList files)
      : options_(options), table_cache_(table_cache), files_(std::move(files)) {}

  bool Valid() const override { return file_iter_ != nullptr && file_iter_->Valid(); }

  void Seek(const Slice& target) override {
    OpenFile(FindFile(files_, target));
    if (file_iter_ != nullptr) file_iter_->Seek(target);
    SkipEmptyFilesForward();
  }
  void SeekToFirst() override {
    OpenFile(0);
    if (file_iter_ != nullptr) file_iter_->SeekToFirst();
    SkipEmptyFilesForward();
  }
  void SeekToLast() override {
    OpenFile(files_.empty() ? files_.size() : files_.size() - 1);
    if (file_iter_ != nullptr) file_iter_->SeekToLast();
    SkipEmptyFilesBackward();
  }
  void Next() override {
    file_iter_->Next();
    SkipEmptyFilesForward();
  }
  void Prev() override {
    file_iter_->Prev();
    SkipEmptyFilesBackward();
  }
  Slice key() const override { return file_iter_->key(); }
  Slice value() const override { return file_iter_->value(); }
  Status status() const override {
    if (!status_.ok()) return status_;
    return file_iter_ != nullptr ? file_iter_->status() : Status::OK();
  }

 private:
  // Opens file `index` (files_.size(): none).
  void OpenFile(size_t index) {
    if (file_iter_ != nullptr && index == index_) return;
    SaveStatus();
    index_ = index;
    if (index >= files_.size()) {
      file_iter_.reset();
      return;
    }
    file_iter_ =
        table_cache_->NewIterator(options_, files_[index]->number, files_[index]->file_size);
  }

  void SaveStatus() {
    if (file_iter_ != nullptr && status_.ok()) status_ = file_iter_->status();
  }

  void SkipEmptyFilesForward() {
    while (file_iter_ != nullptr && !file_iter_->Valid()) {
      if (!file_iter_->status().ok() || index_ + 1 >= files_.size()) {
        SaveStatus();
        file_iter_.reset();
        return;
      }
      OpenFile(index_ + 1);
      file_iter_->SeekToFirst();
    }
  }

  void SkipEmptyFilesBackward() {
    while (file_iter_ != nullptr && !file_iter_->Valid()) {
      if (!file_iter_->status().ok() || index_ == 0) {
        SaveStatus();
        file_iter_.reset();
        return;
      }
      OpenFile(index_ - 1);
      file_iter_->SeekToLast();
    }
  }

  const ReadOptions options_;
  TableCache* const table_cache_;
  const FileList files_;
  size_t index_ = 0;
  std::unique_ptr<InternalIterator> file_iter_;
  Status status_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewLevelIterator(const ReadOptions& options,
                                                   TableCache* table_cache, FileList files) {
  return std::make_unique<LevelIterator>(options, table_cache, std::move(files));
}

}  // namespace sluice
