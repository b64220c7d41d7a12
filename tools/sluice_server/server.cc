// tools/sluice_server/server.cc — worker threads, the acceptor and stopping (server.h).

#include "server.h"

#include <csignal>
#include <cstdio>
#include <thread>

#include "connection.h"

namespace sluice::server {

Server::Server(ServerState* state) : state_(state) {
  const int n = state_->config->threads > 0 ? state_->config->threads : 1;
  for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<asio::io_context>(1));
  if (state_->config->sync) {
    sync_pool_ = std::make_unique<asio::thread_pool>(state_->config->sync_threads);
    state_->sync_pool = sync_pool_.get();
  }
}

Server::~Server() {
  // The sync threads first: their commands post back to the workers' io_contexts.
  if (sync_pool_ != nullptr) {
    sync_pool_->join();
    state_->sync_pool = nullptr;
    sync_pool_.reset();
  }
  // Connections (owned by their pending handlers) go with their io_context; the acceptor and
  // the signal set first, since they belong to worker 0.
  retry_timer_.reset();
  signals_.reset();
  acceptor_.reset();
  workers_.clear();
}

Status Server::Listen() {
  const ServerConfig& config = *state_->config;
  asio::io_context& io = *workers_[0];
  asio::error_code ec;
  const asio::ip::address address = asio::ip::make_address(config.bind, ec);
  if (ec) return Status::InvalidArgument("bind: not an IP address", config.bind);
  const asio::ip::tcp::endpoint endpoint(address, static_cast<unsigned short>(config.port));
  auto acceptor = std::make_unique<asio::ip::tcp::acceptor>(io);
  const std::string where = config.bind + ":" + std::to_string(config.port);
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::IOError("cannot listen on " + where, ec.message());
  port_ = acceptor->local_endpoint(ec).port();
  acceptor_ = std::move(acceptor);
  retry_timer_ = std::make_unique<asio::steady_timer>(io);
  signals_ = std::make_unique<asio::signal_set>(io, SIGINT, SIGTERM);
  signals_->async_wait([this](const asio::error_code& e, int) {
    if (!e) Stop();
  });
  return Status::OK();
}

void Server::Accept() {
  asio::io_context& worker = *workers_[next_worker_];
  next_worker_ = (next_worker_ + 1) % workers_.size();
  acceptor_->async_accept(
      worker, [this, &worker](const asio::error_code& ec, asio::ip::tcp::socket socket) {
        if (stopping_.load()) return;
        if (ec) {
          if (ec == asio::error::operation_aborted) return;
          // Out of file descriptors, most likely: wait a little rather than spin.
          std::fprintf(stderr, "sluice-server: accept: %s\n", ec.message().c_str());
          retry_timer_->expires_after(std::chrono::milliseconds(100));
          retry_timer_->async_wait([this](const asio::error_code& e) {
            if (!e) Accept();
          });
          return;
        }
        if (state_->connected_clients.load() >= state_->config->maxclients) {
          state_->rejected_connections.fetch_add(1);
          static const char kFull[] = "-ERR max number of clients reached\r\n";
          asio::error_code ignored;
          asio::write(socket, asio::buffer(kFull, sizeof(kFull) - 1), ignored);
          socket.close(ignored);
        } else {
          auto connection = std::make_shared<Connection>(std::move(socket), state_);
          asio::post(worker, [connection] { connection->Start(); });
        }
        Accept();
      });
}

void Server::Run() {
  Accept();
  std::vector<std::thread> threads;
  for (size_t i = 1; i < workers_.size(); ++i) {
    asio::io_context* io = workers_[i].get();
    threads.emplace_back([io] {
      auto guard = asio::make_work_guard(*io);
      io->run();
    });
  }
  {
    auto guard = asio::make_work_guard(*workers_[0]);
    workers_[0]->run();
  }
  for (auto& t : threads) t.join();
  // Commands already running on sync threads complete in the DB (their replies are not sent);
  // those still queued are dropped, unacknowledged.
  if (sync_pool_ != nullptr) {
    sync_pool_->stop();
    sync_pool_->join();
  }
}

void Server::Stop() {
  stopping_.store(true);
  for (auto& w : workers_) w->stop();
}

}  // namespace sluice::server
