// sluice_bench/rocksdb_c_api.cc — loading RocksDB's C API (see rocksdb_c_api.h).

#include "sluice_bench/rocksdb_c_api.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace sluice_bench {
namespace {

#ifndef SLUICE_BENCH_ROCKSDB_RELEASE_LIBRARY
#define SLUICE_BENCH_ROCKSDB_RELEASE_LIBRARY ""
#endif
#ifndef SLUICE_BENCH_ROCKSDB_FALLBACK_LIBRARY
#define SLUICE_BENCH_ROCKSDB_FALLBACK_LIBRARY ""
#endif

// Present only where RocksDB was compiled without NDEBUG (util/sync_point.cc is debug-only):
// rocksdb::SyncPoint::GetInstance(), whose mangled name has no std::string in it.
constexpr const char* kDebugOnlySymbol = "_ZN7rocksdb9SyncPoint11GetInstanceEv";

// Opens and closes a scratch database and reads the version from its LOG ("RocksDB version:
// 11.8.1"), which every RocksDB writes when it opens a database.
EngineStatus ProbeVersion(const RocksDBLibrary& lib, std::string* version) {
  namespace fs = std::filesystem;
  std::string dir_template = (fs::temp_directory_path() / "sluice_bench_rocksdb.XXXXXX").string();
  if (mkdtemp(dir_template.data()) == nullptr) {
    return EngineStatus::Error(fmt::format("cannot create a temporary directory in {}",
                                           fs::temp_directory_path().string()));
  }
  const std::string dir = dir_template;
  rocksdb_options_t* options = lib.options_create();
  lib.options_set_create_if_missing(options, 1);
  const char* names[] = {"default"};
  const rocksdb_options_t* family_options[] = {options};
  rocksdb_column_family_handle_t* handle = nullptr;
  char* err = nullptr;
  rocksdb_t* db =
      lib.open_column_families(options, dir.c_str(), 1, names, family_options, &handle, &err);
  EngineStatus status;
  if (err != nullptr) {
    status = EngineStatus::Error(fmt::format("cannot open a scratch database: {}", err));
    lib.free(err);
  } else {
    lib.column_family_handle_destroy(handle);
    lib.close(db);
    std::ifstream log(fs::path(dir) / "LOG");
    std::stringstream text;
    text << log.rdbuf();
    std::smatch m;
    const std::string s = text.str();
    if (std::regex_search(s, m, std::regex(R"(RocksDB version: ([0-9][0-9.]*))"))) {
      *version = m[1];
    } else {
      status = EngineStatus::Error("its LOG names no \"RocksDB version\"");
    }
  }
  lib.options_destroy(options);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return status;
}

}  // namespace

std::string RocksDBLibrary::BuildKind() const {
  return assertions ? "assertions enabled" : "release build";
}

std::string RocksDBLibrary::Describe() const {
  return fmt::format("RocksDB {}, {}", version, BuildKind());
}

EngineStatus LoadRocksDBLibrary(const std::string& path,
                                std::shared_ptr<const RocksDBLibrary>* library) {
  namespace fs = std::filesystem;
  static std::mutex mu;
  static std::map<std::string, std::shared_ptr<const RocksDBLibrary>> loaded;
  std::error_code ec;
  if (path.empty() || !fs::is_regular_file(path, ec)) {
    return EngineStatus::Error(fmt::format("--rocksdb_library: {}: no such file", path));
  }
  const std::string real = fs::canonical(path, ec).string();
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = loaded.find(real); it != loaded.end()) {
    *library = it->second;
    return EngineStatus::OK();
  }
  // RTLD_LOCAL: the library's symbols stay out of the global scope, so two RocksDB builds can
  // be loaded into one process (the adapter's tests do) without one binding to the other.
  void* handle = dlopen(real.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return EngineStatus::Error(
        fmt::format("--rocksdb_library: {}: cannot load it: {}", path, dlerror()));
  }
  auto lib = std::make_shared<RocksDBLibrary>();
  lib->path = real;
#define SLUICE_ROCKSDB_C_RESOLVE(name)                                                             \
  lib->name = reinterpret_cast<decltype(lib->name)>(dlsym(handle, "rocksdb_" #name));              \
  if (lib->name == nullptr) {                                                                      \
    return EngineStatus::Error(                                                                    \
        fmt::format("--rocksdb_library: {}: not a RocksDB library with the C API (no rocksdb_{})", \
                    path, #name));                                                                 \
  }
  SLUICE_ROCKSDB_C_FUNCTIONS(SLUICE_ROCKSDB_C_RESOLVE)
#undef SLUICE_ROCKSDB_C_RESOLVE
  lib->assertions = dlsym(handle, kDebugOnlySymbol) != nullptr;
  EngineStatus s = ProbeVersion(*lib, &lib->version);
  if (!s.ok()) {
    return EngineStatus::Error(fmt::format("--rocksdb_library: {}: {}", path, s.message()));
  }
  // The handle is never closed (see the header): the library stays for the process's life.
  loaded[real] = lib;
  *library = std::move(lib);
  return EngineStatus::OK();
}

std::string ReleaseRocksDBLibraryPath() { return SLUICE_BENCH_ROCKSDB_RELEASE_LIBRARY; }
std::string FallbackRocksDBLibraryPath() { return SLUICE_BENCH_ROCKSDB_FALLBACK_LIBRARY; }

RocksDBLibraryChoice ChooseRocksDBLibrary(const std::string& release, const std::string& fallback) {
  std::error_code ec;
  if (!release.empty() && std::filesystem::exists(release, ec)) return {release, ""};
  return {fallback, fmt::format("the release build {} is missing (scripts/fetch-rocksdb-release.sh "
                                "fetches it); fell back to {}",
                                release, fallback)};
}

RocksDBLibraryChoice DefaultRocksDBLibrary() {
  return ChooseRocksDBLibrary(ReleaseRocksDBLibraryPath(), FallbackRocksDBLibraryPath());
}

}  // namespace sluice_bench
