// version/version_builder.cc — see version_builder.h.

#include "version/version_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace sluice {

VersionBuilder::VersionBuilder(const Version& base, FileRegistry* registry)
    : registry_(registry), levels_(static_cast<size_t>(base.num_levels())) {
  for (int level = 0; level < base.num_levels(); level++) {
    for (const auto& f : base.files(level)) levels_[static_cast<size_t>(level)][f->number] = f;
  }
}

Status VersionBuilder::Apply(const VersionEdit& edit) {
  // The objects this edit removes stay alive until its additions exist: a move (a file removed
  // from one level and added to another by one edit) must never leave its number without a
  // live object, which would queue the file as obsolete. Replaying a MANIFEST, the builder
  // holds the only object of each file, so dropping it first would delete a live file.
  std::vector<std::shared_ptr<FileMetaData>> removed;
  for (const auto& [level, number] : edit.deleted_files_) {
    if (level >= static_cast<int>(levels_.size())) {
      return Status::Corruption(fmt::format("edit removes file {} from level {}", number, level),
                                "num_levels is smaller than the database's");
    }
    auto& files = levels_[static_cast<size_t>(level)];
    auto it = files.find(number);
    if (it == files.end()) {
      return Status::Corruption(
          fmt::format("edit removes file {} from level {}, which does not hold it", number, level));
    }
    removed.push_back(std::move(it->second));
    files.erase(it);
  }
  for (const auto& [level, meta] : edit.new_files_) {
    if (level >= static_cast<int>(levels_.size())) {
      return Status::Corruption(fmt::format("edit adds file {} at level {}", meta.number, level),
                                "num_levels is smaller than the database's");
    }
    levels_[static_cast<size_t>(level)][meta.number] = registry_->Make(meta);
  }
  return Status::OK();
}

Status VersionBuilder::Build(std::shared_ptr<Version>* result) const {
  auto v = std::make_shared<Version>(static_cast<int>(levels_.size()));
  const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
  for (size_t level = 0; level < levels_.size(); level++) {
    FileList& list = v->files_[level];
    for (const auto& [number, f] : levels_[level]) {
      list.push_back(f);
      if (f->num_range_deletions > 0) v->has_range_deletions_ = true;
    }
    if (level == 0) {
      // Newest first: larger sequence numbers, then larger file numbers.
      std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
        if (a->largest_seqno != b->largest_seqno) return a->largest_seqno > b->largest_seqno;
        return a->number > b->number;
      });
    } else {
      std::sort(list.begin(), list.end(), [icmp](const auto& a, const auto& b) {
        return icmp->Compare(a->smallest.Encode(), b->smallest.Encode()) < 0;
      });
      for (size_t i = 1; i < list.size(); i++) {
        // Disjoint user keys; a range tombstone's end bound may touch the next file's first
        // key (it holds no version of it).
        const int c = list[i - 1]->largest.user_key().compare(list[i]->smallest.user_key());
        if (c > 0 || (c == 0 && !IsRangeEndBound(list[i - 1]->largest))) {
          return Status::Corruption(fmt::format("files {} and {} overlap in level {}",
                                                list[i - 1]->number, list[i]->number, level));
        }
      }
    }
  }
  *result = std::move(v);
  return Status::OK();
}

}  // namespace sluice
