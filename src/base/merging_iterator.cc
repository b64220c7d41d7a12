// base/merging_iterator.cc — see merging_iterator.h.
//
// Invariant: in forward direction every valid child is positioned at its first key >= key();
// in reverse direction every valid child is positioned at its last key <= key() (the current
// child exactly at key()). Switching direction re-seeks the other children accordingly.

#include "base/merging_iterator.h"

#include <algorithm>

namespace sluice {

namespace {

class MergingIterator final : public InternalIterator {
 public:
  MergingIterator(const Comparator* cmp, std::vector<std::unique_ptr<InternalIterator>> children)
      : cmp_(cmp), children_(std::move(children)) {
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

  Slice key() const override { return current_->key(); }
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

  // True if a should be above b in the heap.
  bool Before(InternalIterator* a, InternalIterator* b) const {
    const int r = cmp_->Compare(a->key(), b->key());
    if (r != 0) return direction_ == kForward ? r < 0 : r > 0;
    return Rank(a) < Rank(b);
  }
  size_t Rank(InternalIterator* it) const {
    for (size_t i = 0; i < children_.size(); i++) {
      if (children_[i].get() == it) return i;
    }
    return children_.size();
  }

  void Rebuild(Direction d) {
    direction_ = d;
    heap_.clear();
    for (auto& c : children_) {
      if (c->Valid()) {
        heap_.push_back(c.get());
      } else if (!c->status().ok()) {
        Fail();
        return;
      }
    }
    for (size_t i = heap_.size() / 2; i-- > 0;) SiftDown(i);
    current_ = heap_.empty() ? nullptr : heap_[0];
  }

  // After current_ moved in the current direction.
  void Advanced() {
    if (current_->Valid()) {
      SiftDown(0);
    } else if (!current_->status().ok()) {
      Fail();
      return;
    } else {
      PopTop();
    }
    current_ = heap_.empty() ? nullptr : heap_[0];
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
  std::vector<std::unique_ptr<InternalIterator>> children_;
  std::vector<InternalIterator*> heap_;
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
