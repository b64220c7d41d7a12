// version/compaction.cc — see compaction.h.

#include "version/compaction.h"

#include <fmt/format.h>

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

bool Compaction::ShouldStopBefore(const Slice& internal_key) {
  const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
  while (grandparent_index_ < grandparents_.size() &&
         icmp->Compare(internal_key, grandparents_[grandparent_index_]->largest.Encode()) > 0) {
    if (seen_key_) overlapped_bytes_ += grandparents_[grandparent_index_]->file_size;
    grandparent_index_++;
  }
  seen_key_ = true;
  if (overlapped_bytes_ > max_grandparent_overlap_bytes_) {
    overlapped_bytes_ = 0;
    return true;
  }
  return false;
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
