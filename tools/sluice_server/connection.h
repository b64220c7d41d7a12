// tools/sluice_server/connection.h — one client connection: read requests, run them, write
// the replies.
//
// A Connection lives on one worker's io_context and only that worker's thread touches it (but
// for a write on a sync thread, below), so it needs no lock. It owns itself through the
// shared_ptr its pending asynchronous operations hold (and a command on a sync thread, which
// hands its reference back with the reply): when the socket is closed and the last of them
// completes, it is destroyed.
//
// Invariants: requests are run in the order they arrive and their replies are written in that
// order (pipelining). At most one write is in flight; replies produced meanwhile wait in out_.
// When the replies waiting to be sent exceed max_output_bytes (a client that does not read),
// the connection is closed at once. A protocol error, QUIT or SHUTDOWN stops reading; the
// replies already produced are sent, then the connection is closed. A client idle for the
// configured timeout is closed.
//
// With sync always, a write command runs on a sync thread (ServerState::sync_pool) instead of
// the worker, so that many clients' synced writes share one fdatasync and the worker goes on
// serving its other connections. Meanwhile this connection neither reads nor runs requests
// (command_running_), which keeps its requests in order; the command's reply comes back to the
// worker's thread and is appended to out_ there. Only the command touches client_ meanwhile.

#ifndef SLUICE_TOOLS_SLUICE_SERVER_CONNECTION_H_
#define SLUICE_TOOLS_SLUICE_SERVER_CONNECTION_H_

#include <array>
#include <asio.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "command_table.h"
#include "resp_parser.h"

namespace sluice::server {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  // Counts itself in server->connected_clients until it is closed.
  Connection(asio::ip::tcp::socket socket, ServerState* server);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Starts reading; call on the socket's io_context thread.
  void Start();

 private:
  void Read();
  void OnRead(const asio::error_code& ec, size_t n);
  // Runs every complete request buffered (up to one sent to a sync thread); false if the
  // connection was closed.
  bool RunRequests();
  // Runs args_ (command `spec`) on a sync thread; OnCommandDone continues on the worker's
  // thread.
  void RunOnSyncThread(const CommandSpec* spec);
  void OnCommandDone(std::string reply, bool failed);
  // Takes new input (bytes read, or a command's reply), runs the requests it completes, sends
  // what is ready and reads on unless done or waiting for a command. An exception (out of
  // memory, most likely) closes only this connection.
  void Process(const std::function<void()>& take_input);
  void Write();
  void OnWrite(const asio::error_code& ec);
  void ArmIdleTimer(std::chrono::steady_clock::duration after);
  void Close();

  asio::ip::tcp::socket socket_;
  asio::steady_timer idle_timer_;
  ServerState* server_;
  ClientState client_;
  RespParser parser_;
  std::vector<std::string> args_;
  std::array<char, 16 * 1024> read_buffer_;
  std::string out_;      // replies waiting for the write in flight to finish
  std::string writing_;  // the replies being written
  bool write_in_flight_ = false;
  bool command_running_ = false;  // a request is running on a sync thread
  bool stop_reading_ = false;     // close once every reply produced has been sent
  bool closed_ = false;
  std::chrono::steady_clock::time_point last_activity_;
};

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_CONNECTION_H_
