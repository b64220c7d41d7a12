// tools/sluice_server/server_config.h — sluice-server's settings: defaults, the configuration
// file (redis.conf style: "key value" per line, '#' comments) and the command-line flags.
//
// Every setting has one name, used both as a file key and as a flag (`port 6390` in the file is
// `--port 6390` on the command line), and one parser (ApplySetting), so the two cannot drift
// apart. The file is read first, then the flags, so flags override the file. A bad value is an
// error naming the setting (and, from a file, the file and line); the server then exits with
// code 2 before opening anything.

#ifndef SLUICE_TOOLS_SLUICE_SERVER_SERVER_CONFIG_H_
#define SLUICE_TOOLS_SLUICE_SERVER_SERVER_CONFIG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/status.h"

namespace sluice::server {

struct ServerConfig {
  std::string bind = "127.0.0.1";
  int port = 6380;
  std::string dir = "./sluice-data";
  std::string requirepass;  // empty: no authentication
  uint64_t maxclients = 10000;
  uint64_t timeout_seconds = 0;  // idle clients are closed after this long; 0: never
  bool sync = false;             // "sync always": WriteOptions::sync on every write
  int sync_threads = 32;         // with sync: threads running writes (they share fdatasyncs)
  uint64_t max_request_bytes = 512ull << 20;
  uint64_t max_output_bytes = 256ull << 20;  // per client; beyond it the client is closed
  int threads = 0;                           // 0: one per core
  // Engine options.
  std::string memtable = "flodb";
  uint64_t write_buffer_size = 64ull << 20;
  uint64_t block_cache_size = 32ull << 20;
};

// Every setting's name, for the flags and the documentation's list.
const std::vector<std::string>& SettingNames();

// Sets `key` (a name from SettingNames) to `value`; InvalidArgument saying why on an unknown key
// or a bad value. Sizes take k/kb/m/mb/g/gb suffixes (powers of 1024); booleans and "sync" take
// yes/no, always/no.
Status ApplySetting(std::string_view key, std::string_view value, ServerConfig* config);

// Reads a configuration file into *config; InvalidArgument "FILE:LINE: why" on a bad line,
// IOError if the file cannot be read.
Status LoadConfigFile(const std::string& path, ServerConfig* config);

// Parses the command line (--config FILE first, then every flag over it). Returns -1 when the
// server should run, else the exit code to exit with (0 after --help, 2 on a bad setting, having
// printed why).
int ParseCommandLine(int argc, char** argv, ServerConfig* config);

// ASCII lower case (command names, subcommands and configuration keys are case-insensitive).
std::string Lower(std::string_view s);

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_SERVER_CONFIG_H_
