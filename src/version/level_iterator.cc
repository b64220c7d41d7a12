// version/level_iterator.cc — see level_iterator.h.

#include "version/level_iterator.h"

#include "base/iterator_wrapper.h"
#include "table/table_cache.h"

namespace sluice {

namespace {

class LevelIterator final : public InternalIterator {
 public:
  LevelIterator(const ReadOptions& options, TableCache* table_cache, FileList files)
      : options_(options), table_cache_(table_cache), files_(std::move(files)) {}

  bool Valid() const override { return file_.Valid(); }

  void Seek(const Slice& target) override {
    OpenFile(FindFile(files_, target));
    if (file_.has_iter()) file_.Seek(target);
    SkipEmptyFilesForward();
  }
  void SeekToFirst() override {
    OpenFile(0);
    if (file_.has_iter()) file_.SeekToFirst();
    SkipEmptyFilesForward();
  }
  void SeekToLast() override {
    OpenFile(files_.empty() ? files_.size() : files_.size() - 1);
    if (file_.has_iter()) file_.SeekToLast();
    SkipEmptyFilesBackward();
  }
  void Next() override {
    file_.Next();
    if (!file_.Valid()) SkipEmptyFilesForward();
  }
  void Prev() override {
    file_.Prev();
    if (!file_.Valid()) SkipEmptyFilesBackward();
  }
  Slice key() const override { return file_.key(); }
  Slice value() const override { return file_.value(); }
  Status status() const override {
    if (!status_.ok()) return status_;
    return file_.status();
  }

 private:
  // Opens file `index` (files_.size(): none).
  void OpenFile(size_t index) {
    if (file_.has_iter() && index == index_) return;
    SaveStatus();
    index_ = index;
    if (index >= files_.size()) {
      file_.Reset();
      return;
    }
    file_.Set(table_cache_->NewIterator(options_, files_[index]->number, files_[index]->file_size));
  }

  void SaveStatus() {
    if (file_.has_iter() && status_.ok()) status_ = file_.status();
  }

  void SkipEmptyFilesForward() {
    while (file_.has_iter() && !file_.Valid()) {
      if (!file_.status().ok() || index_ + 1 >= files_.size()) {
        SaveStatus();
        file_.Reset();
        return;
      }
      OpenFile(index_ + 1);
      file_.SeekToFirst();
    }
  }

  void SkipEmptyFilesBackward() {
    while (file_.has_iter() && !file_.Valid()) {
      if (!file_.status().ok() || index_ == 0) {
        SaveStatus();
        file_.Reset();
        return;
      }
      OpenFile(index_ - 1);
      file_.SeekToLast();
    }
  }

  const ReadOptions options_;
  TableCache* const table_cache_;
  const FileList files_;
  size_t index_ = 0;
  IteratorWrapper file_;  // the current file's table iterator; may have none
  Status status_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewLevelIterator(const ReadOptions& options,
                                                   TableCache* table_cache, FileList files) {
  return std::make_unique<LevelIterator>(options, table_cache, std::move(files));
}

}  // namespace sluice
