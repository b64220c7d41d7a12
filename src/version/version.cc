// version/version.cc — see version.h.

#include "version/version.h"

#include <fmt/format.h>

#include <algorithm>

#include "base/range_tombstone.h"
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

// What an SST entry found at or after a lookup key says of user_key: a version of it newer
// than the one *result holds (if *found) becomes *result.
void TakeEntry(const FileMetaData& f, const Slice& user_key, const Slice& ikey, const Slice& value,
               TableLookup* result, bool* found, Status* parse_error) {
  ParsedInternalKey parsed;
  if (!ParseInternalKey(ikey, &parsed)) {
    *parse_error =
        Status::Corruption("bad internal key in SST file", std::to_string(f.number) + ".sst");
    return;
  }
  if (parsed.user_key != user_key) return;
  if (*found && parsed.sequence <= result->sequence) return;
  *found = true;
  result->sequence = parsed.sequence;
  result->type = parsed.type;
  if (parsed.type == kTypeValue) {
    result->value.assign(value.data(), value.size());
  } else {
    result->value.clear();
  }
}

// Looks key up in one file. *found if the file holds a version of the user key visible at
// key.sequence().
Status GetFromFile(const ReadOptions& options, const FileMetaData& f, const LookupKey& key,
                   TableCache* table_cache, TableLookup* result, bool* found) {
  *found = false;
  Status parse_error;
  Status s =
      table_cache->Get(options, f.number, f.file_size, key.internal_key(),
                       [&](const Slice& ikey, const Slice& value) {
                         TakeEntry(f, key.user_key(), ikey, value, result, found, &parse_error);
                       });
  if (s.ok()) s = parse_error;
  return s;
}

// MultiGet's step in one file: looks up items[which[0..)] (ascending) there, and takes what the
// file holds for an item if it is newer than what the item has. An error is the status of every
// item looked up.
void MultiGetFromFile(const ReadOptions& options, const FileMetaData& f, TableCache* table_cache,
                      const std::vector<size_t>& which, TableMultiLookup* items) {
  thread_local std::vector<Slice> keys;
  keys.clear();
  for (size_t i : which) keys.push_back(items[i].internal_key);
  Status parse_error;
  Status s = table_cache->MultiGet(options, f.number, f.file_size, keys.data(), keys.size(),
                                   [&](size_t j, const Slice& ikey, const Slice& value) {
                                     TableMultiLookup& item = items[which[j]];
                                     TakeEntry(f, ExtractUserKey(item.internal_key), ikey, value,
                                               &item.result, &item.found, &parse_error);
                                   });
  if (s.ok()) s = parse_error;
  if (!s.ok()) {
    for (size_t i : which) items[i].status = s;
  }
}

}  // namespace

void Version::MultiGet(const ReadOptions& options, TableCache* table_cache, TableMultiLookup* items,
                       size_t n) const {
  std::vector<size_t> which;
  // Level 0, as in Get: every file that may hold a version newer than the one an item has.
  for (const auto& f : files(0)) {
    which.clear();
    for (size_t i = 0; i < n; i++) {
      const TableMultiLookup& item = items[i];
      if (!item.status.ok() || (item.found && item.result.sequence > f->largest_seqno)) continue;
      const Slice user_key = ExtractUserKey(item.internal_key);
      if (user_key.compare(f->smallest.user_key()) < 0) continue;
      if (user_key.compare(f->largest.user_key()) > 0) break;  // and so are the later keys
      which.push_back(i);
    }
    if (!which.empty()) MultiGetFromFile(options, *f, table_cache, which, items);
  }
  // Deeper levels: an item found (or failed) above is final; the others go, in runs of
  // neighbours, to the one file of the level that may hold them.
  for (int level = 1; level < num_levels(); level++) {
    const FileList& list = files(level);
    if (list.empty()) continue;
    size_t i = 0;
    while (i < n) {
      if (items[i].found || !items[i].status.ok()) {
        i++;
        continue;
      }
      const size_t index = FindFileForKey(list, items[i].internal_key);
      if (index >= list.size()) break;  // past the level's last key, as the later keys are
      const FileMetaData& f = *list[index];
      which.clear();
      // Every later key up to the file's largest falls in this file too (the keys ascend).
      for (; i < n && FileMayHoldKey(f, items[i].internal_key); i++) {
        if (items[i].found || !items[i].status.ok()) continue;
        if (ExtractUserKey(items[i].internal_key).compare(f.smallest.user_key()) < 0) continue;
        which.push_back(i);
      }
      if (!which.empty()) MultiGetFromFile(options, f, table_cache, which, items);
    }
  }
}

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

bool FileMayHoldKey(const FileMetaData& f, const Slice& internal_key) {
  if (IsRangeEndBound(f.largest)) {
    return ExtractUserKey(internal_key).compare(f.largest.user_key()) < 0;
  }
  return ICmp().Compare(internal_key, f.largest.Encode()) <= 0;
}

size_t FindFileForKey(const FileList& files, const Slice& internal_key) {
  size_t index = FindFile(files, internal_key);
  while (index < files.size() && !FileMayHoldKey(*files[index], internal_key)) index++;
  return index;
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
    const size_t index = FindFileForKey(list, key.internal_key());
    if (index >= list.size()) continue;
    const FileMetaData& f = *list[index];
    if (user_key.compare(f.smallest.user_key()) < 0) continue;
    Status s = GetFromFile(options, f, key, table_cache, result, found);
    if (!s.ok() || *found) return s;
  }
  return Status::OK();
}

namespace {

// The file's range tombstones (null if it has none), from its metadata once loaded.
Status FileTombstones(const FileMetaData& f, TableCache* table_cache,
                      std::shared_ptr<const FragmentedRangeTombstones>* shared,
                      const FragmentedRangeTombstones** raw) {
  if (f.num_range_deletions == 0) return Status::OK();
  if (f.range_tombstones != nullptr) {
    *raw = f.range_tombstones->Get();
    if (*raw != nullptr && shared == nullptr) return Status::OK();
  }
  std::shared_ptr<const FragmentedRangeTombstones> t;
  if (f.range_tombstones != nullptr) t = f.range_tombstones->Shared();
  if (t == nullptr) {
    Status s = table_cache->GetRangeTombstones(f.number, f.file_size, &t);
    if (!s.ok()) return s;
    if (f.range_tombstones != nullptr) t = f.range_tombstones->Set(std::move(t));
  }
  *raw = t.get();
  if (shared != nullptr) *shared = std::move(t);
  return Status::OK();
}

}  // namespace

Status Version::MaxCoveringTombstone(const Slice& user_key, SequenceNumber read_seq,
                                     TableCache* table_cache, SequenceNumber* covering) const {
  if (!has_range_deletions_) return Status::OK();
  auto check = [&](const FileMetaData& f) -> Status {
    if (f.num_range_deletions == 0 || f.smallest_seqno > read_seq ||
        user_key.compare(f.smallest.user_key()) < 0 || user_key.compare(f.largest.user_key()) > 0) {
      return Status::OK();
    }
    const FragmentedRangeTombstones* t = nullptr;
    Status s = FileTombstones(f, table_cache, nullptr, &t);
    if (s.ok() && t != nullptr) {
      *covering = std::max(*covering, t->MaxCoveringSequence(user_key, read_seq));
    }
    return s;
  };
  for (const auto& f : files(0)) {
    Status s = check(*f);
    if (!s.ok()) return s;
  }
  const InternalKey target(user_key, kMaxSequenceNumber, kValueTypeForSeek);
  for (int level = 1; level < num_levels(); level++) {
    const FileList& list = files(level);
    // A file ending in a tombstone's end bound at user_key holds nothing of it: the next might.
    const size_t index = FindFileForKey(list, target.Encode());
    if (index >= list.size()) continue;
    Status s = check(*list[index]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status Version::AddRangeTombstones(TableCache* table_cache, RangeDelCheck* check) const {
  if (!has_range_deletions_) return Status::OK();
  for (int level = 0; level < num_levels(); level++) {
    for (const auto& f : files(level)) {
      if (f->num_range_deletions == 0) continue;
      std::shared_ptr<const FragmentedRangeTombstones> t;
      const FragmentedRangeTombstones* raw = nullptr;
      Status s = FileTombstones(*f, table_cache, &t, &raw);
      if (!s.ok()) return s;
      check->Add(std::move(t));
    }
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
