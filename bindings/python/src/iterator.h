// bindings/python/src/iterator.h — the Python Iterator (range, prefix and reverse iteration,
// fetching entries in batches with the GIL released) and the Python Snapshot (a consistent view
// with get and iterator). Both are Resources of their Core: closing the database releases them.

#ifndef SLUICE_PYTHON_ITERATOR_H_
#define SLUICE_PYTHON_ITERATOR_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "core.h"
#include "sluice/db.h"
#include "sluice/iterator.h"
#include "sluice/snapshot.h"

namespace sluice_python {

// The engine snapshot, shared by a Python Snapshot and the iterators made from it (an engine
// iterator reading at a snapshot needs it alive). The last owner releases it, always with the
// core's lock held (shared by Run/RunIfOpen, or exclusively by close).
using SnapshotHandle = std::shared_ptr<const sluice::Snapshot>;

// Arguments of DB.iterator() / Snapshot.iterator().
struct IteratorSpec {
  std::optional<std::string> start;   // inclusive lower bound
  std::optional<std::string> stop;    // exclusive upper bound
  std::optional<std::string> prefix;  // only keys starting with it
  bool reverse = false;
  bool include_value = true;
  // Parses the Python arguments (None or bytes each); raises TypeError for other types.
  static IteratorSpec Parse(py::handle start, py::handle stop, py::handle prefix, bool reverse,
                            bool include_value);
};

class PySnapshot;

class PyIterator : public Resource {
 public:
  static constexpr size_t kMaxBatch = 256;  // entries fetched per release of the GIL

  // Creates the engine iterator over `family` (null: the default one; it reads the state of
  // this moment, or of `snapshot` when not null) and registers with the core. Raises
  // sluice.Error if the database or the snapshot is closed.
  static std::unique_ptr<PyIterator> Create(std::shared_ptr<Core> core, PySnapshot* snapshot,
                                            const IteratorSpec& spec,
                                            sluice::ColumnFamilyHandle* family);
  PyIterator(std::shared_ptr<Core> core, const IteratorSpec& spec);
  ~PyIterator() override;

  // __next__: the next key, or (key, value) pair; raises StopIteration at the end.
  py::object Next();
  // Releases the engine iterator; further next() calls raise sluice.Error.
  void Close();
  void ReleaseForClose() override;

 private:
  // Fills buffer_ with the next entries; REQUIRES: mu_ held, the core's lock held shared.
  sluice::Status Fetch();
  // Drops the engine iterator and snapshot; REQUIRES: the core's lock held (either way).
  void ReleaseEngineObjects();

  const std::shared_ptr<Core> core_;
  const bool reverse_;
  const bool include_value_;
  // The engine iterator's bounds: start and stop narrowed to the prefix.
  std::optional<std::string> lower_;  // inclusive
  std::optional<std::string> upper_;  // exclusive

  // Serializes threads using this iterator. Taken before the core's lock, never while waiting
  // for the GIL.
  std::mutex mu_;
  // The engine objects: written only with the core's lock held (exclusively by close).
  std::unique_ptr<sluice::Iterator> it_;
  SnapshotHandle snapshot_;
  // Guarded by mu_.
  std::vector<std::pair<std::string, std::string>> buffer_;
  size_t pos_ = 0;
  size_t batch_size_ = 16;  // doubles up to kMaxBatch: a short scan does not fetch 256 entries
  bool positioned_ = false;
  bool exhausted_ = false;  // the engine iterator is done (and released)
  bool closed_ = false;     // close() was called
  sluice::Status error_;    // what stopped the iteration, raised once buffer_ is consumed
};

class PySnapshot : public Resource {
 public:
  // Takes an engine snapshot and registers with the core; its reads go to `family` (null: the
  // default one). Raises if the database is closed.
  static std::unique_ptr<PySnapshot> Create(std::shared_ptr<Core> core,
                                            sluice::ColumnFamilyHandle* family);
  PySnapshot(std::shared_ptr<Core> core, sluice::ColumnFamilyHandle* family)
      : core_(std::move(core)), family_(family) {}
  ~PySnapshot() override;

  // The value of key at the snapshot, or `default_value` if it has none.
  py::object Get(py::handle key, py::handle default_value);
  // The value of key at the snapshot; raises KeyError if it has none.
  py::object GetItem(py::handle key);
  bool Contains(py::handle key);
  std::unique_ptr<PyIterator> Iterator(const IteratorSpec& spec);
  // Releases the engine snapshot (once its iterators are gone); further calls raise.
  void Close();
  void ReleaseForClose() override;
  // The engine snapshot, null once closed. REQUIRES: the core's lock held (the handle must be
  // dropped before it is released, see SnapshotHandle).
  SnapshotHandle Handle();

 private:
  // The value of key at the snapshot (nullopt if none); raises if closed.
  std::optional<std::string> Lookup(py::handle key);
  void RaiseIfClosed() const;

  const std::shared_ptr<Core> core_;
  sluice::ColumnFamilyHandle* const family_;  // null: the default family
  std::mutex mu_;                             // guards snapshot_ (taken after the core's lock)
  SnapshotHandle snapshot_;                   // null once closed
  bool closed_ = false;                       // close() was called (guarded by the GIL)
};

}  // namespace sluice_python

#endif  // SLUICE_PYTHON_ITERATOR_H_
