// version/compaction_picker.cc — see compaction_picker.h for the policy.

#include "version/compaction_picker.h"

#include <algorithm>

namespace sluice {

namespace {

bool AnyBeingCompacted(const FileList& files) {
  return std::any_of(files.begin(), files.end(), [](const auto& f) { return f->being_compacted; });
}

}  // namespace

void KeyRange(const FileList& files, std::string* smallest, std::string* largest) {
  Slice lo = files[0]->smallest.user_key();
  Slice hi = files[0]->largest.user_key();
  for (const auto& f : files) {
    if (f->smallest.user_key().compare(lo) < 0) lo = f->smallest.user_key();
    if (f->largest.user_key().compare(hi) > 0) hi = f->largest.user_key();
  }
  *smallest = lo.ToString();
  *largest = hi.ToString();
}

uint64_t CompactionPicker::MaxBytesForLevel(int level) const {
  double result = static_cast<double>(options_.max_bytes_for_level_base);
  for (int l = 1; l < level; l++) result *= options_.max_bytes_for_level_multiplier;
  return static_cast<uint64_t>(result);
}

double CompactionPicker::LevelScore(const Version& v, int level) const {
  if (level == 0) {
    return static_cast<double>(v.NumFiles(0)) /
           static_cast<double>(options_.level0_file_num_compaction_trigger);
  }
  return static_cast<double>(v.NumLevelBytes(level)) / static_cast<double>(MaxBytesForLevel(level));
}

double CompactionPicker::MaxScore(const Version& v) const {
  double best = 0;
  for (int level = 0; level + 1 < v.num_levels(); level++) {
    best = std::max(best, LevelScore(v, level));
  }
  return best;
}

uint64_t CompactionPicker::EstimatePendingBytes(const Version& v) const {
  double pending = 0;
  double moving_down = 0;  // bytes that compactions of the level above move into this one
  if (v.NumFiles(0) >= options_.level0_file_num_compaction_trigger) {
    moving_down = static_cast<double>(v.NumLevelBytes(0));
    pending += moving_down;
  }
  for (int level = 1; level + 1 < v.num_levels(); level++) {
    const double size = static_cast<double>(v.NumLevelBytes(level)) + moving_down;
    const double target = static_cast<double>(MaxBytesForLevel(level));
    moving_down = 0;
    if (size <= target) continue;
    moving_down = size - target;
    const double next = static_cast<double>(v.NumLevelBytes(level + 1));
    pending += moving_down * (1.0 + next / size);
  }
  return static_cast<uint64_t>(pending);
}

std::unique_ptr<Compaction> CompactionPicker::Make(const std::shared_ptr<const Version>& v,
                                                   int level, FileList inputs) const {
  std::string smallest, largest;
  KeyRange(inputs, &smallest, &largest);
  Slice lo(smallest), hi(largest);
  FileList next = v->GetOverlappingInputs(level + 1, &lo, &hi);
  if (AnyBeingCompacted(next)) return nullptr;
  // The grandparents cover the range of all inputs.
  if (!next.empty()) {
    FileList all = inputs;
    all.insert(all.end(), next.begin(), next.end());
    KeyRange(all, &smallest, &largest);
    lo = smallest;
    hi = largest;
  }
  FileList grandparents;
  if (level + 2 < v->num_levels()) grandparents = v->GetOverlappingInputs(level + 2, &lo, &hi);
  return std::make_unique<Compaction>(v, level, std::move(inputs), std::move(next),
                                      std::move(grandparents), options_.target_file_size_base,
                                      10 * options_.target_file_size_base);
}

std::vector<size_t> CompactionPicker::CandidateOrder(
    const Version& v, int level, const std::vector<std::string>& compact_pointers) const {
  const FileList& files = v.files(level);
  std::vector<size_t> order(files.size());
  if (options_.compaction_pri == CompactionPri::kMinOverlappingRatio) {
    // Both levels are sorted and disjoint: one pass over level+1 finds every file's overlap.
    const FileList& next = v.files(level + 1);
    std::vector<double> ratio(files.size());
    size_t j = 0;
    for (size_t i = 0; i < files.size(); i++) {
      const Slice lo = files[i]->smallest.user_key();
      const Slice hi = files[i]->largest.user_key();
      while (j < next.size() && next[j]->largest.user_key().compare(lo) < 0) j++;
      uint64_t overlap = 0;
      // k does not advance j: the last file overlapping this one may overlap the next too.
      for (size_t k = j; k < next.size() && next[k]->smallest.user_key().compare(hi) <= 0; k++) {
        overlap += next[k]->file_size;
      }
      ratio[i] = static_cast<double>(overlap) /
                 static_cast<double>(std::max<uint64_t>(files[i]->file_size, 1));
      order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return ratio[a] < ratio[b]; });
    return order;
  }
  // Round-robin: the first file after the compact pointer, wrapping around.
  size_t start = 0;
  const std::string& pointer = compact_pointers[static_cast<size_t>(level)];
  if (!pointer.empty()) {
    const InternalKeyComparator* icmp = DefaultInternalKeyComparator();
    while (start < files.size() && icmp->Compare(files[start]->largest.Encode(), pointer) <= 0) {
      start++;
    }
  }
  for (size_t i = 0; i < files.size(); i++) order[i] = (start + i) % files.size();
  return order;
}

std::unique_ptr<Compaction> CompactionPicker::Pick(
    const std::shared_ptr<const Version>& v,
    const std::vector<std::string>& compact_pointers) const {
  std::vector<std::pair<double, int>> candidates;
  for (int level = 0; level + 1 < v->num_levels(); level++) {
    const double score = LevelScore(*v, level);
    if (score >= 1.0) candidates.emplace_back(score, level);
  }
  std::sort(candidates.begin(), candidates.end(), std::greater<>());
  for (const auto& [score, level] : candidates) {
    const FileList& files = v->files(level);
    if (level == 0) {
      if (AnyBeingCompacted(files)) continue;
      auto c = Make(v, 0, files);
      if (c != nullptr) return c;
      continue;
    }
    for (const size_t i : CandidateOrder(*v, level, compact_pointers)) {
      const auto& f = files[i];
      if (f->being_compacted) continue;
      auto c = Make(v, level, FileList{f});
      if (c != nullptr) return c;
    }
  }
  return nullptr;
}

std::unique_ptr<Compaction> CompactionPicker::PickRange(const std::shared_ptr<const Version>& v,
                                                        int level, const Slice* begin,
                                                        const Slice* end, bool* busy) const {
  *busy = false;
  FileList inputs = v->GetOverlappingInputs(level, begin, end);
  if (inputs.empty()) return nullptr;
  if (level == 0) inputs = v->files(0);  // L0 files overlap: take them all, as Pick does
  if (AnyBeingCompacted(inputs)) {
    *busy = true;
    return nullptr;
  }
  auto c = Make(v, level, std::move(inputs));
  if (c == nullptr) {
    *busy = true;
    return nullptr;
  }
  return c;
}

}  // namespace sluice
