// version/file_metadata.cc — see file_metadata.h.

#include "version/file_metadata.h"

#include <utility>
#include <vector>

namespace sluice {

std::shared_ptr<FileMetaData> FileRegistry::Make(const FileMetaData& meta) {
  {
    MutexLock l(&mu_);
    if (live_[meta.number]++ == 0 && !obsolete_.empty()) {
      // Live again before anyone took it for deletion (callers should not let a number's count
      // reach zero while it is still wanted; VersionBuilder::Apply keeps a moved file's object
      // until its new one exists): it must not be deleted.
      std::erase(obsolete_, meta.number);
    }
  }
  // The deleter keeps the registry alive: metadata may outlive the DB object in odd orders of
  // destruction (an iterator destroyed late), and must still be able to report.
  std::shared_ptr<FileRegistry> self = shared_from_this();
  auto* copy = new FileMetaData(meta);
  copy->being_compacted = false;  // a file moved by a compaction is not an input of a new one
  if (copy->num_range_deletions > 0 && copy->range_tombstones == nullptr) {
    copy->range_tombstones = std::make_shared<FileRangeTombstones>();
  }
  return std::shared_ptr<FileMetaData>(copy, [self](FileMetaData* f) {
    const uint64_t number = f->number;
    delete f;
    self->Drop(number);
  });
}

void FileRegistry::Drop(uint64_t number) {
  MutexLock l(&mu_);
  auto it = live_.find(number);
  if (it == live_.end()) return;
  if (--it->second == 0) {
    live_.erase(it);
    if (!disabled_) {
      obsolete_.push_back(number);
      if (on_obsolete_) on_obsolete_();
    }
  }
}

std::vector<uint64_t> FileRegistry::TakeObsolete() {
  MutexLock l(&mu_);
  std::vector<uint64_t> result;
  result.swap(obsolete_);
  return result;
}

bool FileRegistry::HasObsolete() const {
  MutexLock l(&mu_);
  return !obsolete_.empty();
}

void FileRegistry::SetListener(std::function<void()> on_obsolete) {
  MutexLock l(&mu_);
  on_obsolete_ = std::move(on_obsolete);
}

bool FileRegistry::IsLive(uint64_t number) const {
  MutexLock l(&mu_);
  return live_.count(number) > 0;
}

void FileRegistry::Disable() {
  MutexLock l(&mu_);
  disabled_ = true;
  obsolete_.clear();
  on_obsolete_ = nullptr;
}

}  // namespace sluice
