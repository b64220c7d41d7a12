// bindings/python/src/options.h — keyword arguments of sluice.DB(), destroy_db() and repair_db()
// mapped by name onto sluice::Options, plus the default ReadOptions and WriteOptions of a DB.

#ifndef SLUICE_PYTHON_OPTIONS_H_
#define SLUICE_PYTHON_OPTIONS_H_

#include <string>
#include <vector>

#include "common.h"
#include "sluice/options.h"

namespace sluice_python {

struct OpenOptions {
  sluice::Options options;
  sluice::ReadOptions read;    // defaults for every read (verify_checksums, fill_cache)
  sluice::WriteOptions write;  // defaults for every write (sync, disable_wal)
};

// Sets the option named by each key of `kwargs`. Raises TypeError for an unknown name or a value
// of the wrong type, and sluice.InvalidArgument for a value out of range (both name the option).
// Values the engine rejects (e.g. an unknown memtable) are reported by DB::Open.
void ApplyOptions(const py::dict& kwargs, OpenOptions* out);

// Every option name ApplyOptions accepts, sorted.
std::vector<std::string> OptionNames();

}  // namespace sluice_python

#endif  // SLUICE_PYTHON_OPTIONS_H_
