// tools/sluice_server/connection.cc — one client connection (connection.h).

#include "connection.h"

#include <cstdio>
#include <exception>
#include <utility>

#include "reply.h"

namespace sluice::server {
namespace {

void LogClosing(uint64_t client_id, const std::exception& e) {
  std::fprintf(stderr, "sluice-server: client %llu: %s; closing it\n",
               static_cast<unsigned long long>(client_id), e.what());
}

ParserLimits LimitsFor(const ServerConfig& config) {
  ParserLimits limits;
  limits.max_request_bytes = config.max_request_bytes;
  return limits;
}

}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, ServerState* server)
    : socket_(std::move(socket)),
      idle_timer_(socket_.get_executor()),
      server_(server),
      parser_(LimitsFor(*server->config)) {
  server_->connected_clients.fetch_add(1, std::memory_order_relaxed);
  server_->total_connections.fetch_add(1, std::memory_order_relaxed);
  client_.id = server_->next_client_id.fetch_add(1, std::memory_order_relaxed);
  asio::error_code ec;
  const auto peer = socket_.remote_endpoint(ec);
  if (!ec) client_.peer = peer.address().to_string() + ":" + std::to_string(peer.port());
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
}

Connection::~Connection() {
  if (!closed_) server_->connected_clients.fetch_sub(1, std::memory_order_relaxed);
}

void Connection::Start() {
  last_activity_ = std::chrono::steady_clock::now();
  if (server_->config->timeout_seconds > 0) {
    ArmIdleTimer(std::chrono::seconds(server_->config->timeout_seconds));
  }
  Read();
}

void Connection::Read() {
  socket_.async_read_some(
      asio::buffer(read_buffer_),
      [self = shared_from_this()](const asio::error_code& ec, size_t n) { self->OnRead(ec, n); });
}

void Connection::OnRead(const asio::error_code& ec, size_t n) {
  if (closed_) return;
  if (ec) return Close();  // EOF or a reset: the client went away, maybe mid-request
  last_activity_ = std::chrono::steady_clock::now();
  Process([&] { parser_.Feed(read_buffer_.data(), n); });
}

void Connection::Process(const std::function<void()>& take_input) {
  try {
    take_input();
    if (!RunRequests()) return;
  } catch (const std::exception& e) {
    // Out of memory, most likely: this connection ends, the server and its other clients go
    // on (an exception escaping the handler would end io_context::run and the process).
    LogClosing(client_.id, e);
    return Close();
  }
  Write();
  if (!stop_reading_ && !command_running_) Read();
}

void Connection::RunOnSyncThread(const CommandSpec* spec) {
  command_running_ = true;
  // The pool's post and the post back order every access to client_ and the args: the worker
  // does not touch them while the command runs. The sync thread hands its reference back with
  // the reply, so the connection is never destroyed there.
  asio::post(*server_->sync_pool, [self = shared_from_this(), executor = socket_.get_executor(),
                                   spec, args = std::move(args_)]() mutable {
    std::string reply;
    bool failed = false;
    try {
      ExecuteCommand(self->server_, &self->client_, spec, args, &reply);
    } catch (const std::exception& e) {
      LogClosing(self->client_.id, e);
      failed = true;
    }
    asio::post(executor, [self = std::move(self), reply = std::move(reply), failed]() mutable {
      self->OnCommandDone(std::move(reply), failed);
    });
  });
  args_.clear();
}

void Connection::OnCommandDone(std::string reply, bool failed) {
  command_running_ = false;
  if (closed_) return;
  if (failed) return Close();
  last_activity_ = std::chrono::steady_clock::now();
  Process([&] { out_ += reply; });
}

bool Connection::RunRequests() {
  const uint64_t max_output = server_->config->max_output_bytes;
  while (!stop_reading_ && !command_running_) {
    if (out_.size() + writing_.size() > max_output) {
      // A client that sends requests and does not read the replies: it would hold the
      // server's memory without bound.
      Close();
      return false;
    }
    const RespParser::Result r = parser_.Next(&args_);
    if (r == RespParser::Result::kNeedMore) break;
    if (r == RespParser::Result::kError) {
      ReplyError(&out_, "ERR " + parser_.error());
      stop_reading_ = true;
      break;
    }
    const CommandSpec* spec = FindCommand(args_[0]);
    if (server_->sync_pool != nullptr && spec != nullptr && spec->writes) {
      RunOnSyncThread(spec);
      break;
    }
    ExecuteCommand(server_, &client_, spec, args_, &out_);
    if (client_.close_after_reply) stop_reading_ = true;
  }
  if (out_.size() + writing_.size() > max_output) {
    Close();
    return false;
  }
  return true;
}

void Connection::Write() {
  if (closed_ || write_in_flight_) return;
  if (out_.empty()) {
    if (stop_reading_) Close();
    return;
  }
  writing_.swap(out_);
  out_.clear();
  write_in_flight_ = true;
  asio::async_write(
      socket_, asio::buffer(writing_),
      [self = shared_from_this()](const asio::error_code& ec, size_t) { self->OnWrite(ec); });
}

void Connection::OnWrite(const asio::error_code& ec) {
  write_in_flight_ = false;
  if (closed_) return;
  if (ec) return Close();
  // Give back the memory of a large reply instead of keeping it for the connection's life.
  if (writing_.capacity() > (1 << 20)) {
    std::string().swap(writing_);
  } else {
    writing_.clear();
  }
  Write();
}

void Connection::ArmIdleTimer(std::chrono::steady_clock::duration after) {
  idle_timer_.expires_after(after);
  idle_timer_.async_wait([self = shared_from_this()](const asio::error_code& ec) {
    if (ec || self->closed_) return;
    const auto timeout = std::chrono::seconds(self->server_->config->timeout_seconds);
    // Waiting for its own command (a long write on a sync thread) is not idleness.
    if (self->command_running_) return self->ArmIdleTimer(timeout);
    const auto idle = std::chrono::steady_clock::now() - self->last_activity_;
    if (idle >= timeout) return self->Close();
    self->ArmIdleTimer(timeout - idle);
  });
}

void Connection::Close() {
  if (closed_) return;
  closed_ = true;
  server_->connected_clients.fetch_sub(1, std::memory_order_relaxed);
  asio::error_code ec;
  idle_timer_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

}  // namespace sluice::server
