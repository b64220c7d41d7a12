// bindings/python/src/module.cc — the _sluice extension module: binds DB, WriteBatch, Snapshot
// and Iterator (db.h, iterator.h), the exception classes and the module functions. The Python
// package sluice re-exports all of it; sluice/_sluice.pyi documents the signatures.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "common.h"
#include "db.h"
#include "iterator.h"
#include "options.h"
#include "sluice/cache.h"
#include "sluice/env.h"
#include "sluice/write_buffer_manager.h"

namespace py = pybind11;
using sluice_python::IteratorSpec;
using sluice_python::PyDB;
using sluice_python::PyIterator;
using sluice_python::PySnapshot;
using sluice_python::PyWriteBatch;

namespace {

constexpr const char* kIteratorDoc =
    "An iterator over keys start <= key < stop (each bound optional) that start with prefix,\n"
    "in ascending order, or descending with reverse=True. Yields (key, value) tuples, or keys\n"
    "only with include_value=False. It reads one consistent state: that of the moment it was\n"
    "created (or of the snapshot).";

sluice::Env::Priority PoolByName(const std::string& pool) {
  if (pool == "low") return sluice::Env::Priority::kLow;
  if (pool == "high") return sluice::Env::Priority::kHigh;
  if (pool == "drain") return sluice::Env::Priority::kDrain;
  sluice_python::RaiseInvalidArgument("pool '" + pool + "' is not one of 'low', 'high', 'drain'");
}

size_t CheckedSize(long long value, const char* what) {
  if (value < 0) {
    sluice_python::RaiseInvalidArgument(std::string(what) + " = " + std::to_string(value) +
                                        " is out of range (must be >= 0)");
  }
  return static_cast<size_t>(value);
}

}  // namespace

PYBIND11_MODULE(_sluice, m) {
  m.doc() = "sluice's C++ engine bound with pybind11; use the sluice package.";
  sluice_python::RegisterExceptions(m);
  sluice_python::InstallExitGate();
  m.attr("__version__") = "0.1.0";

  // Shared by databases: held by shared_ptr, so a DB opened with one keeps it alive.
  py::class_<sluice::Cache, std::shared_ptr<sluice::Cache>>(
      m, "Cache", "An LRU block cache that databases share: DB(..., block_cache=cache).")
      .def(py::init([](long long capacity) {
             return sluice::NewLRUCache(CheckedSize(capacity, "capacity"));
           }),
           py::arg("capacity"), "An LRU cache of capacity bytes.")
      .def_property_readonly("capacity", &sluice::Cache::Capacity)
      .def_property_readonly("usage", &sluice::Cache::TotalCharge, "Bytes held now.")
      .def_property_readonly("hits", &sluice::Cache::Hits)
      .def_property_readonly("misses", &sluice::Cache::Misses);

  py::class_<sluice::WriteBufferManager, std::shared_ptr<sluice::WriteBufferManager>>(
      m, "WriteBufferManager",
      "One memory budget for the memory components of the databases that share it: "
      "DB(..., write_buffer_manager=manager). buffer_size 0 only counts; with allow_stall, "
      "writes wait while the cap is reached.")
      .def(py::init([](long long buffer_size, bool allow_stall) {
             return std::make_shared<sluice::WriteBufferManager>(
                 CheckedSize(buffer_size, "buffer_size"), allow_stall);
           }),
           py::arg("buffer_size"), py::arg("allow_stall") = false)
      .def_property_readonly("buffer_size", &sluice::WriteBufferManager::buffer_size)
      .def_property_readonly("allow_stall", &sluice::WriteBufferManager::allow_stall)
      .def_property_readonly("memory_usage", &sluice::WriteBufferManager::memory_usage,
                             "Bytes of every memory component charged now.")
      .def_property_readonly("mutable_memtable_memory_usage",
                             &sluice::WriteBufferManager::mutable_memtable_memory_usage)
      .def_property_readonly("flushes_requested", &sluice::WriteBufferManager::flushes_requested)
      .def_property_readonly("stalled_writes", &sluice::WriteBufferManager::stalled_writes)
      .def_property_readonly("stall_micros", &sluice::WriteBufferManager::stall_micros);

  m.def(
      "set_background_threads",
      [](int number, const std::string& pool) {
        if (number < 1 || number > 1024) {
          sluice_python::RaiseInvalidArgument("number = " + std::to_string(number) +
                                              " is out of range (must be between 1 and 1024)");
        }
        const sluice::Env::Priority pri = PoolByName(pool);
        py::gil_scoped_release release;  // shrinking waits for the threads that leave
        sluice::Env::Default()->SetBackgroundThreads(number, pri);
      },
      py::arg("number"), py::arg("pool") = "low",
      "Sizes one of the background pools every database of the process shares: 'low' "
      "(compactions), 'high' (flushes) or 'drain' (FloDB drains).");
  m.def(
      "get_background_threads",
      [](const std::string& pool) {
        return sluice::Env::Default()->GetBackgroundThreads(PoolByName(pool));
      },
      py::arg("pool") = "low", "The number of threads of a background pool.");

  py::class_<PyIterator>(m, "Iterator", "An iterator from DB.iterator() or Snapshot.iterator().")
      .def("__iter__",
           [](py::object self) {
             self.cast<PyIterator&>();  // (type check)
             return self;
           })
      .def("__next__", &PyIterator::Next)
      .def("close", &PyIterator::Close,
           "Releases the iterator's resources; later next() calls raise sluice.Error.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyIterator& self, py::args) {
        self.Close();
        return false;
      });

  py::class_<PySnapshot>(m, "Snapshot", "A consistent, read-only view from DB.snapshot().")
      .def("get", &PySnapshot::Get, py::arg("key"), py::arg("default") = py::none(),
           "The value of key at the snapshot, or default if it had none.")
      .def("__getitem__", &PySnapshot::GetItem, py::arg("key"))
      .def("__contains__", &PySnapshot::Contains, py::arg("key"))
      .def(
          "iterator",
          [](PySnapshot& self, py::handle start, py::handle stop, py::handle prefix, bool reverse,
             bool include_value) {
            return self.Iterator(IteratorSpec::Parse(start, stop, prefix, reverse, include_value));
          },
          py::kw_only(), py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::arg("prefix") = py::none(), py::arg("reverse") = false,
          py::arg("include_value") = true, kIteratorDoc)
      .def("__iter__", [](PySnapshot& self) { return self.Iterator(IteratorSpec{}); })
      .def("close", &PySnapshot::Close, "Releases the snapshot; later calls raise sluice.Error.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PySnapshot& self, py::args) {
        self.Close();
        return false;
      });

  py::class_<PyWriteBatch>(m, "WriteBatch",
                           "Updates applied atomically by write(), or at the end of a with "
                           "block that does not raise.")
      .def("put", &PyWriteBatch::Put, py::arg("key"), py::arg("value"), py::kw_only(),
           py::arg("column_family") = py::none(),
           "column_family: a column family object of the database (default: the family the "
           "batch was made from); a batch may span families and is still atomic.")
      .def("delete", &PyWriteBatch::Delete, py::arg("key"), py::kw_only(),
           py::arg("column_family") = py::none())
      .def("delete_range", &PyWriteBatch::DeleteRange, py::arg("start"), py::arg("stop"),
           py::kw_only(), py::arg("column_family") = py::none(),
           "Deletes every key k with start <= k < stop when the batch is written.")
      .def("clear", &PyWriteBatch::Clear, "Discards every update.")
      .def("write", &PyWriteBatch::Write,
           "Applies every update atomically, then empties the batch.")
      .def("__len__", &PyWriteBatch::Count)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyWriteBatch& self, py::handle exc_type, py::args) {
        self.Exit(exc_type);
        return false;
      });

  py::class_<PyDB>(m, "DB", "An open sluice database; see help(sluice).")
      .def(py::init([](py::handle path, py::object create_if_missing, py::object memtable,
                       py::kwargs kwargs) {
             kwargs["create_if_missing"] = create_if_missing;
             kwargs["memtable"] = memtable;
             return std::make_unique<PyDB>(path, kwargs);
           }),
           py::arg("path"), py::arg("create_if_missing") = true, py::arg("memtable") = "flodb")
      .def("__repr__", &PyDB::Repr)
      .def_property_readonly("path", [](PyDB& self) { return self.core()->path(); })
      .def_property_readonly("name", &PyDB::name,
                             "The column family this object reads and writes (\"default\" for "
                             "the DB itself).")
      .def_property_readonly("column_families", &PyDB::ColumnFamilyNames,
                             "The names of the database's column families, sorted.")
      .def("column_family", &PyDB::ColumnFamily, py::arg("name"),
           "The column family `name` as an object with the DB's read and write methods (they "
           "share the database: closing either closes it). KeyError if there is none.")
      .def(
          "create_column_family",
          [](PyDB& self, const std::string& name, py::kwargs options) {
            return self.CreateColumnFamily(name, options);
          },
          py::arg("name"),
          "Creates column family `name` with its own options (memtable, write_buffer_size, "
          "compression, ...; the others are the database's) and returns it.")
      .def("drop_column_family", &PyDB::DropColumnFamily, py::arg("column_family"),
           "Drops a column family (by name or object) and its data; its objects then raise.")
      .def_property_readonly("closed", &PyDB::closed)
      .def("put", &PyDB::Put, py::arg("key"), py::arg("value"), py::kw_only(),
           py::arg("sync") = py::none())
      .def("get", &PyDB::Get, py::arg("key"), py::arg("default") = py::none())
      .def("delete", &PyDB::Delete, py::arg("key"), py::kw_only(), py::arg("sync") = py::none())
      .def("delete_range", &PyDB::DeleteRange, py::arg("start"), py::arg("stop"), py::kw_only(),
           py::arg("sync") = py::none(),
           "Deletes every key k with start <= k < stop (bytewise) with one range tombstone.")
      .def("__getitem__", &PyDB::GetItem, py::arg("key"))
      .def(
          "__setitem__",
          [](PyDB& self, py::handle key, py::handle value) { self.Put(key, value, py::none()); },
          py::arg("key"), py::arg("value"))
      .def(
          "__delitem__", [](PyDB& self, py::handle key) { self.Delete(key, py::none()); },
          py::arg("key"))
      .def("__contains__", &PyDB::Contains, py::arg("key"))
      .def("multi_get", &PyDB::MultiGet, py::arg("keys"),
           "The values of keys (an iterable of bytes), a list with None for each missing key, "
           "all read from one consistent state; cheaper than get() in a loop.")
      .def("read_modify_write", &PyDB::ReadModifyWrite, py::arg("key"), py::arg("fn"),
           py::kw_only(), py::arg("sync") = py::none())
      .def("put_if_absent", &PyDB::PutIfAbsent, py::arg("key"), py::arg("value"), py::kw_only(),
           py::arg("sync") = py::none())
      .def("compare_and_swap", &PyDB::CompareAndSwap, py::arg("key"), py::arg("expected"),
           py::arg("desired"), py::kw_only(), py::arg("sync") = py::none())
      .def("increment", &PyDB::Increment, py::arg("key"), py::arg("delta") = 1, py::kw_only(),
           py::arg("sync") = py::none())
      .def("write_batch", &PyDB::NewWriteBatch, py::kw_only(), py::arg("sync") = py::none())
      .def("snapshot", &PyDB::NewSnapshot)
      .def(
          "iterator",
          [](PyDB& self, py::handle start, py::handle stop, py::handle prefix, bool reverse,
             bool include_value) {
            return self.NewIterator(
                IteratorSpec::Parse(start, stop, prefix, reverse, include_value));
          },
          py::kw_only(), py::arg("start") = py::none(), py::arg("stop") = py::none(),
          py::arg("prefix") = py::none(), py::arg("reverse") = false,
          py::arg("include_value") = true, kIteratorDoc)
      .def("__iter__", [](PyDB& self) { return self.NewIterator(IteratorSpec{}); })
      .def("property", &PyDB::Property, py::arg("name"))
      .def("stats", &PyDB::Stats)
      .def("flush", &PyDB::Flush)
      .def("compact_range", &PyDB::CompactRange, py::arg("start") = py::none(),
           py::arg("stop") = py::none())
      .def("close", &PyDB::Close)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyDB& self, py::args) {
        self.Close();
        return false;
      });

  m.def(
      "destroy_db",
      [](py::handle path, py::kwargs options) { sluice_python::DestroyDB(path, options); },
      py::arg("path"), "Removes the database's files and directory (it must not be open).");
  m.def(
      "repair_db",
      [](py::handle path, py::kwargs options) { sluice_python::RepairDB(path, options); },
      py::arg("path"), "Recovers what it can of a damaged database (it must not be open).");
  m.def("list_column_families", &sluice_python::ListColumnFamilies, py::arg("path"),
        "The names of the column families of the database at path.");
  m.def("_option_names", &sluice_python::OptionNames,
        "Every keyword option DB() accepts (for tests and tools).");
}
