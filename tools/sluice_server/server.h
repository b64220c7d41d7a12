// tools/sluice_server/server.h — the network side of sluice-server: a small reactor per core.
//
// There are `threads` workers, each running its own asio::io_context on its own thread. One
// acceptor (on worker 0) hands the accepted sockets to the workers round-robin, and a
// connection then lives on its worker for good, so connection state is not shared between
// workers (a write command on a sync thread borrows its connection's client state while it
// runs); only the DB (thread-safe, gets never block) and ServerState's counters are.
// Thousands of idle connections cost a socket and a small buffer each, no thread.
//
// With sync always, write commands run on a pool of sync threads (config sync-threads), where
// concurrent synced writes share fdatasyncs (the engine's group commit) while the workers go on
// serving.
//
// Stop() (SHUTDOWN, SIGTERM, SIGINT) may be called from any thread: every io_context stops
// after the handler it is running, and the sync threads finish the commands they run (a write
// still queued for one may run or be dropped; neither is acknowledged), so every command that
// was acknowledged has completed in the DB before Run() returns. The caller then closes the DB.

#ifndef SLUICE_TOOLS_SLUICE_SERVER_SERVER_H_
#define SLUICE_TOOLS_SLUICE_SERVER_SERVER_H_

#include <asio.hpp>
#include <atomic>
#include <memory>
#include <vector>

#include "command_table.h"
#include "server_config.h"
#include "sluice/status.h"

namespace sluice::server {

class Server {
 public:
  // *state (and its config and DB) must outlive the Server.
  explicit Server(ServerState* state);
  ~Server();

  // Binds and listens on config.bind:config.port (port 0: any free port, see port()).
  Status Listen();
  // The port listened on.
  int port() const { return port_; }
  // Serves until Stop(), SIGINT or SIGTERM; returns once every worker thread has ended.
  void Run();
  void Stop();

 private:
  void Accept();

  ServerState* state_;
  std::vector<std::unique_ptr<asio::io_context>> workers_;
  std::unique_ptr<asio::thread_pool> sync_pool_;  // with sync always
  std::unique_ptr<asio::ip::tcp::acceptor> acceptor_;
  std::unique_ptr<asio::signal_set> signals_;
  std::unique_ptr<asio::steady_timer> retry_timer_;
  size_t next_worker_ = 0;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
};

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_SERVER_H_
