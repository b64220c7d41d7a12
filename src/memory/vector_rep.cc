// memory/vector_rep.cc — see vector_rep.h.

#include "memory/vector_rep.h"

#include <algorithm>
#include <string>

#include "memory/skiplist_rep.h"  // ArenaBlockSizeFor

namespace sluice {

namespace {

bool EntryLess(const char* a, const char* b) { return EntryComparator()(a, b) < 0; }

// Iterates one sorted run, which it keeps alive.
class VectorRepIterator final : public InternalIterator {
 public:
  explicit VectorRepIterator(std::shared_ptr<const VectorRep::Run> run)
      : run_(std::move(run)), pos_(run_->size()) {}

  bool Valid() const override { return pos_ < run_->size(); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override { pos_ = run_->empty() ? run_->size() : run_->size() - 1; }
  void Seek(const Slice& target) override {
    EncodeLookupEntryFromInternalKey(&scratch_, target);
    pos_ = static_cast<size_t>(
        std::lower_bound(run_->begin(), run_->end(), scratch_.data(), EntryLess) - run_->begin());
  }
  void Next() override { pos_++; }
  void Prev() override { pos_ = pos_ == 0 ? run_->size() : pos_ - 1; }
  Slice key() const override { return EntryInternalKey((*run_)[pos_]); }
  Slice value() const override { return EntryValue((*run_)[pos_]); }
  Status status() const override { return Status::OK(); }

 private:
  const std::shared_ptr<const VectorRep::Run> run_;
  size_t pos_;  // == size(): not valid
  std::string scratch_;
};

}  // namespace

size_t VectorRep::PreallocatedEntries(size_t write_buffer_size) {
  return write_buffer_size / kPreallocatedEntryBytes;
}

VectorRep::VectorRep(size_t write_buffer_size, bool preallocate)
    : preallocate_(preallocate), arena_(ArenaBlockSizeFor(write_buffer_size)) {
  if (preallocate_) pending_.reserve(PreallocatedEntries(write_buffer_size));
  MutexLock l(&mu_);
  UpdateIndexBytesLocked();
}

void VectorRep::UpdateIndexBytesLocked() {
  index_bytes_.store((pending_.capacity() + run_->capacity()) * sizeof(const char*),
                     std::memory_order_relaxed);
}

size_t VectorRep::ApproximateMemoryUsage() const {
  return arena_.MemoryUsage() + index_bytes_.load(std::memory_order_relaxed) + sizeof(*this);
}

void VectorRep::Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
                    bool /*keep_older: versions are never replaced here*/) {
  const size_t size = EncodedEntrySize(key, value);
  char* entry = arena_.Allocate(size);  // the arena is thread-safe: encode outside the lock
  EncodeEntry(entry, seq, type, key, value);
  {
    MutexLock l(&mu_);
    const size_t capacity = pending_.capacity();
    pending_.push_back(entry);
    if (pending_.capacity() != capacity) UpdateIndexBytesLocked();
  }
  entries_.fetch_add(1, std::memory_order_relaxed);
}

std::shared_ptr<const VectorRep::Run> VectorRep::SortedRun() {
  MutexLock l(&mu_);
  if (pending_.empty()) return run_;
  std::sort(pending_.begin(), pending_.end(), EntryLess);
  auto merged = std::make_shared<Run>();
  merged->reserve(run_->size() + pending_.size());
  std::merge(run_->begin(), run_->end(), pending_.begin(), pending_.end(),
             std::back_inserter(*merged), EntryLess);
  run_ = std::move(merged);
  pending_.clear();  // keeps its capacity (all of it for vector-prealloc)
  if (!preallocate_) pending_.shrink_to_fit();
  UpdateIndexBytesLocked();
  return run_;
}

bool VectorRep::Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) {
  const std::shared_ptr<const Run> run = SortedRun();
  thread_local std::string lookup;
  EncodeLookupEntry(&lookup, key, read_seq);
  auto it = std::lower_bound(run->begin(), run->end(), lookup.data(), EntryLess);
  return it != run->end() && LookupFromEntry(*it, key, result);
}

std::unique_ptr<InternalIterator> VectorRep::NewIterator() {
  return std::make_unique<VectorRepIterator>(SortedRun());
}

}  // namespace sluice
