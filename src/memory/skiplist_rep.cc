// memory/skiplist_rep.cc — see skiplist_rep.h.

#include "memory/skiplist_rep.h"

#include <algorithm>

namespace sluice {

namespace {

// Adapts the skiplist iterator to the engine's InternalIterator (keys are internal keys).
class SkipListRepIterator final : public InternalIterator {
 public:
  explicit SkipListRepIterator(const EntryList* list) : iter_(list) {}

  bool Valid() const override { return iter_.Valid(); }
  void SeekToFirst() override { iter_.SeekToFirst(); }
  void SeekToLast() override { iter_.SeekToLast(); }
  void Seek(const Slice& target) override {
    EncodeLookupEntryFromInternalKey(&scratch_, target);
    iter_.Seek(scratch_.data());
  }
  void Next() override { iter_.Next(); }
  void Prev() override { iter_.Prev(); }
  Slice key() const override { return EntryInternalKey(iter_.key()); }
  Slice value() const override { return EntryValue(iter_.key()); }
  Status status() const override { return Status::OK(); }

 private:
  EntryList::Iterator iter_;
  std::string scratch_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewEntryListIterator(const EntryList* list) {
  return std::make_unique<SkipListRepIterator>(list);
}

void AddToEntryList(EntryList* list, int height, SequenceNumber seq, ValueType type,
                    const Slice& key, const Slice& value) {
  char* entry = list->AllocateKey(EncodedEntrySize(key, value), height);
  EncodeEntry(entry, seq, type, key, value);
  const bool inserted = list->Insert(entry);
  assert(inserted);  // (key, seq) pairs are unique by contract
  (void)inserted;
}

bool GetFromEntryList(const EntryList* list, const Slice& key, SequenceNumber read_seq,
                      MemoryLookup* result) {
  thread_local std::string lookup;
  EncodeLookupEntry(&lookup, key, read_seq);
  EntryList::Iterator it(list);
  it.Seek(lookup.data());
  return it.Valid() && LookupFromEntry(it.key(), key, result);
}

size_t ArenaBlockSizeFor(size_t write_buffer_size) {
  return std::clamp<size_t>(write_buffer_size / 16, 1 << 10, 4 << 20);
}

SkipListRep::SkipListRep(size_t write_buffer_size,
                         std::function<SequenceNumber()> announced_sequence)
    : arena_(ArenaBlockSizeFor(write_buffer_size)),
      list_(EntryComparator(), &arena_),
      announced_sequence_(std::move(announced_sequence)) {}

void SkipListRep::Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
                      bool /*keep_older: versions are never replaced here*/) {
  AddToEntryList(&list_, EntryList::RandomHeight(EntryList::kMaxHeight), seq, type, key, value);
  entries_.fetch_add(1, std::memory_order_relaxed);
}

bool SkipListRep::Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) {
  return GetFromEntryList(&list_, key, read_seq, result);
}

std::unique_ptr<InternalIterator> SkipListRep::NewIterator() {
  return NewEntryListIterator(&list_);
}

}  // namespace sluice
