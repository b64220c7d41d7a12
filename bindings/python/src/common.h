// bindings/python/src/common.h — helpers shared by the binding's files: the sluice exception
// classes and the mapping from Status to them, the GIL release guard, and the conversion of
// Python keys and values (bytes, bytearray, memoryview) to byte strings with clear TypeErrors.

#ifndef SLUICE_PYTHON_COMMON_H_
#define SLUICE_PYTHON_COMMON_H_

#include <pybind11/pybind11.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

#include "sluice/slice.h"
#include "sluice/status.h"

namespace sluice_python {

namespace py = pybind11;

// --- Exceptions ------------------------------------------------------------------------------

// Creates sluice.Error and its subclasses as attributes of module `m`. Called once, at import.
void RegisterExceptions(py::module_& m);

// Raises the exception class matching s.code() (s must not be OK) with the engine's message.
[[noreturn]] void RaiseStatus(const sluice::Status& s);
inline void Check(const sluice::Status& s) {
  if (!s.ok()) RaiseStatus(s);
}
// Raises sluice.Error(message) (the base class: misuse such as a call on a closed database).
[[noreturn]] void RaiseError(const std::string& message);
// Raises sluice.InvalidArgument(message).
[[noreturn]] void RaiseInvalidArgument(const std::string& message);
// Raises TypeError(message).
[[noreturn]] void RaiseTypeError(const std::string& message);
// Raises KeyError(key), like a dict.
[[noreturn]] void RaiseKeyError(py::handle key);

// The type name of a Python object, for messages ("str", "NoneType").
std::string TypeName(py::handle obj);

// --- The GIL -----------------------------------------------------------------------------------

// Taking the GIL back at interpreter exit. Python (before 3.14) ends a daemon thread that takes
// the GIL once finalization has begun with pthread_exit, a forced unwind that aborts the process
// when it reaches a noexcept frame (a destructor run from tp_dealloc, or the engine's frames
// around a read_modify_write callback). Checking Py_IsFinalizing() first is not enough: the
// main thread can begin finalizing between the check and the take. So every non-main thread
// passes an exit gate: TryEnterGilTake() registers it as "taking the GIL" unless the gate is
// closed, and ExitGilTake() unregisters it once it holds the GIL. The module's atexit handler
// (CloseExitGateAtExit, run by Py_FinalizeEx before it marks the interpreter finalizing) closes
// the gate and waits, with the GIL released, until no thread is still between the two calls.
// After that no thread can reach take_gil from sluice's code, and a refused thread parks
// (ParkForever), as Python 3.14 does; the process is exiting.
//
// True if this thread may take the GIL now (then it must call ExitGilTake once it holds it);
// false if it must not (the process is exiting and this is not the main thread).
bool TryEnterGilTake();
void ExitGilTake();
[[noreturn]] void ParkForever();
// Records the main thread and registers CloseExitGateAtExit with atexit (called once, at import).
void InstallExitGate();

// Releases the GIL for its lifetime if this thread holds it (so it is also safe in destructors,
// which may run with or without it), and takes it back at the end of the scope. A daemon thread
// still inside an engine call when the interpreter exits parks here instead of taking it.
class GilRelease {
 public:
  GilRelease() : state_(PyGILState_Check() ? PyEval_SaveThread() : nullptr) {}
  // noexcept(false): should Python still end this thread (an exit that skipped atexit), its
  // unwind must be let through where it can be.
  ~GilRelease() noexcept(false) {
    if (state_ == nullptr) return;
    if (!TryEnterGilTake()) ParkForever();
    PyEval_RestoreThread(state_);
    ExitGilTake();
  }
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

 private:
  PyThreadState* state_;  // this thread's state, saved while the GIL is released (not owned)
};

// Locks `mu` without stalling other Python threads: if another thread holds it (it may be inside
// an engine call with the GIL released), waits with the GIL released. Called with the GIL.
inline std::unique_lock<std::mutex> LockReleasingGil(std::mutex& mu) {
  std::unique_lock<std::mutex> lock(mu, std::try_to_lock);
  if (!lock.owns_lock()) {
    GilRelease nogil;
    lock.lock();
  }
  return lock;
}

// --- Keys and values ---------------------------------------------------------------------------

// The bytes of a key or value passed from Python. A bytes object is viewed in place (its contents
// never change and the caller keeps it alive for the call, even with the GIL released); a
// bytearray or other buffer is copied, since another thread could change it meanwhile. Anything
// else (str included) raises TypeError("<what> must be bytes, not <type>").
class Bytes {
 public:
  Bytes(py::handle obj, const char* what);
  Bytes(const Bytes&) = delete;
  Bytes& operator=(const Bytes&) = delete;

  sluice::Slice slice() const { return sluice::Slice(data_, size_); }
  std::string str() const { return std::string(data_, size_); }

 private:
  std::string copy_;  // the copy of a mutable buffer; data_ points into it
  const char* data_ = "";
  size_t size_ = 0;
};

// A Python bytes object holding s.
inline py::bytes ToPyBytes(std::string_view s) { return py::bytes(s.data(), s.size()); }

}  // namespace sluice_python

#endif  // SLUICE_PYTHON_COMMON_H_
