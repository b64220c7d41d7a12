// bindings/python/src/options.cc — the table from option names to fields of sluice::Options,
// ReadOptions and WriteOptions, with strict type and range checks (see options.h). The shared
// objects (block_cache, write_buffer_manager) are the module's Cache and WriteBufferManager,
// registered with shared_ptr holders (module.cc), so a DB shares them with Python.

#include "options.h"

#include <pybind11/stl.h>

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "sluice/cache.h"
#include "sluice/write_buffer_manager.h"

namespace sluice_python {

namespace {

using Setter = std::function<void(OpenOptions*, py::handle, const std::string&)>;

[[noreturn]] void WrongType(const std::string& name, const char* expected, py::handle value) {
  RaiseTypeError("option '" + name + "' must be " + expected + ", not " + TypeName(value));
}

[[noreturn]] void OutOfRange(const std::string& name, py::handle value, const std::string& why) {
  RaiseInvalidArgument("option '" + name + "' = " + py::repr(value).cast<std::string>() +
                       " is out of range (" + why + ")");
}

template <typename T>
T Convert(py::handle value, const std::string& name) {
  PyObject* v = value.ptr();
  if constexpr (std::is_same_v<T, bool>) {
    if (!PyBool_Check(v)) WrongType(name, "bool", value);
    return v == Py_True;
  } else if constexpr (std::is_integral_v<T>) {
    if (!PyLong_Check(v) || PyBool_Check(v)) WrongType(name, "int", value);
    if constexpr (std::is_signed_v<T>) {
      int overflow = 0;
      const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (x == -1 && PyErr_Occurred()) throw py::error_already_set();
      if (overflow != 0 || x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max()) {
        OutOfRange(name, value,
                   "must be between " + std::to_string(std::numeric_limits<T>::min()) + " and " +
                       std::to_string(std::numeric_limits<T>::max()));
      }
      return static_cast<T>(x);
    } else {
      const unsigned long long x = PyLong_AsUnsignedLongLong(v);
      if (x == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();  // negative or too large
        OutOfRange(name, value,
                   "must be between 0 and " + std::to_string(std::numeric_limits<T>::max()));
      }
      if (x > std::numeric_limits<T>::max()) {
        OutOfRange(name, value,
                   "must be between 0 and " + std::to_string(std::numeric_limits<T>::max()));
      }
      return static_cast<T>(x);
    }
  } else if constexpr (std::is_same_v<T, double>) {
    if (PyBool_Check(v) || !(PyFloat_Check(v) || PyLong_Check(v))) {
      WrongType(name, "float", value);
    }
    const double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return x;
  } else {
    static_assert(std::is_same_v<T, std::string>);
    if (!PyUnicode_Check(v)) WrongType(name, "str", value);
    return value.cast<std::string>();
  }
}

// A setter for field `member` of the OpenOptions part `group` (options, read or write).
template <typename Group, typename T>
Setter Field(Group OpenOptions::*group, T Group::*member) {
  return [group, member](OpenOptions* o, py::handle value, const std::string& name) {
    (o->*group).*member = Convert<T>(value, name);
  };
}

// member: a field of Options or of one of its bases (DBOptions, ColumnFamilyOptions).
template <typename C, typename T>
Setter Opt(T C::*member) {
  static_assert(std::is_base_of_v<C, sluice::Options>);
  T sluice::Options::*field = member;
  return Field(&OpenOptions::options, field);
}

// A setter for an enum field of Options (or of a base) that takes one of the names in
// `choices` (a str), or None when `none` is given (the value None stands for).
template <typename C, typename T>
Setter Choice(T C::*member, std::vector<std::pair<std::string, T>> choices,
              std::optional<T> none = std::nullopt) {
  static_assert(std::is_base_of_v<C, sluice::Options>);
  T sluice::Options::*field = member;
  return [field, choices = std::move(choices), none](OpenOptions* o, py::handle value,
                                                     const std::string& name) {
    if (value.is_none() && none.has_value()) {
      o->options.*field = *none;
      return;
    }
    if (!PyUnicode_Check(value.ptr())) WrongType(name, none ? "str or None" : "str", value);
    const std::string given = value.cast<std::string>();
    std::string names;
    for (const auto& [choice, v] : choices) {
      if (choice == given) {
        o->options.*field = v;
        return;
      }
      names += (names.empty() ? "'" : ", '") + choice + "'";
    }
    RaiseInvalidArgument("option '" + name + "' = " + py::repr(value).cast<std::string>() +
                         " is not one of " + names);
  };
}

// "none" (or None), "snappy", "zstd" or "lz4".
template <typename C>
Setter Compression(sluice::CompressionType C::*member) {
  return Choice(member,
                {{"none", sluice::CompressionType::kNone},
                 {"snappy", sluice::CompressionType::kSnappy},
                 {"zstd", sluice::CompressionType::kZstd},
                 {"lz4", sluice::CompressionType::kLz4}},
                std::optional(sluice::CompressionType::kNone));
}

// A setter for a shared object of the process (a Cache, a WriteBufferManager) held by
// shared_ptr in DBOptions: an object of class T, or None for none.
template <typename T>
Setter SharedObject(std::shared_ptr<T> sluice::DBOptions::*member, const char* type_name) {
  std::shared_ptr<T> sluice::Options::*field = member;
  return [field, type_name](OpenOptions* o, py::handle value, const std::string& name) {
    if (value.is_none()) {
      o->options.*field = nullptr;
      return;
    }
    if (!py::isinstance<T>(value)) WrongType(name, type_name, value);
    o->options.*field = value.cast<std::shared_ptr<T>>();
  };
}

const std::map<std::string, Setter>& Setters() {
  using O = sluice::Options;
  static const std::map<std::string, Setter> kSetters = {
      // Opening
      {"create_if_missing", Opt(&O::create_if_missing)},
      {"error_if_exists", Opt(&O::error_if_exists)},
      {"paranoid_checks", Opt(&O::paranoid_checks)},
      // Memory component
      {"write_buffer_size", Opt(&O::write_buffer_size)},
      {"initial_write_buffer_size", Opt(&O::initial_write_buffer_size)},
      {"memtable", Opt(&O::memtable)},
      {"max_write_buffer_number", Opt(&O::max_write_buffer_number)},
      {"linearizable_snapshots", Opt(&O::linearizable_snapshots)},
      {"prefix_length", Opt(&O::prefix_length)},
      {"bucket_count", Opt(&O::bucket_count)},
      {"membuffer_fraction", Opt(&O::membuffer_fraction)},
      {"membuffer_partition_bits", Opt(&O::membuffer_partition_bits)},
      {"membuffer_bucket_slots", Opt(&O::membuffer_bucket_slots)},
      {"flodb_drain_threads", Opt(&O::flodb_drain_threads)},
      {"flodb_scan_max_restarts", Opt(&O::flodb_scan_max_restarts)},
      // Memory shared by databases
      {"write_buffer_manager",
       SharedObject(&sluice::DBOptions::write_buffer_manager, "sluice.WriteBufferManager or None")},
      {"db_write_buffer_size", Opt(&O::db_write_buffer_size)},
      // SST files
      {"block_size", Opt(&O::block_size)},
      {"block_restart_interval", Opt(&O::block_restart_interval)},
      {"block_cache_size", Opt(&O::block_cache_size)},
      {"block_cache", SharedObject(&sluice::DBOptions::block_cache, "sluice.Cache or None")},
      {"bloom_bits_per_key", Opt(&O::bloom_bits_per_key)},
      {"compression", Compression(&O::compression)},
      {"level0_compression", Compression(&O::level0_compression)},
      {"max_open_files", Opt(&O::max_open_files)},
      {"allow_mmap_reads", Opt(&O::allow_mmap_reads)},
      // Compaction
      {"max_background_jobs", Opt(&O::max_background_jobs)},
      {"max_subcompactions", Opt(&O::max_subcompactions)},
      {"compaction_pri",
       Choice(&O::compaction_pri,
              {{"round_robin", sluice::CompactionPri::kRoundRobin},
               {"min_overlapping_ratio", sluice::CompactionPri::kMinOverlappingRatio}})},
      {"num_levels", Opt(&O::num_levels)},
      {"level0_file_num_compaction_trigger", Opt(&O::level0_file_num_compaction_trigger)},
      {"level0_slowdown_writes_trigger", Opt(&O::level0_slowdown_writes_trigger)},
      {"level0_stop_writes_trigger", Opt(&O::level0_stop_writes_trigger)},
      {"soft_pending_compaction_bytes_limit", Opt(&O::soft_pending_compaction_bytes_limit)},
      {"hard_pending_compaction_bytes_limit", Opt(&O::hard_pending_compaction_bytes_limit)},
      {"delayed_write_rate", Opt(&O::delayed_write_rate)},
      {"level0_idle_compaction_ms", Opt(&O::level0_idle_compaction_ms)},
      {"level0_scan_compaction", Opt(&O::level0_scan_compaction)},
      {"level0_backlog_flush_merge", Opt(&O::level0_backlog_flush_merge)},
      {"target_file_size_base", Opt(&O::target_file_size_base)},
      {"max_bytes_for_level_base", Opt(&O::max_bytes_for_level_base)},
      {"max_bytes_for_level_multiplier", Opt(&O::max_bytes_for_level_multiplier)},
      // Limits
      {"max_key_size", Opt(&O::max_key_size)},
      {"max_value_size", Opt(&O::max_value_size)},
      // Defaults of every read and write
      {"verify_checksums", Field(&OpenOptions::read, &sluice::ReadOptions::verify_checksums)},
      {"fill_cache", Field(&OpenOptions::read, &sluice::ReadOptions::fill_cache)},
      {"sync", Field(&OpenOptions::write, &sluice::WriteOptions::sync)},
      {"disable_wal", Field(&OpenOptions::write, &sluice::WriteOptions::disable_wal)},
  };
  return kSetters;
}

[[noreturn]] void UnknownOption(const std::string& name) {
  std::string message = "unknown option '" + name + "'";
  py::list close =
      py::module_::import("difflib").attr("get_close_matches")(name, py::cast(OptionNames()), 1);
  if (!close.empty()) message += "; did you mean '" + close[0].cast<std::string>() + "'?";
  RaiseTypeError(message);
}

}  // namespace

void ApplyOptions(const py::dict& kwargs, OpenOptions* out) {
  const std::map<std::string, Setter>& setters = Setters();
  for (auto [key, value] : kwargs) {
    const std::string name = py::str(key);
    auto it = setters.find(name);
    if (it == setters.end()) UnknownOption(name);
    it->second(out, value, name);
  }
}

std::vector<std::string> OptionNames() {
  std::vector<std::string> names;
  for (const auto& [name, setter] : Setters()) names.push_back(name);
  return names;
}

}  // namespace sluice_python
