// sluice_stress/family_layout.cc — see family_layout.h.

#include "family_layout.h"

#include <fmt/format.h>

namespace sluice::stress {

namespace {

// Merges iterators over disjoint key sets. Each positioning call moves every child; Next and
// Prev after a move the other way first reposition the other children around the current key.
class MergedIterator final : public Iterator {
 public:
  explicit MergedIterator(std::vector<std::unique_ptr<Iterator>> children)
      : children_(std::move(children)) {}

  bool Valid() const override { return current_ >= 0; }
  void SeekToFirst() override {
    for (auto& c : children_) c->SeekToFirst();
    Pick(true);
  }
  void SeekToLast() override {
    for (auto& c : children_) c->SeekToLast();
    Pick(false);
  }
  void Seek(const Slice& target) override {
    for (auto& c : children_) c->Seek(target);
    Pick(true);
  }
  void SeekForPrev(const Slice& target) override {
    for (auto& c : children_) c->SeekForPrev(target);
    Pick(false);
  }
  void Next() override {
    if (!forward_) Reposition(true);
    children_[static_cast<size_t>(current_)]->Next();
    Pick(true);
  }
  void Prev() override {
    if (forward_) Reposition(false);
    children_[static_cast<size_t>(current_)]->Prev();
    Pick(false);
  }
  Slice key() const override { return children_[static_cast<size_t>(current_)]->key(); }
  Slice value() const override { return children_[static_cast<size_t>(current_)]->value(); }
  Status status() const override {
    for (const auto& c : children_) {
      if (!c->status().ok()) return c->status();
    }
    return Status::OK();
  }

 private:
  // The smallest (forward) or largest valid child becomes current.
  void Pick(bool forward) {
    forward_ = forward;
    current_ = -1;
    for (size_t i = 0; i < children_.size(); i++) {
      if (!children_[i]->Valid()) continue;
      if (current_ < 0) {
        current_ = static_cast<int>(i);
        continue;
      }
      const int c = children_[i]->key().compare(key());
      if (forward ? c < 0 : c > 0) current_ = static_cast<int>(i);
    }
  }
  // Puts the other children just past (forward) or before the current key.
  void Reposition(bool forward) {
    const std::string k = key().ToString();
    for (size_t i = 0; i < children_.size(); i++) {
      if (static_cast<int>(i) == current_) continue;
      if (forward) {
        children_[i]->Seek(k);  // keys are disjoint: the first one found is past k
      } else {
        children_[i]->SeekForPrev(k);
      }
    }
    forward_ = forward;
  }

  std::vector<std::unique_ptr<Iterator>> children_;
  int current_ = -1;
  bool forward_ = true;
};

}  // namespace

Status FamilyLayout::Open(const Options& db_options, const std::string& path, int families,
                          std::unique_ptr<DB>* db, FamilyLayout* layout) {
  layout->handles_.clear();
  if (families <= 1) {
    Status s = DB::Open(db_options, path, db);
    if (s.ok()) layout->handles_.push_back((*db)->DefaultColumnFamily());
    return s;
  }
  static const char* const kOthers[] = {"hash-linklist", "skiplist", "vector", "hash-skiplist"};
  std::vector<ColumnFamilyDescriptor> descriptors;
  descriptors.emplace_back(kDefaultColumnFamilyName, db_options);
  for (int i = 1; i < families; i++) {
    ColumnFamilyOptions o = db_options;
    o.memtable = kOthers[(i - 1) % 4];
    descriptors.emplace_back(fmt::format("cf{}", i), o);
  }
  DBOptions options = db_options;
  options.create_missing_column_families = true;
  return DB::Open(options, path, descriptors, &layout->handles_, db);
}

std::unique_ptr<Iterator> FamilyLayout::NewIterator(DB* db, const ReadOptions& ro) const {
  if (handles_.size() == 1) return db->NewIterator(ro, handles_[0]);
  std::vector<std::unique_ptr<Iterator>> children;
  for (ColumnFamilyHandle* h : handles_) children.push_back(db->NewIterator(ro, h));
  return std::make_unique<MergedIterator>(std::move(children));
}

}  // namespace sluice::stress
