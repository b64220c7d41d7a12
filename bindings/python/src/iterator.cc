// bindings/python/src/iterator.cc — Iterator (bounded, prefix and reverse scans fetched in
// batches with the GIL released) and Snapshot (see iterator.h).

#include "iterator.h"

#include <algorithm>

namespace sluice_python {

namespace {

std::optional<std::string> OptionalBytes(py::handle obj, const char* what) {
  if (obj.is_none()) return std::nullopt;
  return Bytes(obj, what).str();
}

}  // namespace

IteratorSpec IteratorSpec::Parse(py::handle start, py::handle stop, py::handle prefix, bool reverse,
                                 bool include_value) {
  IteratorSpec spec;
  spec.start = OptionalBytes(start, "start");
  spec.stop = OptionalBytes(stop, "stop");
  spec.prefix = OptionalBytes(prefix, "prefix");
  spec.reverse = reverse;
  spec.include_value = include_value;
  return spec;
}

// --- PyIterator --------------------------------------------------------------------------------

PyIterator::PyIterator(std::shared_ptr<Core> core, const IteratorSpec& spec)
    : core_(std::move(core)),
      reverse_(spec.reverse),
      include_value_(spec.include_value),
      lower_(spec.start),
      upper_(spec.stop) {
  if (spec.prefix) sluice::NarrowToPrefix(*spec.prefix, &lower_, &upper_);
  // std::string compares bytes as unsigned char, like the engine.
  if (lower_ && upper_ && *lower_ >= *upper_) exhausted_ = true;  // an empty range
}

std::unique_ptr<PyIterator> PyIterator::Create(std::shared_ptr<Core> core, PySnapshot* snapshot,
                                               const IteratorSpec& spec,
                                               sluice::ColumnFamilyHandle* family) {
  auto self = std::make_unique<PyIterator>(core, spec);
  PyIterator* it = self.get();
  const bool created = core->Run([&](sluice::DB* db) {
    SnapshotHandle handle;
    if (snapshot != nullptr) {
      handle = snapshot->Handle();
      if (handle == nullptr) return false;  // the snapshot was closed meanwhile
    }
    if (it->exhausted_) return true;  // an empty range needs no engine iterator
    sluice::ReadOptions options = core->read_options();
    options.snapshot = handle.get();
    // The engine copies the bounds; the Slices need only last through NewIterator.
    sluice::Slice lower, upper;
    if (it->lower_) options.iterate_lower_bound = &(lower = *it->lower_);
    if (it->upper_) options.iterate_upper_bound = &(upper = *it->upper_);
    it->it_ = db->NewIterator(options, family != nullptr ? family : db->DefaultColumnFamily());
    it->snapshot_ = std::move(handle);
    core->Register(it);
    return true;
  });
  if (!created) RaiseError("sluice: the snapshot is closed");
  return self;
}

PyIterator::~PyIterator() {
  core_->RunIfOpen([this] {
    ReleaseEngineObjects();
    core_->Unregister(this);
  });
}

void PyIterator::ReleaseEngineObjects() {
  it_.reset();
  snapshot_.reset();
}

void PyIterator::ReleaseForClose() { ReleaseEngineObjects(); }

sluice::Status PyIterator::Fetch() {
  if (it_ == nullptr) {
    exhausted_ = true;
    return sluice::Status::OK();
  }
  if (!positioned_) {  // the engine iterator holds the bounds
    reverse_ ? it_->SeekToLast() : it_->SeekToFirst();
    positioned_ = true;
  }
  const size_t n = batch_size_;
  batch_size_ = std::min(batch_size_ * 2, kMaxBatch);
  while (buffer_.size() < n && it_->Valid()) {
    const sluice::Slice key = it_->key();
    buffer_.emplace_back(key.ToString(), include_value_ ? it_->value().ToString() : std::string());
    if (reverse_) {
      it_->Prev();
    } else {
      it_->Next();
    }
  }
  sluice::Status s;
  if (!it_->Valid()) {  // at the end of the range, or stopped by an error
    s = it_->status();
    exhausted_ = true;
  }
  if (exhausted_) {  // release the versions the iterator pins as soon as possible
    ReleaseEngineObjects();
    core_->Unregister(this);
  }
  return s;
}

py::object PyIterator::Next() {
  core_->CheckOpen();
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  if (pos_ == buffer_.size()) {
    if (closed_) RaiseError("sluice: the iterator is closed");
    buffer_.clear();
    pos_ = 0;
    if (!exhausted_) error_ = core_->Run([this](sluice::DB*) { return Fetch(); });
    if (buffer_.empty()) {
      if (!error_.ok()) {
        sluice::Status s = std::move(error_);
        error_ = sluice::Status::OK();
        RaiseStatus(s);
      }
      throw py::stop_iteration();
    }
  }
  const std::pair<std::string, std::string>& entry = buffer_[pos_++];
  if (!include_value_) return ToPyBytes(entry.first);
  return py::make_tuple(ToPyBytes(entry.first), ToPyBytes(entry.second));
}

void PyIterator::Close() {
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  closed_ = true;
  buffer_.clear();
  pos_ = 0;
  core_->RunIfOpen([this] {
    ReleaseEngineObjects();
    core_->Unregister(this);
  });
}

// --- PySnapshot --------------------------------------------------------------------------------

std::unique_ptr<PySnapshot> PySnapshot::Create(std::shared_ptr<Core> core,
                                               sluice::ColumnFamilyHandle* family) {
  auto self = std::make_unique<PySnapshot>(core, family);
  PySnapshot* snap = self.get();
  core->Run([&](sluice::DB* db) {
    // The deleter runs when the last handle is dropped, always with the core's lock held, so
    // the engine is still open.
    snap->snapshot_ = SnapshotHandle(db->GetSnapshot(),
                                     [db](const sluice::Snapshot* s) { db->ReleaseSnapshot(s); });
    core->Register(snap);
    return true;
  });
  return self;
}

PySnapshot::~PySnapshot() {
  core_->RunIfOpen([this] {
    SnapshotHandle handle;
    {
      std::lock_guard<std::mutex> l(mu_);
      handle.swap(snapshot_);
    }
    core_->Unregister(this);
  });  // `handle` is dropped inside, with the core's lock held
}

SnapshotHandle PySnapshot::Handle() {
  std::lock_guard<std::mutex> l(mu_);
  return snapshot_;
}

void PySnapshot::ReleaseForClose() {
  std::lock_guard<std::mutex> l(mu_);
  snapshot_.reset();
}

void PySnapshot::RaiseIfClosed() const {
  core_->CheckOpen();
  if (closed_) RaiseError("sluice: the snapshot is closed");
}

std::optional<std::string> PySnapshot::Lookup(py::handle key) {
  Bytes k(key, "key");
  RaiseIfClosed();
  std::string value;
  bool closed = false;
  const sluice::Status s = core_->Run([&](sluice::DB* db) {
    SnapshotHandle handle = Handle();
    if (handle == nullptr) {
      closed = true;
      return sluice::Status::OK();
    }
    sluice::ReadOptions options = core_->read_options();
    options.snapshot = handle.get();
    return db->Get(options, family_ != nullptr ? family_ : db->DefaultColumnFamily(), k.slice(),
                   &value);
  });
  if (closed) RaiseError("sluice: the snapshot is closed");
  if (s.IsNotFound()) return std::nullopt;
  Check(s);
  return value;
}

py::object PySnapshot::Get(py::handle key, py::handle default_value) {
  std::optional<std::string> value = Lookup(key);
  if (!value) return py::reinterpret_borrow<py::object>(default_value);
  return ToPyBytes(*value);
}

py::object PySnapshot::GetItem(py::handle key) {
  std::optional<std::string> value = Lookup(key);
  if (!value) RaiseKeyError(key);
  return ToPyBytes(*value);
}

bool PySnapshot::Contains(py::handle key) { return Lookup(key).has_value(); }

std::unique_ptr<PyIterator> PySnapshot::Iterator(const IteratorSpec& spec) {
  RaiseIfClosed();
  return PyIterator::Create(core_, this, spec, family_);
}

void PySnapshot::Close() {
  closed_ = true;
  core_->RunIfOpen([this] {
    SnapshotHandle handle;
    {
      std::lock_guard<std::mutex> l(mu_);
      handle.swap(snapshot_);
    }
    core_->Unregister(this);
  });
}

}  // namespace sluice_python
