// base/merging_iterator.cc — see merging_iterator.h.
//
// Invariant: in forward direction every valid child is positioned at its first key >= key();
// in reverse direction every valid child is positioned at its last key <= key() (the current
// child exactly at key()). Switching direction re-seeks the other children accordingly.
// The heap holds each valid child with a copy of its key() Slice, refreshed whenever that child
// moves, so sifting compares cached keys instead of calling through the children's iterator
// chains; with an internal-key comparator the comparison is a direct (non-virtual) call.

#include "base/merging_iterator.h"

#include <algorithm>

#include "base/internal_key.h"

namespace sluice {

namespace {

class MergingIterator final : public InternalIterator {
 public:
  MergingIterator(const Comparator* cmp, std::vector<std::unique_ptr<InternalIterator>> children)
      : cmp_(cmp),
        icmp_(dynamic_cast<const InternalKeyComparator*>(cmp)),
        children_(std::move(children)) {
    heap_.reserve(children_.size());
  }

  bool Valid() const override { return current_ != nullptr; }

  void SeekToFirst() override {
    for (auto& c : children_) c->SeekToFirst();
    Rebuild(kForward);
  }
  void SeekToLast() override {
    for (auto& c : children_) c->SeekToLast();
    Rebuild(kReverse);
  }
  void Seek(const Slice& target) override {
    for (auto& c : children_) c->Seek(target);
    Rebuild(kForward);
  }

  void Next() override {
    if (direction_ != kForward) {
      // Move every other child to its first key > key().
      const std::string k = key().ToString();
      for (auto& c : children_) {
        if (c.get() == current_) continue;
        c->Seek(k);
        if (c->Valid() && cmp_->Compare(k, c->key()) == 0) c->Next();
      }
      current_->Next();
      Rebuild(kForward);
      return;
    }
    current_->Next();
    Advanced();
  }

  void Prev() override {
    if (direction_ != kReverse) {
      // Move every other child to its last key < key().
      const std::string k = key().ToString();
      for (auto& c : children_) {
        if (c.get() == current_) continue;
        c->Seek(k);
        if (c->Valid()) {
          c->Prev();
        } else {
          c->SeekToLast();
        }
      }
      current_->Prev();
      Rebuild(kReverse);
      return;
    }
    current_->Prev();
    Advanced();
  }

  Slice key() const override { return heap_[0].key; }
  Slice value() const override { return current_->value(); }

  Status status() const override {
    for (const auto& c : children_) {
      Status s = c->status();
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

 private:
  enum Direction { kForward, kReverse };

  // A valid child in the heap; rank (its index in children_) breaks ties between equal keys.
  struct Entry {
    InternalIterator* it;
    Slice key;  // it->key(), refreshed whenever `it` moves
    size_t rank;
  };

  int Compare(const Slice& a, const Slice& b) const {
    return icmp_ != nullptr ? icmp_->Compare(a, b) : cmp_->Compare(a, b);
  }

  // True if a should be above b in the heap.
  bool Before(const Entry& a, const Entry& b) const {
    const int r = Compare(a.key, b.key);
    if (r != 0) return direction_ == kForward ? r < 0 : r > 0;
    return a.rank < b.rank;
  }

  void Rebuild(Direction d) {
    direction_ = d;
    heap_.clear();
    for (size_t i = 0; i < children_.size(); i++) {
      InternalIterator* c = children_[i].get();
      if (c->Valid()) {
        heap_.push_back(Entry{c, c->key(), i});
      } else if (!c->status().ok()) {
        Fail();
        return;
      }
    }
    for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
    current_ = heap_.empty() ? nullptr : heap_[0].it;
  }

  // After current_ (the top of the heap) moved in the current direction.
  void Advanced() {
    if (current_->Valid()) {
      heap_[0].key = current_->key();
      SiftDown(0);
    } else if (!current_->status().ok()) {
      Fail();
      return;
    } else {
      PopTop();
    }
    current_ = heap_.empty() ? nullptr : heap_[0].it;
  }

  // A child failed: stop (status() reports it).
  void Fail() {
    heap_.clear();
    current_ = nullptr;
  }

  void SiftDown(size_t i) {
    const size_t n = heap_.size();
    for (;;) {
      size_t best = i;
      const size_t l = 2 * i + 1, r = 2 * i + 2;
      if (l < n && Before(heap_[l], heap_[best])) best = l;
      if (r < n && Before(heap_[r], heap_[best])) best = r;
      if (best == i) return;
      std::swap(heap_[i], heap_[best]);
      i = best;
    }
  }

  void PopTop() {
    heap_[0] = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(0);
  }

  const Comparator* const cmp_;
  const InternalKeyComparator* const icmp_;  // cmp_ if it is one, else null
  std::vector<std::unique_ptr<InternalIterator>> children_;
  std::vector<Entry> heap_;
  InternalIterator* current_ = nullptr;
  Direction direction_ = kForward;
};

}  // namespace

std::unique_ptr<InternalIterator> NewMergingIterator(
    const Comparator* cmp, std::vector<std::unique_ptr<InternalIterator>> children) {
  if (children.empty()) return NewEmptyIterator();
  if (children.size() == 1) return std::move(children[0]);
  return std::make_unique<MergingIterator>(cmp, std::move(children));
}

}  // namespace sluice
