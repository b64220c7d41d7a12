// version/compaction.cc — see compaction.h.

#include "version/compaction.h"

#include <fmt/format.h>

#include <algorithm>

#include "util/logging.h"

namespace sluice {

Compaction::Compaction(std::shared_ptr<const Version> input_version, int level, FileList inputs,
                       FileList next_level_inputs, FileList grandparents,
                       uint64_t max_output_file_size, uint64_t max_grandparent_overlap_bytes)
    : input_version_(std::move(input_version)),
      level_(level),
      grandparents_(std::move(grandparents)),
      max_output_file_size_(max_output_file_size),
      max_grandparent_overlap_bytes_(max_grandparent_overlap_bytes) {
  inputs_[0] = std::move(inputs);
  inputs_[1] = std::move(next_level_inputs);
  for (const auto& list : inputs_) {
    for (const auto& f : list) f->being_compacted = true;
  }
}

Compaction::~Compaction() = default;

void Compaction::ReleaseInputs() {
  if (released_) return;
  released_ = true;
  for (const auto& list : inputs_) {
    for (const auto& f : list) f->being_compacted = false;
  }
}

bool Compaction::IsTrivialMove() const {
  uint64_t overlap = 0;
  for (const auto& f : grandparents_) overlap += f->file_size;
  return !manual && inputs_[0].size() == 1 && inputs_[1].empty() &&
         overlap <= max_grandparent_overlap_bytes_;
}

void Compaction::AddInputDeletions(VersionEdit* edit) const {
  for (int which = 0; which < 2; which++) {
    for (const auto& f : inputs_[which]) edit->RemoveFile(level_ + which, f->number);
  }
}

bool Compaction::IsBaseLevelForKey(const Slice& user_key) const {
  for (int lvl = output_level() + 1; lvl < input_version_->num_levels(); lvl++) {
    if (input_version_->OverlapInLevel(lvl, &user_key, &user_key)) return false;
  }
  return true;
}

bool Compaction::IsBaseLevelForRange(const Slice& begin, const Slice& end) const {
  // [begin, end] rather than [begin, end): at worst a tombstone is kept a while longer.
  for (int lvl = output_level() + 1; lvl < input_version_->num_levels(); lvl++) {
    if (input_version_->OverlapInLevel(lvl, &begin, &end)) return false;
  }
  return true;
}

bool GrandparentOverlap::ShouldStopBefore(const Slice& internal_key) {
  const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
  const FileList& files = *grandparents_;
  while (index_ < files.size() &&
         icmp->Compare(internal_key, files[index_]->largest.Encode()) > 0) {
    if (seen_key_) overlapped_bytes_ += files[index_]->file_size;
    index_++;
  }
  seen_key_ = true;
  if (overlapped_bytes_ > max_overlap_bytes_) {
    overlapped_bytes_ = 0;
    return true;
  }
  return false;
}

std::vector<std::string> Compaction::SplitPoints(int max_parts, uint64_t min_part_bytes) const {
  std::vector<std::string> points;
  // The sorted level whose file boundaries may cut the key space: the output level's inputs,
  // or (level >= 1 with nothing below) the input level's own files.
  const FileList& sorted = !inputs_[1].empty() ? inputs_[1] : inputs_[0];
  if (level_ == 0 && inputs_[1].empty()) return points;  // L0 files overlap: no clean cut
  uint64_t parts = max_parts > 1 ? static_cast<uint64_t>(max_parts) : 1;
  if (min_part_bytes > 0) parts = std::min(parts, InputBytes() / min_part_bytes);
  parts = std::min<uint64_t>(parts, sorted.size());
  if (parts < 2) return points;
  uint64_t total = 0;
  for (const auto& f : sorted) total += f->file_size;
  // Cut after the file where the running size first reaches the next multiple of total/parts
  // (never after the last file: the last range is open-ended).
  uint64_t running = 0;
  for (size_t i = 0; i + 1 < sorted.size() && points.size() + 1 < parts; i++) {
    running += sorted[i]->file_size;
    if (running * parts >= total * (points.size() + 1)) {
      points.push_back(sorted[i]->largest.user_key().ToString());
    }
  }
  return points;
}

uint64_t Compaction::InputBytes() const {
  uint64_t sum = 0;
  for (const auto& list : inputs_) {
    for (const auto& f : list) sum += f->file_size;
  }
  return sum;
}

std::string Compaction::Summary() const {
  std::string files;
  for (int which = 0; which < 2; which++) {
    files += fmt::format(" L{}:[", level_ + which);
    for (size_t i = 0; i < inputs_[which].size(); i++) {
      files += fmt::format("{}{}", i ? "," : "", inputs_[which][i]->number);
    }
    files += "]";
  }
  return fmt::format("L{} -> L{}{} ({})", level_, output_level(), files, HumanBytes(InputBytes()));
}

}  // namespace sluice
