// sluice_bench/machine_info.cc — the machine's description (see machine_info.h).

#include "sluice_bench/machine_info.h"

#include <fmt/format.h>
#include <sys/utsname.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#ifndef SLUICE_BENCH_BUILD_FLAGS
#define SLUICE_BENCH_BUILD_FLAGS "unknown"
#endif

namespace sluice_bench {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string CpuModel(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

}  // namespace

std::string FileSystemOf(const std::string& path, const std::string& mounts_text) {
  std::istringstream in(mounts_text);
  std::string device, mount_point, type, rest;
  std::string best_type = "unknown", best_device, best_mount;
  while (in >> device >> mount_point >> type && std::getline(in, rest)) {
    const bool covers = path == mount_point || mount_point == "/" ||
                        (path.rfind(mount_point, 0) == 0 && path.size() > mount_point.size() &&
                         path[mount_point.size()] == '/');
    if (covers && mount_point.size() >= best_mount.size()) {
      best_mount = mount_point;
      best_type = type;
      best_device = device;
    }
  }
  return best_device.empty() ? best_type : fmt::format("{} ({})", best_type, best_device);
}

MachineInfo ReadMachineInfo(const std::string& db_dir) {
  namespace fs = std::filesystem;
  MachineInfo m;
  m.cpu_model = CpuModel(ReadFile("/proc/cpuinfo"));
  m.hardware_threads = std::thread::hardware_concurrency();
  struct utsname u {};
  if (uname(&u) == 0) m.kernel = fmt::format("{} {} {}", u.sysname, u.release, u.machine);
  std::error_code ec;
  fs::path dir = fs::absolute(db_dir, ec);
  while (!dir.empty() && !fs::exists(dir, ec) && dir != dir.root_path()) dir = dir.parent_path();
  const fs::path real = fs::canonical(dir, ec);
  m.file_system = FileSystemOf(ec ? dir.string() : real.string(), ReadFile("/proc/mounts"));
#if defined(__clang__)
  m.compiler = fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
  m.compiler = fmt::format("gcc {}", __VERSION__);
#else
  m.compiler = "unknown";
#endif
  m.build_flags = SLUICE_BENCH_BUILD_FLAGS;
  return m;
}

}  // namespace sluice_bench
