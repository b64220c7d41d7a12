// db/write_batch.cc — WriteBatch and its encoding (see write_batch_internal.h).

#include <algorithm>
#include <string>
#include <vector>

#include "db/write_batch_internal.h"
#include "memory/memory_component.h"
#include "util/coding.h"

namespace sluice {

namespace {

struct Update {
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
    const uint8_t tag = static_cast<uint8_t>(input[0]);
    input.remove_prefix(1);
    Update u;
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

void WriteBatch::Put(const Slice& key, const Slice& value) {
  WriteBatchInternal::SetCount(this, WriteBatchInternal::Count(this) + 1);
  rep_.push_back(static_cast<char>(kTypeValue));
  PutLengthPrefixedSlice(&rep_, key);
  PutLengthPrefixedSlice(&rep_, value);
}

void WriteBatch::Delete(const Slice& key) {
  WriteBatchInternal::SetCount(this, WriteBatchInternal::Count(this) + 1);
  rep_.push_back(static_cast<char>(kTypeDeletion));
  PutLengthPrefixedSlice(&rep_, key);
}

void WriteBatch::DeleteRange(const Slice& begin, const Slice& end) {
  WriteBatchInternal::SetCount(this, WriteBatchInternal::Count(this) + 1);
  rep_.push_back(static_cast<char>(kTypeRangeDeletion));
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
    if (u.type == kTypeValue) {
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
  if (IsAborted(b)) return Status::OK();
  const SequenceNumber seq = Sequence(b);
  auto add_range = [&](const Update& u) {
    if (u.key.compare(u.value) < 0) mem->range_tombstones().Add(u.key, u.value, seq);
  };
  if (Count(b) == 1) {  // the common single Put/Delete: no copy, no sort
    return ForEachUpdate(b->rep_, [&](const Update& u) {
      if (u.type == kTypeRangeDeletion) {
        add_range(u);
      } else {
        mem->Add(seq, u.type, u.key, u.value);
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
      return r.key.compare(u.key) <= 0 && u.key.compare(r.value) < 0;
    });
    if (covered) updates[i].type = kTypeRangeDeletion;  // dropped below
  }
  updates.erase(std::remove_if(updates.begin(), updates.end(),
                               [](const Update& u) { return u.type == kTypeRangeDeletion; }),
                updates.end());
  if (updates.size() > 1) {
    // Keep the last update of each key: stable sort by key, then take the last of each run.
    std::stable_sort(updates.begin(), updates.end(),
                     [](const Update& a, const Update& c) { return a.key.compare(c.key) < 0; });
    size_t out = 0;
    for (size_t i = 0; i < updates.size(); i++) {
      if (i + 1 < updates.size() && updates[i + 1].key == updates[i].key) continue;
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
  for (const Update& u : updates) mem->Add(seq, u.type, u.key, u.value, keep_older);
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
  if (static_cast<uint8_t>(input[kHeader]) == kTypeRangeDeletion) return false;
  input.remove_prefix(kHeader + 1);  // the header and the record's tag
  return GetLengthPrefixedSlice(&input, key);
}

Status WriteBatchInternal::CheckUpdates(const WriteBatch* b, size_t* max_key, size_t* max_value) {
  *max_key = 0;
  *max_value = 0;
  Status s;
  uint32_t index = 0;
  ForEachUpdate(b->rep_, [&](const Update& u) {
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
  return s;
}

}  // namespace sluice
