// base/internal_iterator.cc — see internal_iterator.h.

#include "base/internal_iterator.h"

namespace sluice {

InternalIterator::~InternalIterator() {
  for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) (*it)();
}

namespace {

class EmptyIterator final : public InternalIterator {
 public:
  explicit EmptyIterator(Status s) : status_(std::move(s)) {}
  bool Valid() const override { return false; }
  void SeekToFirst() override {}
  void SeekToLast() override {}
  void Seek(const Slice&) override {}
  void Next() override {}
  void Prev() override {}
  Slice key() const override { return Slice(); }
  Slice value() const override { return Slice(); }
  Status status() const override { return status_; }

 private:
  Status status_;
};

}  // namespace

std::unique_ptr<InternalIterator> NewEmptyIterator() {
  return std::make_unique<EmptyIterator>(Status::OK());
}

std::unique_ptr<InternalIterator> NewErrorIterator(const Status& status) {
  return std::make_unique<EmptyIterator>(status);
}

}  // namespace sluice
