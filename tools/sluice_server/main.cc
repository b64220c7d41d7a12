// sluice-server — a Redis-protocol (RESP2 and RESP3) server in front of a sluice database, so
// that every Redis client and tool (redis-cli, redis-benchmark, redis-py, ...) can use sluice
// over TCP.
// docs/server.md is the manual: flags, configuration keys, commands and their deviations from
// Redis.
//
//   sluice-server --dir /var/lib/sluice --port 6380
//   sluice-server --config /etc/sluice-server.conf --requirepass secret
//
// Prints "sluice-server ready on HOST:PORT" on stdout once it accepts connections. SHUTDOWN,
// SIGTERM and SIGINT stop it cleanly: the commands already running finish (with sync always, a
// write still queued for a sync thread may run or be dropped, unacknowledged), the database is
// flushed and closed, and the exit code is 0. A bad setting exits with 2, a database or address
// that cannot be opened with 1.

#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "command_table.h"
#include "server.h"
#include "server_config.h"
#include "sluice/db.h"

namespace {

// Thousands of clients need thousands of descriptors: raise the soft limit to the hard one.
void RaiseFileLimit() {
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sluice::server;
  ServerConfig config;
  const int rc = ParseCommandLine(argc, argv, &config);
  if (rc >= 0) return rc;
  // A client that goes away shows up as EPIPE on its socket, not as a signal.
  std::signal(SIGPIPE, SIG_IGN);
  RaiseFileLimit();

  std::error_code fs_error;
  std::filesystem::create_directories(config.dir, fs_error);
  sluice::Options options;
  options.create_if_missing = true;
  options.memtable = config.memtable;
  options.write_buffer_size = config.write_buffer_size;
  options.block_cache_size = config.block_cache_size;
  std::unique_ptr<sluice::DB> db;
  sluice::Status s = sluice::DB::Open(options, config.dir, &db);
  if (!s.ok()) {
    std::fprintf(stderr, "sluice-server: cannot open the database in %s: %s\n", config.dir.c_str(),
                 s.ToString().c_str());
    return 1;
  }

  ServerState state;
  state.db = db.get();
  state.config = &config;
  state.write_options.sync = config.sync;
  int exit_code = 0;
  {
    Server server(&state);
    state.request_shutdown = [&server] { server.Stop(); };
    s = server.Listen();
    if (!s.ok()) {
      std::fprintf(stderr, "sluice-server: %s\n", s.ToString().c_str());
      exit_code = 1;
    } else {
      config.port = server.port();
      std::printf("sluice-server ready on %s:%d\n", config.bind.c_str(), server.port());
      std::fflush(stdout);
      server.Run();
      std::fprintf(stderr, "sluice-server: shutting down\n");
    }
  }  // every connection is gone before the database closes
  if (exit_code == 0) {
    s = db->Flush();
    if (!s.ok()) std::fprintf(stderr, "sluice-server: flush: %s\n", s.ToString().c_str());
  }
  s = db->Close();
  if (!s.ok()) {
    std::fprintf(stderr, "sluice-server: close: %s\n", s.ToString().c_str());
    return 1;
  }
  return exit_code;
}
