// tools/sluice_server/server_config.cc — settings from the configuration file and the flags
// (server_config.h).

#include "server_config.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <thread>

namespace sluice::server {

std::string Lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
namespace {

const char* const kHelp[][2] = {
    {"bind", "Address to listen on (default 127.0.0.1)"},
    {"port", "TCP port (default 6380)"},
    {"dir", "Data directory: the sluice database (default ./sluice-data, created if missing)"},
    {"requirepass", "Password clients must give with AUTH (default: none)"},
    {"maxclients", "Most clients connected at once (default 10000)"},
    {"timeout", "Close a client idle for this many seconds (default 0: never)"},
    {"sync", "always: sync the log before acknowledging each write; no: do not (default no)"},
    {"sync-threads",
     "With sync always: threads that run writes, so that concurrent writes share one fdatasync "
     "and the event loops go on serving (1-64, default 32)"},
    {"max-request-bytes", "Longest bulk string and request (default 512mb)"},
    {"max-output-bytes",
     "Per client: replies waiting to be sent beyond this close the client "
     "(default 256mb)"},
    {"threads", "Worker threads, each with its own event loop (default: number of cores)"},
    {"memtable", "Engine memory component (flodb, skiplist, vector, hash-skiplist, ...)"},
    {"write-buffer-size", "Engine memory component size (default 64mb)"},
    {"block-cache-size", "Engine block cache size (default 32mb)"},
};

bool ParseU64(std::string_view s, uint64_t* out) {
  if (s.empty()) return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

// "512", "64kb", "1m", "2GB": powers of 1024.
bool ParseSize(std::string_view s, uint64_t* out) {
  const std::string l = Lower(s);
  size_t digits = 0;
  while (digits < l.size() && std::isdigit(static_cast<unsigned char>(l[digits]))) ++digits;
  uint64_t n;
  if (!ParseU64(std::string_view(l).substr(0, digits), &n)) return false;
  const std::string unit = l.substr(digits);
  int shift = 0;
  if (unit.empty() || unit == "b")
    shift = 0;
  else if (unit == "k" || unit == "kb")
    shift = 10;
  else if (unit == "m" || unit == "mb")
    shift = 20;
  else if (unit == "g" || unit == "gb")
    shift = 30;
  else
    return false;
  if (shift > 0 && n > (UINT64_MAX >> shift)) return false;
  *out = n << shift;
  return true;
}

Status Bad(std::string_view key, std::string_view value, std::string_view want) {
  return Status::InvalidArgument(std::string(key) + ": '" + std::string(value) + "' is not " +
                                 std::string(want));
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

const std::vector<std::string>& SettingNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& h : kHelp) v.emplace_back(h[0]);
    return v;
  }();
  return names;
}

Status ApplySetting(std::string_view key_in, std::string_view value, ServerConfig* c) {
  const std::string key = Lower(key_in);
  uint64_t n = 0;
  if (key == "bind") {
    if (value.empty()) return Bad(key, value, "an address");
    c->bind = std::string(value);
  } else if (key == "port") {
    if (!ParseU64(value, &n) || n > 65535) return Bad(key, value, "a port (0-65535)");
    c->port = static_cast<int>(n);
  } else if (key == "dir") {
    if (value.empty()) return Bad(key, value, "a directory");
    c->dir = std::string(value);
  } else if (key == "requirepass") {
    c->requirepass = std::string(value);
  } else if (key == "maxclients") {
    if (!ParseU64(value, &n) || n == 0) return Bad(key, value, "a positive number");
    c->maxclients = n;
  } else if (key == "timeout") {
    if (!ParseU64(value, &n)) return Bad(key, value, "a number of seconds");
    c->timeout_seconds = n;
  } else if (key == "sync") {
    const std::string v = Lower(value);
    if (v == "always" || v == "yes")
      c->sync = true;
    else if (v == "no")
      c->sync = false;
    else
      return Bad(key, value, "always or no");
  } else if (key == "sync-threads") {
    // The engine has 64 write slots: more threads would only wait for one.
    if (!ParseU64(value, &n) || n == 0 || n > 64) return Bad(key, value, "a thread count (1-64)");
    c->sync_threads = static_cast<int>(n);
  } else if (key == "max-request-bytes" || key == "proto-max-bulk-len") {
    if (!ParseSize(value, &n) || n == 0) return Bad(key, value, "a size");
    c->max_request_bytes = n;
  } else if (key == "max-output-bytes") {
    if (!ParseSize(value, &n) || n == 0) return Bad(key, value, "a size");
    c->max_output_bytes = n;
  } else if (key == "threads") {
    if (!ParseU64(value, &n) || n > 1024) return Bad(key, value, "a thread count (0-1024)");
    c->threads = static_cast<int>(n);
  } else if (key == "memtable") {
    if (value.empty()) return Bad(key, value, "a memory component name");
    c->memtable = std::string(value);
  } else if (key == "write-buffer-size") {
    if (!ParseSize(value, &n) || n == 0) return Bad(key, value, "a size");
    c->write_buffer_size = n;
  } else if (key == "block-cache-size") {
    if (!ParseSize(value, &n)) return Bad(key, value, "a size");
    c->block_cache_size = n;
  } else {
    return Status::InvalidArgument("unknown setting '" + std::string(key_in) + "'");
  }
  return Status::OK();
}

Status LoadConfigFile(const std::string& path, ServerConfig* config) {
  std::ifstream in(path);
  if (!in) return Status::IOError(path, "cannot be read");
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::string_view l = Trim(line);
    if (l.empty() || l.front() == '#') continue;
    size_t sp = 0;
    while (sp < l.size() && !std::isspace(static_cast<unsigned char>(l[sp]))) ++sp;
    const std::string_view key = l.substr(0, sp);
    std::string_view value = Trim(l.substr(sp));
    // redis.conf style quoting: requirepass "secret word".
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    Status s = ApplySetting(key, value, config);
    if (!s.ok()) {
      std::string msg = s.ToString();
      const std::string prefix = "Invalid argument: ";
      if (msg.rfind(prefix, 0) == 0) msg = msg.substr(prefix.size());
      return Status::InvalidArgument(path + ":" + std::to_string(line_no) + ": " + msg);
    }
  }
  return Status::OK();
}

int ParseCommandLine(int argc, char** argv, ServerConfig* config) {
  // The file first, so that the flags (applied while CLI11 parses) override it.
  std::string config_file;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--config" && i + 1 < argc) config_file = argv[i + 1];
    if (a.rfind("--config=", 0) == 0) config_file = std::string(a.substr(9));
  }
  if (!config_file.empty()) {
    Status s = LoadConfigFile(config_file, config);
    if (!s.ok()) {
      std::fprintf(stderr, "sluice-server: bad configuration: %s\n", s.ToString().c_str());
      return 2;
    }
  }
  CLI::App app{
      "sluice-server: a Redis-protocol (RESP2, RESP3) server in front of a sluice database"};
  std::string ignored;
  app.add_option("--config", ignored, "Configuration file: 'key value' lines (flags override it)");
  for (const auto& h : kHelp) {
    const std::string name = h[0];
    app.add_option_function<std::string>(
        "--" + name,
        [name, config](const std::string& v) {
          Status s = ApplySetting(name, v, config);
          if (!s.ok()) throw CLI::ValidationError("--" + name, s.ToString());
        },
        h[1]);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  if (config->threads == 0) {
    const unsigned n = std::thread::hardware_concurrency();
    config->threads = n == 0 ? 1 : static_cast<int>(n);
  }
  return -1;
}

}  // namespace sluice::server
