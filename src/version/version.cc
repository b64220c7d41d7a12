// version/version.cc — see version.h.

#include "version/version.h"

#include <fmt/format.h>

#include <algorithm>

#include "table/table_cache.h"
#include "util/logging.h"
#include "version/level_iterator.h"

namespace sluice {

namespace {

const InternalKeyComparator& ICmp() { return *DefaultInternalKeyComparator(); }

bool AfterFile(const Slice* user_key, const FileMetaData& f) {
  return user_key != nullptr && user_key->compare(f.largest.user_key()) > 0;
}
bool BeforeFile(const Slice* user_key, const FileMetaData& f) {
  return user_key != nullptr && user_key->compare(f.smallest.user_key()) < 0;
}

// Looks key up in one file. *found if the file holds a version of the user key visible at
// key.sequence().
Status GetFromFile(const ReadOptions& options, const FileMetaData& f, const LookupKey& key,
                   TableCache* table_cache, TableLookup* result, bool* found) {
  *found = false;
  Status parse_error;
  Status s = table_cache->Get(options, f.number, f.file_size, key.internal_key(),
                              [&](const Slice& ikey, const Slice& value) {
                                ParsedInternalKey parsed;
                                if (!ParseInternalKey(ikey, &parsed)) {
                                  parse_error =
                                      Status::Corruption("bad internal key in SST file",
                                                         std::to_string(f.number) + ".sst");
                                  return;
                                }
                                if (parsed.user_key != key.user_key()) return;
                                *found = true;
                                result->sequence = parsed.sequence;
                                result->type = parsed.type;
                                if (parsed.type == kTypeValue) {
                                  result->value.assign(value.data(), value.size());
                                } else {
                                  result->value.clear();
                                }
                              });
  if (s.ok()) s = parse_error;
  return s;
}

}  // namespace

size_t FindFile(const FileList& files, const Slice& internal_key) {
  size_t left = 0, right = files.size();
  while (left < right) {
    const size_t mid = (left + right) / 2;
    if (ICmp().Compare(files[mid]->largest.Encode(), internal_key) < 0) {
      left = mid + 1;
    } else {
      right = mid;
    }
  }
  return right;
}

uint64_t Version::NumLevelBytes(int level) const {
  uint64_t sum = 0;
  for (const auto& f : files(level)) sum += f->file_size;
  return sum;
}

uint64_t Version::TotalBytes() const {
  uint64_t sum = 0;
  for (int level = 0; level < num_levels(); level++) sum += NumLevelBytes(level);
  return sum;
}

Status Version::Get(const ReadOptions& options, const LookupKey& key, TableCache* table_cache,
                    TableLookup* result, bool* found) const {
  *found = false;
  const Slice user_key = key.user_key();
  // Level 0: files may overlap, ordered by largest sequence number, descending. A hit is final
  // once no remaining file can hold a newer version (flushed files have disjoint sequence
  // ranges, so that is the first hit; files placed in L0 by RepairDB may not).
  for (const auto& f : files(0)) {
    if (*found && result->sequence > f->largest_seqno) return Status::OK();
    if (user_key.compare(f->smallest.user_key()) < 0 ||
        user_key.compare(f->largest.user_key()) > 0) {
      continue;
    }
    TableLookup candidate;
    bool hit = false;
    Status s = GetFromFile(options, *f, key, table_cache, &candidate, &hit);
    if (!s.ok()) return s;
    if (hit && (!*found || candidate.sequence > result->sequence)) {
      *result = std::move(candidate);
      *found = true;
    }
  }
  if (*found) return Status::OK();
  // Deeper levels: at most one file per level can hold the key.
  for (int level = 1; level < num_levels(); level++) {
    const FileList& list = files(level);
    if (list.empty()) continue;
    const size_t index = FindFile(list, key.internal_key());
    if (index >= list.size()) continue;
    const FileMetaData& f = *list[index];
    if (user_key.compare(f.smallest.user_key()) < 0) continue;
    Status s = GetFromFile(options, f, key, table_cache, result, found);
    if (!s.ok() || *found) return s;
  }
  return Status::OK();
}

void Version::AddIterators(const ReadOptions& options, TableCache* table_cache,
                           std::vector<std::unique_ptr<InternalIterator>>* iters) const {
  for (const auto& f : files(0)) {
    iters->push_back(table_cache->NewIterator(options, f->number, f->file_size));
  }
  for (int level = 1; level < num_levels(); level++) {
    if (!files(level).empty()) {
      iters->push_back(NewLevelIterator(options, table_cache, files(level)));
    }
  }
}

FileList Version::GetOverlappingInputs(int level, const Slice* begin, const Slice* end) const {
  FileList inputs;
  for (const auto& f : files(level)) {
    if (AfterFile(begin, *f) || BeforeFile(end, *f)) continue;
    inputs.push_back(f);
  }
  return inputs;
}

bool Version::OverlapInLevel(int level, const Slice* smallest, const Slice* largest) const {
  const FileList& list = files(level);
  if (level == 0) {
    for (const auto& f : list) {
      if (!AfterFile(smallest, *f) && !BeforeFile(largest, *f)) return true;
    }
    return false;
  }
  size_t index = 0;
  if (smallest != nullptr) {
    InternalKey small_key(*smallest, kMaxSequenceNumber, kValueTypeForSeek);
    index = FindFile(list, small_key.Encode());
  }
  if (index >= list.size()) return false;
  return !BeforeFile(largest, *list[index]);
}

std::string Version::DebugString() const {
  std::string r;
  for (int level = 0; level < num_levels(); level++) {
    for (const auto& f : files(level)) {
      r += fmt::format("L{} #{} {} [{} .. {}] seq {}..{} entries {} deletions {}\n", level,
                       f->number, HumanBytes(f->file_size), f->smallest.DebugString(),
                       f->largest.DebugString(), f->smallest_seqno, f->largest_seqno,
                       f->num_entries, f->num_deletions);
    }
  }
  return r;
}

}  // namespace sluice
