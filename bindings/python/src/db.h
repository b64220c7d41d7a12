// bindings/python/src/db.h — the Python DB (reads, writes, atomic read-modify-writes, properties,
// flush, compaction, close) and WriteBatch (buffered updates committed atomically).

#ifndef SLUICE_PYTHON_DB_H_
#define SLUICE_PYTHON_DB_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "core.h"
#include "iterator.h"
#include "sluice/write_batch.h"

namespace sluice_python {

class PyWriteBatch {
 public:
  // family: where updates go unless they name another (null: the default family).
  PyWriteBatch(std::shared_ptr<Core> core, const sluice::WriteOptions& options,
               sluice::ColumnFamilyHandle* family)
      : core_(std::move(core)), options_(options), family_(family) {}

  // column_family: None (the batch's family) or a DB / column family object of this database.
  void Put(py::handle key, py::handle value, py::handle column_family);
  void Delete(py::handle key, py::handle column_family);
  void DeleteRange(py::handle start, py::handle stop, py::handle column_family);
  void Clear();
  size_t Count();
  // Applies the updates atomically, then empties the batch (it can be reused).
  void Write();
  // The context manager's exit: writes if the block succeeded, discards if it raised.
  void Exit(py::handle exc_type);

 private:
  // The family a column_family argument names (see Put).
  sluice::ColumnFamilyHandle* FamilyArg(py::handle column_family) const;

  const std::shared_ptr<Core> core_;
  const sluice::WriteOptions options_;
  sluice::ColumnFamilyHandle* const family_;
  std::mutex mu_;  // guards batch_ (taken after the core's lock by Write)
  sluice::WriteBatch batch_;
};

class PyDB {
 public:
  // Opens the database at `path` (str, bytes or os.PathLike) with the options in `kwargs`,
  // with every column family it has. kwargs["column_families"] (optional): a dict naming
  // families (created if missing) with their own options (a dict each, or None: the
  // database's); the others get the database's options.
  PyDB(py::handle path, const py::dict& kwargs);
  // A view of one column family of an open database (DB.column_family()).
  PyDB(std::shared_ptr<Core> core, sluice::ColumnFamilyHandle* family, std::string name)
      : core_(std::move(core)), family_(family), name_(std::move(name)) {}

  const std::shared_ptr<Core>& core() const { return core_; }
  // The engine handle of this object's family; null for the default family.
  sluice::ColumnFamilyHandle* family() const { return family_; }
  const std::string& name() const { return name_; }
  std::string Repr() const;

  // Column families: the object of a family by name (KeyError if the database has none of that
  // name), create (with its own options), drop (by name or object), and the names.
  std::unique_ptr<PyDB> ColumnFamily(const std::string& name);
  std::unique_ptr<PyDB> CreateColumnFamily(const std::string& name, const py::dict& kwargs);
  void DropColumnFamily(py::handle family);
  std::vector<std::string> ColumnFamilyNames() const { return core_->FamilyNames(); }

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

  // The family this object reads and writes, for an engine call.
  sluice::ColumnFamilyHandle* Family(sluice::DB* db) const {
    return family_ != nullptr ? family_ : db->DefaultColumnFamily();
  }

  std::shared_ptr<Core> core_;
  sluice::ColumnFamilyHandle* family_ = nullptr;  // null: the default family
  std::string name_ = "default";
};

// Module functions destroy_db(path, **options) and repair_db(path, **options).
void DestroyDB(py::handle path, const py::dict& kwargs);
void RepairDB(py::handle path, const py::dict& kwargs);
// Module function list_column_families(path).
std::vector<std::string> ListColumnFamilies(py::handle path);

}  // namespace sluice_python

#endif  // SLUICE_PYTHON_DB_H_
