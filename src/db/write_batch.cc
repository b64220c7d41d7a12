// db/write_batch.cc — WriteBatch and its encoding (see write_batch_internal.h).

#include <algorithm>
#include <cassert>
#include <string>
#include <vector>

#include "db/write_batch_internal.h"
#include "memory/memory_component.h"
#include "sluice/db.h"
#include "util/coding.h"

namespace sluice {

namespace {

struct Update {
  uint32_t family = 0;
  ValueType type;
  Slice key;    // kTypeRangeDeletion: the range's begin
  Slice value;  // kTypeRangeDeletion: the range's end
};

// Calls fn(update) for every record in order; Corruption if the encoding or the count is
// wrong. Allocates nothing.
template <typename Fn>
Status ForEachUpdate(const std::string& rep, Fn&& fn) {
  if (rep.size() < WriteBatchInternal::kHeader) {
    return Status::Corruption("write batch too small");
  }
  Slice input(rep);
  input.remove_prefix(WriteBatchInternal::kHeader);
  const uint32_t expected = DecodeFixed32(rep.data() + 8) & ~WriteBatchInternal::kAbortedBit;
  uint32_t found = 0;
  while (!input.empty()) {
    uint8_t tag = static_cast<uint8_t>(input[0]);
    input.remove_prefix(1);
    Update u;
    if ((tag & WriteBatchInternal::kFamilyBit) != 0) {
      tag &= ~WriteBatchInternal::kFamilyBit;
      if (!GetVarint32(&input, &u.family) || u.family == 0) {
        return Status::Corruption("bad write batch column family id");
      }
    }
    switch (tag) {
      case kTypeValue:
        if (!GetLengthPrefixedSlice(&input, &u.key) || !GetLengthPrefixedSlice(&input, &u.value)) {
          return Status::Corruption("bad write batch put record");
        }
        u.type = kTypeValue;
        break;
      case kTypeDeletion:
        if (!GetLengthPrefixedSlice(&input, &u.key)) {
          return Status::Corruption("bad write batch delete record");
        }
        u.type = kTypeDeletion;
        break;
      case kTypeRangeDeletion:
        // (begin > end is refused by DB::Write, ValidateRanges; InsertInto ignores it.)
        if (!GetLengthPrefixedSlice(&input, &u.key) || !GetLengthPrefixedSlice(&input, &u.value)) {
          return Status::Corruption("bad write batch delete-range record");
        }
        u.type = kTypeRangeDeletion;
        break;
      default: return Status::Corruption("unknown write batch record tag");
    }
    fn(u);
    found++;
  }
  if (found != expected) return Status::Corruption("write batch count does not match records");
  return Status::OK();
}

Status ParseRecords(const std::string& rep, std::vector<Update>* updates) {
  return ForEachUpdate(rep, [&](const Update& u) {
    if (updates != nullptr) updates->push_back(u);
  });
}

}  // namespace

WriteBatch::WriteBatch() { Clear(); }

void WriteBatch::Clear() {
  rep_.clear();
  rep_.resize(WriteBatchInternal::kHeader);
}

uint32_t WriteBatch::Count() const { return WriteBatchInternal::Count(this); }

void WriteBatch::AddRecord(uint32_t family, unsigned char type) {
  WriteBatchInternal::SetCount(this, WriteBatchInternal::Count(this) + 1);
  if (family == 0) {
    rep_.push_back(static_cast<char>(type));
  } else {
    rep_.push_back(static_cast<char>(type | WriteBatchInternal::kFamilyBit));
    PutVarint32(&rep_, family);
  }
}

namespace {
uint32_t FamilyId(ColumnFamilyHandle* family) { return family == nullptr ? 0 : family->GetID(); }
}  // namespace

void WriteBatch::Put(const Slice& key, const Slice& value) { Put(nullptr, key, value); }

void WriteBatch::Put(ColumnFamilyHandle* family, const Slice& key, const Slice& value) {
  AddRecord(FamilyId(family), kTypeValue);
  PutLengthPrefixedSlice(&rep_, key);
  PutLengthPrefixedSlice(&rep_, value);
}

void WriteBatch::Delete(const Slice& key) { Delete(nullptr, key); }

void WriteBatch::Delete(ColumnFamilyHandle* family, const Slice& key) {
  AddRecord(FamilyId(family), kTypeDeletion);
  PutLengthPrefixedSlice(&rep_, key);
}

void WriteBatch::DeleteRange(const Slice& begin, const Slice& end) {
  DeleteRange(nullptr, begin, end);
}

void WriteBatch::DeleteRange(ColumnFamilyHandle* family, const Slice& begin, const Slice& end) {
  AddRecord(FamilyId(family), kTypeRangeDeletion);
  PutLengthPrefixedSlice(&rep_, begin);
  PutLengthPrefixedSlice(&rep_, end);
}

void WriteBatch::Append(const WriteBatch& source) {
  WriteBatchInternal::SetCount(this, Count() + source.Count());
  rep_.append(source.rep_.data() + WriteBatchInternal::kHeader,
              source.rep_.size() - WriteBatchInternal::kHeader);
}

Status WriteBatch::Iterate(Handler* handler) const {
  std::vector<Update> updates;
  Status s = ParseRecords(rep_, &updates);
  if (!s.ok()) return s;
  for (const Update& u : updates) {
    if (u.family != 0) {
      if (u.type == kTypeValue) {
        handler->PutCF(u.family, u.key, u.value);
      } else if (u.type == kTypeDeletion) {
        handler->DeleteCF(u.family, u.key);
      } else {
        handler->DeleteRangeCF(u.family, u.key, u.value);
      }
    } else if (u.type == kTypeValue) {
      handler->Put(u.key, u.value);
    } else if (u.type == kTypeDeletion) {
      handler->Delete(u.key);
    } else {
      handler->DeleteRange(u.key, u.value);
    }
  }
  return Status::OK();
}

uint32_t WriteBatchInternal::Count(const WriteBatch* b) {
  return DecodeFixed32(b->rep_.data() + 8) & ~kAbortedBit;
}

void WriteBatchInternal::SetCount(WriteBatch* b, uint32_t n) {
  EncodeFixed32(&b->rep_[8], n | (DecodeFixed32(b->rep_.data() + 8) & kAbortedBit));
}

bool WriteBatchInternal::IsAborted(const WriteBatch* b) {
  return (DecodeFixed32(b->rep_.data() + 8) & kAbortedBit) != 0;
}

void WriteBatchInternal::MarkAborted(WriteBatch* b) {
  EncodeFixed32(&b->rep_[8], DecodeFixed32(b->rep_.data() + 8) | kAbortedBit);
}

SequenceNumber WriteBatchInternal::Sequence(const WriteBatch* b) {
  return DecodeFixed64(b->rep_.data());
}

void WriteBatchInternal::SetSequence(WriteBatch* b, SequenceNumber seq) {
  EncodeFixed64(&b->rep_[0], seq);
}

Status WriteBatchInternal::SetContents(WriteBatch* b, const Slice& contents) {
  b->rep_.assign(contents.data(), contents.size());
  Status s = ParseRecords(b->rep_, nullptr);
  if (s.ok() && Sequence(b) > kMaxSequenceNumber) {
    // An internal key holds 56 bits of sequence: replaying this would wrap it around.
    return Status::Corruption("write batch sequence number " + std::to_string(Sequence(b)) +
                              " exceeds the largest, " + std::to_string(kMaxSequenceNumber));
  }
  return s;
}

Status WriteBatchInternal::InsertInto(const WriteBatch* b, MemoryComponent* mem) {
  return InsertInto(b, [mem](uint32_t family) { return family == 0 ? mem : nullptr; });
}

Status WriteBatchInternal::InsertInto(const WriteBatch* b,
                                      const std::function<MemoryComponent*(uint32_t family)>& mem) {
  if (IsAborted(b)) return Status::OK();
  const SequenceNumber seq = Sequence(b);
  auto add_range = [&](const Update& u) {
    MemoryComponent* m = u.key.compare(u.value) < 0 ? mem(u.family) : nullptr;
    if (m != nullptr) m->range_tombstones().Add(u.key, u.value, seq);
  };
  if (Count(b) == 1) {  // the common single Put/Delete: no copy, no sort
    return ForEachUpdate(b->rep_, [&](const Update& u) {
      if (u.type == kTypeRangeDeletion) {
        add_range(u);
      } else if (MemoryComponent* m = mem(u.family)) {
        m->Add(seq, u.type, u.key, u.value);
      }
    });
  }
  std::vector<Update> updates;
  Status s = ParseRecords(b->rep_, &updates);
  if (!s.ok()) return s;
  // Updates take effect in batch order, but all share one sequence number, and a tombstone
  // hides only older versions: so a point update followed (later in the batch) by a range
  // deletion covering its key is dropped here, and the version before the batch, if any, is
  // hidden by the tombstone. A point update after the range deletion stays visible.
  std::vector<Update> ranges;
  for (size_t i = updates.size(); i-- > 0;) {
    const Update& u = updates[i];
    if (u.type == kTypeRangeDeletion) {
      ranges.push_back(u);
      continue;
    }
    const bool covered = std::any_of(ranges.begin(), ranges.end(), [&](const Update& r) {
      return r.family == u.family && r.key.compare(u.key) <= 0 && u.key.compare(r.value) < 0;
    });
    if (covered) updates[i].type = kTypeRangeDeletion;  // dropped below
  }
  updates.erase(std::remove_if(updates.begin(), updates.end(),
                               [](const Update& u) { return u.type == kTypeRangeDeletion; }),
                updates.end());
  if (updates.size() > 1) {
    // Keep the last update of each key of each family: stable sort by (family, key), then take
    // the last of each run.
    std::stable_sort(updates.begin(), updates.end(), [](const Update& a, const Update& c) {
      return a.family != c.family ? a.family < c.family : a.key.compare(c.key) < 0;
    });
    size_t out = 0;
    for (size_t i = 0; i < updates.size(); i++) {
      if (i + 1 < updates.size() && updates[i + 1].family == updates[i].family &&
          updates[i + 1].key == updates[i].key) {
        continue;
      }
      updates[out++] = updates[i];
    }
    updates.resize(out);
  }
  // The tombstones first: a reader that sees a version of the batch must not miss them (it
  // would not: readers skip an incomplete batch, but the order costs nothing).
  for (const Update& r : ranges) add_range(r);
  // Readers skip a multi-update batch's versions until it is complete (see SequenceOracle), so
  // the versions it replaces must stay readable; the same test as the write path's.
  const bool keep_older = Count(b) > 1;
  MemoryComponent* m = nullptr;
  uint32_t m_family = UINT32_MAX;
  for (const Update& u : updates) {  // sorted by family: one lookup per family
    if (u.family != m_family) {
      m = mem(u.family);
      m_family = u.family;
    }
    if (m != nullptr) m->Add(seq, u.type, u.key, u.value, keep_older);
  }
  return Status::OK();
}

bool WriteBatchInternal::ForEachKey(const WriteBatch* b,
                                    const std::function<void(const Slice&)>& fn) {
  bool range = false;
  ForEachUpdate(b->rep_, [&](const Update& u) {
    if (u.type == kTypeRangeDeletion) {
      range = true;
    } else {
      fn(u.key);
    }
  });
  return range;
}

bool WriteBatchInternal::SingleKey(const WriteBatch* b, Slice* key) {
  if (Count(b) != 1 || b->rep_.size() <= kHeader) return false;
  Slice input(b->rep_);
  const uint8_t tag = static_cast<uint8_t>(input[kHeader]);
  if ((tag & ~kFamilyBit) == kTypeRangeDeletion) return false;
  input.remove_prefix(kHeader + 1);  // the header and the record's tag
  uint32_t family;
  if ((tag & kFamilyBit) != 0 && !GetVarint32(&input, &family)) return false;
  return GetLengthPrefixedSlice(&input, key);
}

Status WriteBatchInternal::CheckUpdates(const WriteBatch* b, size_t* max_key, size_t* max_value,
                                        std::vector<uint32_t>* families) {
  *max_key = 0;
  *max_value = 0;
  if (families != nullptr) families->clear();
  Status s;
  uint32_t index = 0;
  ForEachUpdate(b->rep_, [&](const Update& u) {
    if (families != nullptr &&
        std::find(families->begin(), families->end(), u.family) == families->end()) {
      families->push_back(u.family);
    }
    *max_key = std::max(*max_key, u.key.size());
    if (u.type == kTypeRangeDeletion) {
      *max_key = std::max(*max_key, u.value.size());  // the range's end is a key
      if (s.ok() && u.key.compare(u.value) > 0) {
        s = Status::InvalidArgument("DeleteRange: begin is after end in update " +
                                    std::to_string(index) + " of the batch");
      }
    } else {
      *max_value = std::max(*max_value, u.value.size());
    }
    index++;
  });
  if (families != nullptr) std::sort(families->begin(), families->end());
  return s;
}

}  // namespace sluice
