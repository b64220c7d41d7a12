// tools/sluice_server/command_table.h — what a command runs with, and the table of commands.
//
// A command is a function of the shared server state, the calling client's state and the
// request's arguments (args[0] is the command name as sent) that appends exactly one reply to
// the output buffer. The table checks arity and authentication before a command runs, so a
// command sees only argument counts its arity allows. Commands run on the client's worker
// thread (with sync always, write commands -- CommandSpec::writes -- on a sync thread instead)
// and may run concurrently on others: everything shared is the thread-safe DB, atomics, and
// ScanCursors (locked inside).

#ifndef SLUICE_TOOLS_SLUICE_SERVER_COMMAND_TABLE_H_
#define SLUICE_TOOLS_SLUICE_SERVER_COMMAND_TABLE_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "reply.h"
#include "server_config.h"
#include "sluice/db.h"

namespace asio {
class thread_pool;
}

namespace sluice::server {

// SCAN's cursors: Redis clients (redis-py, redis-cli) read a cursor as a decimal number, so a
// cursor is a number naming the last key returned, kept here. Bounded: the oldest cursors are
// forgotten first (a forgotten cursor is an error, and the client starts again from 0).
class ScanCursors {
 public:
  // A new cursor (never 0) for a scan to resume after `key`.
  uint64_t Save(std::string key);
  // The key of a live cursor; false if it is unknown or forgotten.
  bool Find(uint64_t cursor, std::string* key);

 private:
  static constexpr size_t kMaxCursors = 16384;
  static constexpr size_t kMaxBytes = 64 << 20;
  std::mutex mu_;
  uint64_t next_ = 1;
  size_t bytes_ = 0;
  std::map<uint64_t, std::string> cursors_;
};

// Shared by every worker thread.
struct ServerState {
  DB* db = nullptr;
  // With sync always: the threads write commands run on (Server owns them); else null. Set
  // before the workers start and cleared after the pool is joined, so a plain pointer.
  asio::thread_pool* sync_pool = nullptr;
  const ServerConfig* config = nullptr;
  WriteOptions write_options;
  std::chrono::steady_clock::time_point start_time = std::chrono::steady_clock::now();
  std::atomic<uint64_t> connected_clients{0};
  std::atomic<uint64_t> total_connections{0};
  std::atomic<uint64_t> rejected_connections{0};
  std::atomic<uint64_t> total_commands{0};
  std::atomic<uint64_t> next_client_id{1};
  ScanCursors cursors;
  // Asks the server to stop (SHUTDOWN); safe to call from any worker.
  std::function<void()> request_shutdown;
};

// One connection's state.
struct ClientState {
  uint64_t id = 0;
  std::string name;  // CLIENT SETNAME
  std::string peer;  // "ip:port"
  bool authenticated = false;
  Protocol protocol = Protocol::kResp2;  // HELLO 3 switches to RESP3
  bool close_after_reply = false;        // QUIT, SHUTDOWN
};

struct CommandContext {
  ServerState* server;
  ClientState* client;
  std::vector<std::string>& args;
  std::string* out;
};

using CommandFunction = void (*)(CommandContext& ctx);

struct CommandSpec {
  const char* name;  // lower case
  // Redis's convention: n > 0 exactly n arguments (name included), n < 0 at least -n.
  int arity;
  CommandFunction fn;
  bool allowed_before_auth = false;
  bool writes = false;  // changes the database (with sync always: runs on a sync thread)
};

// The command groups (string_commands.cc, keyspace_commands.cc, server_commands.cc).
void AddStringCommands(std::vector<CommandSpec>* table);
void AddKeyspaceCommands(std::vector<CommandSpec>* table);
void AddServerCommands(std::vector<CommandSpec>* table);

// Every command sluice-server knows, sorted by name (COMMAND lists them).
const std::vector<CommandSpec>& AllCommands();

// The command named `name` as sent (any case); nullptr if there is none.
const CommandSpec* FindCommand(std::string_view name);

// Runs one request whose command FindCommand(args[0]) gave (`spec`, nullptr for an unknown
// one): checks authentication and arity, runs it, and appends its reply (or the error) to *out.
void ExecuteCommand(ServerState* server, ClientState* client, const CommandSpec* spec,
                    std::vector<std::string>& args, std::string* out);

// Shared helpers of the command groups.
// Redis's strict integer syntax: optional '-', no '+', no leading zeros or blanks, fits int64.
bool ParseRedisInt(std::string_view s, int64_t* out);
// DBSIZE's and INFO keyspace's figure: the engine's "sluice.estimate-num-keys" (O(files), exact
// after a full compaction, high while overwritten versions wait for compaction).
uint64_t EstimatedKeyCount(DB* db);
// The reply for a failed engine call: "-ERR <status>".
void ReplyStatusError(std::string* out, const Status& s);

}  // namespace sluice::server

#endif  // SLUICE_TOOLS_SLUICE_SERVER_COMMAND_TABLE_H_
