// bindings/python/src/db.cc — the Python DB and WriteBatch (see db.h). Every engine call runs
// through Core::Run: the GIL is released and the database cannot close meanwhile.

#include "db.h"

#include <algorithm>
#include <exception>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#ifdef __GLIBCXX__
#include <cxxabi.h>
#endif

#include "options.h"

namespace sluice_python {

namespace {

std::string FsPath(py::handle path) {
  return py::module_::import("os").attr("fsdecode")(path).cast<std::string>();
}

py::str DecodeUtf8(const std::string& s) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
}

int64_t ToInt64(py::handle obj, const char* what) {
  if (!PyLong_Check(obj.ptr())) {
    RaiseTypeError(std::string(what) + " must be int, not " + TypeName(obj));
  }
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow != 0) {
    PyErr_SetString(PyExc_OverflowError,
                    (std::string(what) + " does not fit in a signed 64-bit integer").c_str());
    throw py::error_already_set();
  }
  return x;
}

sluice::Options ParseOptions(const py::dict& kwargs) {
  OpenOptions o;
  ApplyOptions(kwargs, &o);
  return o.options;
}

}  // namespace

// --- WriteBatch --------------------------------------------------------------------------------

sluice::ColumnFamilyHandle* PyWriteBatch::FamilyArg(py::handle column_family) const {
  if (column_family.is_none()) return family_;
  if (!py::isinstance<PyDB>(column_family)) {
    RaiseTypeError("column_family must be a sluice.DB or one of its column families, not " +
                   TypeName(column_family));
  }
  const PyDB& other = column_family.cast<const PyDB&>();
  if (other.core() != core_) {
    RaiseStatus(sluice::Status::InvalidArgument("column_family is of another database"));
  }
  return other.family();
}

void PyWriteBatch::Put(py::handle key, py::handle value, py::handle column_family) {
  core_->CheckOpen();
  Bytes k(key, "key");
  Bytes v(value, "value");
  sluice::ColumnFamilyHandle* family = FamilyArg(column_family);
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.Put(family, k.slice(), v.slice());
}

void PyWriteBatch::Delete(py::handle key, py::handle column_family) {
  core_->CheckOpen();
  Bytes k(key, "key");
  sluice::ColumnFamilyHandle* family = FamilyArg(column_family);
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.Delete(family, k.slice());
}

void PyWriteBatch::DeleteRange(py::handle start, py::handle stop, py::handle column_family) {
  core_->CheckOpen();
  Bytes b(start, "start");
  Bytes e(stop, "stop");
  sluice::ColumnFamilyHandle* family = FamilyArg(column_family);
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.DeleteRange(family, b.slice(), e.slice());
}

void PyWriteBatch::Clear() {
  core_->CheckOpen();
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.Clear();
}

size_t PyWriteBatch::Count() {
  core_->CheckOpen();
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  return batch_.Count();
}

void PyWriteBatch::Write() {
  Check(core_->Run([this](sluice::DB* db) {
    std::lock_guard<std::mutex> l(mu_);
    if (batch_.Count() == 0) return sluice::Status::OK();
    sluice::Status s = db->Write(options_, &batch_);
    if (s.ok()) batch_.Clear();
    return s;
  }));
}

void PyWriteBatch::Exit(py::handle exc_type) {
  if (!exc_type.is_none()) {  // discard; the exception propagates
    std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
    batch_.Clear();
    return;
  }
  Write();
}

// --- DB ----------------------------------------------------------------------------------------

PyDB::PyDB(py::handle path, const py::dict& kwargs) {
  const std::string dbpath = FsPath(path);
  // "column_families" is ours; every other keyword is an option of the database.
  py::dict db_kwargs;
  py::object families_arg = py::none();
  for (auto item : kwargs) {
    if (py::str(item.first).cast<std::string>() == "column_families") {
      families_arg = py::reinterpret_borrow<py::object>(item.second);
    } else {
      db_kwargs[item.first] = item.second;
    }
  }
  OpenOptions o;
  o.options.create_if_missing = true;  // the Python default
  ApplyOptions(db_kwargs, &o);
  std::map<std::string, sluice::Options> named;  // families named, with their options
  if (!families_arg.is_none()) {
    if (!PyDict_Check(families_arg.ptr())) {
      RaiseTypeError("column_families must be a dict of name -> options dict, not " +
                     TypeName(families_arg));
    }
    for (auto item : families_arg.cast<py::dict>()) {
      if (!PyUnicode_Check(item.first.ptr())) {
        RaiseTypeError("a column family name must be str, not " + TypeName(item.first));
      }
      OpenOptions family = o;
      if (!item.second.is_none()) {
        if (!PyDict_Check(item.second.ptr())) {
          RaiseTypeError("the options of a column family must be a dict or None, not " +
                         TypeName(item.second));
        }
        ApplyOptions(item.second.cast<py::dict>(), &family);
      }
      named[item.first.cast<std::string>()] = family.options;
    }
  }
  std::unique_ptr<sluice::DB> db;
  std::vector<std::string> names;
  std::vector<sluice::ColumnFamilyHandle*> handles;
  sluice::Status s;
  {
    GilRelease nogil;
    // The default family and those named; if the database has others, opening fails
    // (InvalidArgument) and is retried with every family it has. (Listing them first would
    // read the MANIFEST twice for every open.)
    names.push_back(sluice::kDefaultColumnFamilyName);
    for (const auto& [name, options] : named) {
      if (name != sluice::kDefaultColumnFamilyName) names.push_back(name);
    }
    auto open = [&] {
      std::vector<sluice::ColumnFamilyDescriptor> families;
      for (const std::string& name : names) {
        auto it = named.find(name);
        families.emplace_back(name, it != named.end() ? it->second : o.options);
      }
      sluice::DBOptions db_options = o.options;
      db_options.create_missing_column_families = true;
      return sluice::DB::Open(db_options, dbpath, families, &handles, &db);
    };
    s = open();
    std::vector<std::string> existing;
    if (s.IsInvalidArgument() &&
        sluice::DB::ListColumnFamilies(o.options, dbpath, &existing).ok()) {
      bool more = false;
      for (const std::string& name : existing) {
        if (std::find(names.begin(), names.end(), name) == names.end()) {
          names.push_back(name);
          more = true;
        }
      }
      if (more) s = open();
    }
  }
  Check(s);
  core_ = std::make_shared<Core>(std::move(db), dbpath, o.read, o.write);
  for (size_t i = 0; i < names.size(); i++) core_->AddFamily(names[i], handles[i]);
}

std::unique_ptr<PyDB> PyDB::ColumnFamily(const std::string& name) {
  core_->CheckOpen();
  sluice::ColumnFamilyHandle* handle = core_->FindFamily(name);
  if (handle == nullptr) {
    PyErr_SetString(
        PyExc_KeyError,
        ("the database " + core_->path() + " has no column family named " + name).c_str());
    throw py::error_already_set();
  }
  // The default family's object uses the null handle, as the DB object itself.
  if (name == sluice::kDefaultColumnFamilyName) handle = nullptr;
  return std::make_unique<PyDB>(core_, handle, name);
}

std::unique_ptr<PyDB> PyDB::CreateColumnFamily(const std::string& name, const py::dict& kwargs) {
  OpenOptions o;
  ApplyOptions(kwargs, &o);
  sluice::ColumnFamilyHandle* handle = nullptr;
  Check(
      core_->Run([&](sluice::DB* db) { return db->CreateColumnFamily(o.options, name, &handle); }));
  core_->AddFamily(name, handle);
  return std::make_unique<PyDB>(core_, handle, name);
}

void PyDB::DropColumnFamily(py::handle family) {
  std::string name;
  if (PyUnicode_Check(family.ptr())) {
    name = family.cast<std::string>();
  } else if (py::isinstance<PyDB>(family)) {
    const PyDB& other = family.cast<const PyDB&>();
    if (other.core() != core_) {
      RaiseStatus(sluice::Status::InvalidArgument("the column family is of another database"));
    }
    name = other.name();
  } else {
    RaiseTypeError("drop_column_family takes a name or a column family, not " + TypeName(family));
  }
  sluice::ColumnFamilyHandle* handle = core_->FindFamily(name);
  if (handle == nullptr) {
    RaiseStatus(sluice::Status::InvalidArgument("no column family named " + name));
  }
  Check(core_->Run([&](sluice::DB* db) { return db->DropColumnFamily(handle); }));
  core_->RemoveFamily(name);
}

std::string PyDB::Repr() const {
  return "<sluice.DB " + py::repr(py::str(core_->path())).cast<std::string>() +
         (family_ != nullptr ? " column family " + py::repr(py::str(name_)).cast<std::string>()
                             : std::string()) +
         (core_->closed() ? " closed>" : ">");
}

void PyDB::Put(py::handle key, py::handle value, py::handle sync) {
  Bytes k(key, "key");
  Bytes v(value, "value");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  Check(core_->Run(
      [&](sluice::DB* db) { return db->Put(options, Family(db), k.slice(), v.slice()); }));
}

std::optional<std::string> PyDB::Lookup(py::handle key) {
  Bytes k(key, "key");
  std::string value;
  const sluice::Status s = core_->Run([&](sluice::DB* db) {
    return db->Get(core_->read_options(), Family(db), k.slice(), &value);
  });
  if (s.IsNotFound()) return std::nullopt;
  Check(s);
  return value;
}

py::object PyDB::Get(py::handle key, py::handle default_value) {
  std::optional<std::string> value = Lookup(key);
  if (!value) return py::reinterpret_borrow<py::object>(default_value);
  return ToPyBytes(*value);
}

py::object PyDB::GetItem(py::handle key) {
  std::optional<std::string> value = Lookup(key);
  if (!value) RaiseKeyError(key);
  return ToPyBytes(*value);
}

bool PyDB::Contains(py::handle key) { return Lookup(key).has_value(); }

py::list PyDB::MultiGet(py::handle keys) {
  py::list held;  // keeps the key objects alive: a Bytes of a bytes object points into it
  std::vector<std::unique_ptr<Bytes>> parsed;
  for (py::handle key : py::iter(keys)) {
    held.append(key);
    parsed.push_back(std::make_unique<Bytes>(key, "key"));
  }
  std::vector<sluice::Slice> slices;
  slices.reserve(parsed.size());
  for (const auto& k : parsed) slices.push_back(k->slice());
  std::vector<std::string> values;
  const std::vector<sluice::Status> statuses = core_->Run([&](sluice::DB* db) {
    return db->MultiGet(core_->read_options(),
                        std::vector<sluice::ColumnFamilyHandle*>(slices.size(), Family(db)), slices,
                        &values);
  });
  py::list out;
  for (size_t i = 0; i < statuses.size(); i++) {
    if (statuses[i].IsNotFound()) {
      out.append(py::none());
    } else {
      Check(statuses[i]);
      out.append(ToPyBytes(values[i]));
    }
  }
  return out;
}

void PyDB::Delete(py::handle key, py::handle sync) {
  Bytes k(key, "key");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  Check(core_->Run([&](sluice::DB* db) { return db->Delete(options, Family(db), k.slice()); }));
}

void PyDB::DeleteRange(py::handle start, py::handle stop, py::handle sync) {
  Bytes b(start, "start");
  Bytes e(stop, "stop");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  Check(core_->Run(
      [&](sluice::DB* db) { return db->DeleteRange(options, Family(db), b.slice(), e.slice()); }));
}

py::object PyDB::ReadModifyWrite(py::handle key, py::handle fn, py::handle sync) {
  Bytes k(key, "key");
  if (!PyCallable_Check(fn.ptr())) RaiseTypeError("fn must be callable, not " + TypeName(fn));
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  // What fn raised (or a bad result), re-raised after the call. Once set, every further run of
  // the function (on a conflict) leaves the value as it is, without calling fn again.
  std::exception_ptr error;
  bool deleted = false;
  const Core* core = core_.get();
  auto modify = [&](const std::string* current) -> std::optional<std::string> {
    // The process is exiting: leave the value as it is (the exit gate, common.h).
    if (!error && !TryEnterGilTake()) {
      error = std::make_exception_ptr(std::runtime_error("the interpreter is finalizing"));
    }
    if (!error) {
      py::gil_scoped_acquire gil;  // the only place the GIL is taken with the core's lock held
      ExitGilTake();
      Core::CallbackScope scope(core);
      try {
        py::object result = py::reinterpret_borrow<py::object>(fn)(
            current != nullptr ? py::object(ToPyBytes(*current)) : py::object(py::none()));
        if (result.is_none()) {
          deleted = true;
          return std::nullopt;
        }
        std::string value = Bytes(result, "read_modify_write fn's result").str();
        deleted = false;
        return value;
#ifdef __GLIBCXX__
      } catch (abi::__forced_unwind&) {  // Python ending this thread (fn released the GIL)
        throw;
#endif
      } catch (...) {
        error = std::current_exception();
      }
    }
    // The ModifyFunction cannot abort: write back what is there, which changes nothing.
    if (current == nullptr) return std::nullopt;
    return *current;
  };
  std::string result;
  const sluice::Status s = core_->Run([&](sluice::DB* db) {
    return db->ReadModifyWrite(options, Family(db), k.slice(), modify, &result);
  });
  if (error) std::rethrow_exception(error);
  Check(s);
  if (deleted) return py::none();
  return ToPyBytes(result);
}

bool PyDB::PutIfAbsent(py::handle key, py::handle value, py::handle sync) {
  Bytes k(key, "key");
  Bytes v(value, "value");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  bool inserted = false;
  Check(core_->Run([&](sluice::DB* db) {
    return db->PutIfAbsent(options, Family(db), k.slice(), v.slice(), &inserted);
  }));
  return inserted;
}

bool PyDB::CompareAndSwap(py::handle key, py::handle expected, py::handle desired,
                          py::handle sync) {
  Bytes k(key, "key");
  std::optional<std::string> expected_value;
  if (!expected.is_none()) expected_value = Bytes(expected, "expected").str();
  Bytes d(desired, "desired");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  bool swapped = false;
  Check(core_->Run([&](sluice::DB* db) {
    return db->CompareAndSwap(options, Family(db), k.slice(),
                              expected_value ? &*expected_value : nullptr, d.slice(), &swapped);
  }));
  return swapped;
}

int64_t PyDB::Increment(py::handle key, py::handle delta, py::handle sync) {
  Bytes k(key, "key");
  const int64_t d = ToInt64(delta, "delta");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  int64_t result = 0;
  Check(core_->Run(
      [&](sluice::DB* db) { return db->Increment(options, Family(db), k.slice(), d, &result); }));
  return result;
}

std::unique_ptr<PyWriteBatch> PyDB::NewWriteBatch(py::handle sync) {
  core_->CheckOpen();
  return std::make_unique<PyWriteBatch>(core_, core_->WriteOptionsFor(sync), family_);
}

std::unique_ptr<PySnapshot> PyDB::NewSnapshot() { return PySnapshot::Create(core_, family_); }

std::unique_ptr<PyIterator> PyDB::NewIterator(const IteratorSpec& spec) {
  return PyIterator::Create(core_, nullptr, spec, family_);
}

std::optional<std::string> PyDB::PropertyString(const std::string& name) {
  std::string value;
  const bool found =
      core_->Run([&](sluice::DB* db) { return db->GetProperty(Family(db), name, &value); });
  if (!found) return std::nullopt;
  return value;
}

py::object PyDB::Property(py::handle name) {
  if (!PyUnicode_Check(name.ptr())) {
    RaiseTypeError("property name must be str, not " + TypeName(name));
  }
  std::optional<std::string> value = PropertyString(name.cast<std::string>());
  if (!value) return py::none();
  return DecodeUtf8(*value);
}

py::object PyDB::Stats() {
  std::optional<std::string> json = PropertyString("sluice.stats-json");
  if (!json) {
    RaiseStatus(sluice::Status::NotSupported(
        "this build of the engine has no \"sluice.stats-json\" property"));
  }
  return py::module_::import("json").attr("loads")(DecodeUtf8(*json));
}

void PyDB::Flush() {
  Check(core_->Run([this](sluice::DB* db) { return db->Flush(Family(db)); }));
}

void PyDB::CompactRange(py::handle start, py::handle stop) {
  std::optional<std::string> begin, end;
  if (!start.is_none()) begin = Bytes(start, "start").str();
  if (!stop.is_none()) end = Bytes(stop, "stop").str();
  Check(core_->Run([&](sluice::DB* db) {
    const sluice::Slice b = begin ? sluice::Slice(*begin) : sluice::Slice();
    const sluice::Slice e = end ? sluice::Slice(*end) : sluice::Slice();
    return db->CompactRange(Family(db), begin ? &b : nullptr, end ? &e : nullptr);
  }));
}

void PyDB::Close() { Check(core_->Close()); }

// --- Module functions --------------------------------------------------------------------------

namespace {

// Runs fn(path, options) -- DestroyDB or RepairDB -- with the GIL released; raises on failure.
void RunOnDatabasePath(py::handle path, const py::dict& kwargs,
                       sluice::Status (*fn)(const std::string&, const sluice::Options&)) {
  const std::string dbpath = FsPath(path);
  const sluice::Options options = ParseOptions(kwargs);
  sluice::Status s;
  {
    GilRelease nogil;
    s = fn(dbpath, options);
  }
  Check(s);
}

}  // namespace

void DestroyDB(py::handle path, const py::dict& kwargs) {
  RunOnDatabasePath(path, kwargs, &sluice::DestroyDB);
}

void RepairDB(py::handle path, const py::dict& kwargs) {
  RunOnDatabasePath(path, kwargs, &sluice::RepairDB);
}

std::vector<std::string> ListColumnFamilies(py::handle path) {
  const std::string dbpath = FsPath(path);
  std::vector<std::string> names;
  sluice::Status s;
  {
    GilRelease nogil;
    s = sluice::DB::ListColumnFamilies(sluice::DBOptions(), dbpath, &names);
  }
  Check(s);
  return names;
}

}  // namespace sluice_python
