// bindings/python/src/db.h — the Python DB (reads, writes, atomic read-modify-writes, properties,
// flush, compaction, close) and WriteBatch (buffered updates committed atomically).

#ifndef SLUICE_PYTHON_DB_H_
#define SLUICE_PYTHON_DB_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "common.h"
#include "core.h"
#include "iterator.h"
#include "sluice/write_batch.h"

namespace sluice_python {

class PyWriteBatch {
 public:
  PyWriteBatch(std::shared_ptr<Core> core, const sluice::WriteOptions& options)
      : core_(std::move(core)), options_(options) {}

  void Put(py::handle key, py::handle value);
  void Delete(py::handle key);
  void DeleteRange(py::handle start, py::handle stop);
  void Clear();
  size_t Count();
  // Applies the updates atomically, then empties the batch (it can be reused).
  void Write();
  // The context manager's exit: writes if the block succeeded, discards if it raised.
  void Exit(py::handle exc_type);

 private:
  const std::shared_ptr<Core> core_;
  const sluice::WriteOptions options_;
  std::mutex mu_;  // guards batch_ (taken after the core's lock by Write)
  sluice::WriteBatch batch_;
};

class PyDB {
 public:
  // Opens the database at `path` (str, bytes or os.PathLike) with the options in `kwargs`.
  PyDB(py::handle path, const py::dict& kwargs);

  const std::shared_ptr<Core>& core() const { return core_; }
  std::string Repr() const;

  void Put(py::handle key, py::handle value, py::handle sync);
  py::object Get(py::handle key, py::handle default_value);
  py::object GetItem(py::handle key);  // KeyError if missing
  bool Contains(py::handle key);
  // The values of keys (an iterable of bytes-like objects), a list with None for each missing
  // key, all read from one consistent state (DB::MultiGet).
  py::list MultiGet(py::handle keys);
  // Deleting a missing key is not an error (del db[key] included), as in the engine.
  void Delete(py::handle key, py::handle sync);
  void DeleteRange(py::handle start, py::handle stop, py::handle sync);

  py::object ReadModifyWrite(py::handle key, py::handle fn, py::handle sync);
  bool PutIfAbsent(py::handle key, py::handle value, py::handle sync);
  bool CompareAndSwap(py::handle key, py::handle expected, py::handle desired, py::handle sync);
  int64_t Increment(py::handle key, py::handle delta, py::handle sync);

  std::unique_ptr<PyWriteBatch> NewWriteBatch(py::handle sync);
  std::unique_ptr<PySnapshot> NewSnapshot();
  std::unique_ptr<PyIterator> NewIterator(const IteratorSpec& spec);

  py::object Property(py::handle name);  // str or None
  py::object Stats();                    // dict from "sluice.stats-json"
  void Flush();
  void CompactRange(py::handle start, py::handle stop);
  void Close();
  bool closed() const { return core_->closed(); }

 private:
  std::optional<std::string> Lookup(py::handle key);
  std::optional<std::string> PropertyString(const std::string& name);

  std::shared_ptr<Core> core_;
};

// Module functions destroy_db(path, **options) and repair_db(path, **options).
void DestroyDB(py::handle path, const py::dict& kwargs);
void RepairDB(py::handle path, const py::dict& kwargs);

}  // namespace sluice_python

#endif  // SLUICE_PYTHON_DB_H_
