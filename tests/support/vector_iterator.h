// tests/support/vector_iterator.h — an InternalIterator over a plain sorted vector of
// (internal key, value), for tests of the code that consumes iterators (DBIter, merge jobs).
// It counts the moves (Next/Prev) made over it, so a test can state how far a consumer walked.
// Invariant: the entries are sorted by the default internal-key order (the caller's duty).

#ifndef SLUICE_TESTS_SUPPORT_VECTOR_ITERATOR_H_
#define SLUICE_TESTS_SUPPORT_VECTOR_ITERATOR_H_

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "base/internal_iterator.h"
#include "base/internal_key.h"

namespace sluice::test {

class VectorIterator final : public InternalIterator {
 public:
  // moves: where to count Next/Prev calls (may be null).
  explicit VectorIterator(std::vector<std::pair<std::string, std::string>> entries,
                          int* moves = nullptr)
      : entries_(std::move(entries)), moves_(moves) {}

  bool Valid() const override { return pos_ < entries_.size(); }
  void SeekToFirst() override { pos_ = 0; }
  void SeekToLast() override { pos_ = entries_.empty() ? entries_.size() : entries_.size() - 1; }
  void Seek(const Slice& target) override {
    const InternalKeyComparator* cmp = DefaultInternalKeyComparator();
    pos_ = std::lower_bound(entries_.begin(), entries_.end(), target,
                            [cmp](const auto& e, const Slice& t) {
                              return cmp->Compare(Slice(e.first), t) < 0;
                            }) -
           entries_.begin();
  }
  void Next() override {
    Count();
    ++pos_;
  }
  void Prev() override {
    Count();
    pos_ = pos_ == 0 ? entries_.size() : pos_ - 1;
  }
  Slice key() const override { return entries_[pos_].first; }
  Slice value() const override { return entries_[pos_].second; }
  Status status() const override { return Status::OK(); }

 private:
  void Count() {
    if (moves_ != nullptr) ++*moves_;
  }

  const std::vector<std::pair<std::string, std::string>> entries_;
  int* const moves_;
  size_t pos_ = 0;
};

// The encoded internal key (user_key, seq, type).
inline std::string IKey(const std::string& user_key, SequenceNumber seq, ValueType type) {
  std::string k;
  AppendInternalKey(&k, ParsedInternalKey(user_key, seq, type));
  return k;
}

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_VECTOR_ITERATOR_H_
