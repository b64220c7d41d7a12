// bindings/python/src/common.cc — the sluice exception classes, Status-to-exception mapping, the
// GIL helpers for interpreter shutdown and the conversion of Python keys and values to bytes
// (see common.h).

#include "common.h"

#include <pythread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace sluice_python {

namespace {

// The exception classes, created once at import. Each handle holds a strong reference kept for
// the life of the process (an extension module is never unloaded).
struct ExceptionClasses {
  py::handle error, not_found, corruption, io_error, invalid_argument, busy, not_supported;
};
ExceptionClasses g_exc;

py::handle NewException(py::module_& m, const char* name, const char* doc, py::handle bases) {
  const std::string qualified = std::string("sluice.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.attr(name) = py::handle(type);
  return py::handle(type);
}

std::atomic<unsigned long> g_main_thread{0};

bool IsMainThread() { return PyThread_get_thread_ident() == g_main_thread.load(); }

// The exit gate (common.h). Entering and leaving are two atomic operations on `taking`, no
// lock: they run around every engine call of every non-main thread. Dekker between `taking` and
// `closed` (all seq_cst): a thread whose increment comes before the close's store is seen by
// the close's loads of `taking`; one whose increment comes after sees `closed` and backs out.
// The mutex and condition variable serve only the close's wait: a thread that leaves after the
// gate closed locks the mutex before it notifies, so the wakeup cannot fall between the
// waiter's check and its sleep.
struct ExitGate {
  std::atomic<bool> closed{false};  // set once, by the atexit handler
  std::atomic<int> taking{0};       // non-main threads between TryEnterGilTake and ExitGilTake
  std::mutex mu;
  std::condition_variable none_taking;
};
ExitGate& Gate() {
  static ExitGate* gate = new ExitGate;  // never destroyed: daemon threads may use it at exit
  return *gate;
}

bool InterpreterFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// Run by atexit, on the main thread with the GIL: closes the gate, then waits with the GIL
// released for the threads already past it to hold the GIL and leave (they need the GIL, which
// is why it is released). Each of them gets the GIL in turn and goes back to running Python.
void CloseExitGateAtExit() {
  ExitGate& gate = Gate();
  gate.closed.store(true, std::memory_order_seq_cst);
  if (gate.taking.load(std::memory_order_seq_cst) == 0) return;
  PyThreadState* state = PyEval_SaveThread();
  {
    std::unique_lock<std::mutex> lock(gate.mu);
    gate.none_taking.wait(lock, [&] { return gate.taking.load(std::memory_order_seq_cst) == 0; });
  }
  PyEval_RestoreThread(state);  // the main thread: Python never ends it here
}

// Leaves the gate; wakes the closing thread if this was the last one past it.
void Leave(ExitGate& gate) {
  if (gate.taking.fetch_sub(1, std::memory_order_seq_cst) == 1 &&
      gate.closed.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> lock(gate.mu);
    gate.none_taking.notify_all();
  }
}

}  // namespace

void InstallExitGate() {
  g_main_thread =
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  py::module_::import("atexit").attr("register")(py::cpp_function(&CloseExitGateAtExit));
}

bool TryEnterGilTake() {
  if (IsMainThread()) return true;  // the thread that finalizes is never ended by take_gil
  ExitGate& gate = Gate();
  gate.taking.fetch_add(1, std::memory_order_seq_cst);
  // InterpreterFinalizing() covers an exit that skipped the atexit handlers (it cannot close
  // the race alone, see common.h).
  if (gate.closed.load(std::memory_order_seq_cst) || InterpreterFinalizing()) {
    Leave(gate);
    return false;
  }
  return true;
}

void ExitGilTake() {
  if (!IsMainThread()) Leave(Gate());
}

void ParkForever() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(24));
}

void RegisterExceptions(py::module_& m) {
  g_exc.error = NewException(
      m, "Error", "Base class of every error sluice raises; the message is the engine's.",
      PyExc_Exception);
  auto sub = [&](const char* name, const char* doc, PyObject* extra) {
    py::tuple bases = extra == nullptr ? py::tuple(py::make_tuple(g_exc.error))
                                       : py::tuple(py::make_tuple(g_exc.error, py::handle(extra)));
    return NewException(m, name, doc, bases);
  };
  g_exc.not_found = sub("NotFound", "The engine reported NotFound.", nullptr);
  g_exc.corruption =
      sub("Corruption", "Damaged data was detected (a checksum or format check failed).", nullptr);
  g_exc.io_error =
      sub("IOError", "An operating-system I/O error (also an OSError).", PyExc_OSError);
  g_exc.invalid_argument = sub(
      "InvalidArgument", "A bad argument or option value (also a ValueError).", PyExc_ValueError);
  g_exc.busy = sub("Busy", "The database is locked (open in this or another process).", nullptr);
  g_exc.not_supported = sub("NotSupported", "The operation is not supported.", nullptr);
}

void RaiseStatus(const sluice::Status& s) {
  py::handle type = g_exc.error;
  switch (s.code()) {
    case sluice::Status::Code::kNotFound: type = g_exc.not_found; break;
    case sluice::Status::Code::kCorruption: type = g_exc.corruption; break;
    case sluice::Status::Code::kNotSupported: type = g_exc.not_supported; break;
    case sluice::Status::Code::kInvalidArgument: type = g_exc.invalid_argument; break;
    case sluice::Status::Code::kIOError: type = g_exc.io_error; break;
    case sluice::Status::Code::kBusy: type = g_exc.busy; break;
    case sluice::Status::Code::kOk: break;
  }
  PyErr_SetString(type.ptr(), s.ToString().c_str());
  throw py::error_already_set();
}

void RaiseError(const std::string& message) {
  PyErr_SetString(g_exc.error.ptr(), message.c_str());
  throw py::error_already_set();
}

void RaiseInvalidArgument(const std::string& message) {
  PyErr_SetString(g_exc.invalid_argument.ptr(), message.c_str());
  throw py::error_already_set();
}

void RaiseTypeError(const std::string& message) {
  PyErr_SetString(PyExc_TypeError, message.c_str());
  throw py::error_already_set();
}

void RaiseKeyError(py::handle key) {
  PyErr_SetObject(PyExc_KeyError, key.ptr());
  throw py::error_already_set();
}

std::string TypeName(py::handle obj) { return Py_TYPE(obj.ptr())->tp_name; }

Bytes::Bytes(py::handle obj, const char* what) {
  PyObject* o = obj.ptr();
  if (PyBytes_Check(o)) {
    data_ = PyBytes_AS_STRING(o);
    size_ = static_cast<size_t>(PyBytes_GET_SIZE(o));
    return;
  }
  if (PyByteArray_Check(o) || PyMemoryView_Check(o)) {
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_C_CONTIGUOUS) != 0) throw py::error_already_set();
    copy_.assign(static_cast<const char*>(view.buf), static_cast<size_t>(view.len));
    PyBuffer_Release(&view);
    data_ = copy_.data();
    size_ = copy_.size();
    return;
  }
  RaiseTypeError(std::string(what) + " must be bytes, not " + TypeName(obj));
}

}  // namespace sluice_python
