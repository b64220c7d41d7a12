// bindings/python/src/db.cc — the Python DB and WriteBatch (see db.h). Every engine call runs
// through Core::Run: the GIL is released and the database cannot close meanwhile.

#include "db.h"

#include <exception>
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

void PyWriteBatch::Put(py::handle key, py::handle value) {
  core_->CheckOpen();
  Bytes k(key, "key");
  Bytes v(value, "value");
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.Put(k.slice(), v.slice());
}

void PyWriteBatch::Delete(py::handle key) {
  core_->CheckOpen();
  Bytes k(key, "key");
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.Delete(k.slice());
}

void PyWriteBatch::DeleteRange(py::handle start, py::handle stop) {
  core_->CheckOpen();
  Bytes b(start, "start");
  Bytes e(stop, "stop");
  std::unique_lock<std::mutex> lock = LockReleasingGil(mu_);
  batch_.DeleteRange(b.slice(), e.slice());
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
  OpenOptions o;
  o.options.create_if_missing = true;  // the Python default
  ApplyOptions(kwargs, &o);
  std::unique_ptr<sluice::DB> db;
  sluice::Status s;
  {
    GilRelease nogil;
    s = sluice::DB::Open(o.options, dbpath, &db);
  }
  Check(s);
  core_ = std::make_shared<Core>(std::move(db), dbpath, o.read, o.write);
}

std::string PyDB::Repr() const {
  return "<sluice.DB " + py::repr(py::str(core_->path())).cast<std::string>() +
         (core_->closed() ? " closed>" : ">");
}

void PyDB::Put(py::handle key, py::handle value, py::handle sync) {
  Bytes k(key, "key");
  Bytes v(value, "value");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  Check(core_->Run([&](sluice::DB* db) { return db->Put(options, k.slice(), v.slice()); }));
}

std::optional<std::string> PyDB::Lookup(py::handle key) {
  Bytes k(key, "key");
  std::string value;
  const sluice::Status s =
      core_->Run([&](sluice::DB* db) { return db->Get(core_->read_options(), k.slice(), &value); });
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
  const std::vector<sluice::Status> statuses = core_->Run(
      [&](sluice::DB* db) { return db->MultiGet(core_->read_options(), slices, &values); });
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
  Check(core_->Run([&](sluice::DB* db) { return db->Delete(options, k.slice()); }));
}

void PyDB::DeleteRange(py::handle start, py::handle stop, py::handle sync) {
  Bytes b(start, "start");
  Bytes e(stop, "stop");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  Check(core_->Run([&](sluice::DB* db) { return db->DeleteRange(options, b.slice(), e.slice()); }));
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
  const sluice::Status s = core_->Run(
      [&](sluice::DB* db) { return db->ReadModifyWrite(options, k.slice(), modify, &result); });
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
  Check(core_->Run(
      [&](sluice::DB* db) { return db->PutIfAbsent(options, k.slice(), v.slice(), &inserted); }));
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
    return db->CompareAndSwap(options, k.slice(), expected_value ? &*expected_value : nullptr,
                              d.slice(), &swapped);
  }));
  return swapped;
}

int64_t PyDB::Increment(py::handle key, py::handle delta, py::handle sync) {
  Bytes k(key, "key");
  const int64_t d = ToInt64(delta, "delta");
  const sluice::WriteOptions options = core_->WriteOptionsFor(sync);
  int64_t result = 0;
  Check(core_->Run([&](sluice::DB* db) { return db->Increment(options, k.slice(), d, &result); }));
  return result;
}

std::unique_ptr<PyWriteBatch> PyDB::NewWriteBatch(py::handle sync) {
  core_->CheckOpen();
  return std::make_unique<PyWriteBatch>(core_, core_->WriteOptionsFor(sync));
}

std::unique_ptr<PySnapshot> PyDB::NewSnapshot() { return PySnapshot::Create(core_); }

std::unique_ptr<PyIterator> PyDB::NewIterator(const IteratorSpec& spec) {
  return PyIterator::Create(core_, nullptr, spec);
}

std::optional<std::string> PyDB::PropertyString(const std::string& name) {
  std::string value;
  const bool found = core_->Run([&](sluice::DB* db) { return db->GetProperty(name, &value); });
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
  Check(core_->Run([](sluice::DB* db) { return db->Flush(); }));
}

void PyDB::CompactRange(py::handle start, py::handle stop) {
  std::optional<std::string> begin, end;
  if (!start.is_none()) begin = Bytes(start, "start").str();
  if (!stop.is_none()) end = Bytes(stop, "stop").str();
  Check(core_->Run([&](sluice::DB* db) {
    const sluice::Slice b = begin ? sluice::Slice(*begin) : sluice::Slice();
    const sluice::Slice e = end ? sluice::Slice(*end) : sluice::Slice();
    return db->CompactRange(begin ? &b : nullptr, end ? &e : nullptr);
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

}  // namespace sluice_python
