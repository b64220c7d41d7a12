// sluice_bench/machine_info.h — what a result was measured on: CPU, kernel, file system and how
// sluice_bench itself was compiled. Printed in the run's header and kept in the JSON, since
// figures from different machines (or builds) are not comparable.

#ifndef SLUICE_BENCH_MACHINE_INFO_H_
#define SLUICE_BENCH_MACHINE_INFO_H_

#include <string>

namespace sluice_bench {

struct MachineInfo {
  std::string cpu_model;  // /proc/cpuinfo's "model name" ("unknown" if absent)
  unsigned hardware_threads = 0;
  std::string kernel;       // uname: sysname, release, machine
  std::string file_system;  // type and device of the mount that holds the database directory
  std::string compiler;     // compiler and version sluice_bench was built with
  std::string build_flags;  // CMake build type and C++ flags
};

// Reads the machine's description; db_dir is the parent directory of the databases (it need
// not exist yet: its nearest existing ancestor decides the mount).
MachineInfo ReadMachineInfo(const std::string& db_dir);

// The file system of the mount holding path, from a /proc/mounts text: "ext4 (/dev/vda)".
// Exposed for tests.
std::string FileSystemOf(const std::string& path, const std::string& mounts_text);

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_MACHINE_INFO_H_
