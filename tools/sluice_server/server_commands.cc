// tools/sluice_server/server_commands.cc — connection and server commands: PING, ECHO, AUTH,
// HELLO, SELECT, CLIENT, COMMAND, CONFIG GET, INFO, TIME, QUIT, SHUTDOWN.
//
// These exist so that every Redis client and tool can talk to sluice-server: replies have
// Redis's shapes (HELLO's and CONFIG GET's maps, flat arrays in RESP2; INFO's "# Section"
// text), and requests sluice cannot honour get Redis's own error replies.

#include <unistd.h>

#include <chrono>
#include <string>

#include "command_table.h"
#include "glob.h"
#include "reply.h"

namespace sluice::server {
namespace {

const char kRedisVersion[] = "7.0.0";  // the Redis version whose commands sluice-server follows

void Ping(CommandContext& c) {
  if (c.args.size() > 2)
    return ReplyError(c.out, "ERR wrong number of arguments for 'ping' command");
  if (c.args.size() == 2) return ReplyBulk(c.out, c.args[1]);
  ReplySimple(c.out, "PONG");
}

void Echo(CommandContext& c) { ReplyBulk(c.out, c.args[1]); }

// Checks a password (the user, if given, must be "default"); replies the error if wrong.
bool CheckPassword(CommandContext& c, const std::string* user, const std::string& password) {
  const std::string& required = c.server->config->requirepass;
  if (required.empty()) {
    ReplyError(c.out,
               "ERR AUTH <password> called without any password configured for the default "
               "user. Are you sure your configuration is correct?");
    return false;
  }
  if ((user != nullptr && *user != "default") || password != required) {
    ReplyError(c.out, "WRONGPASS invalid username-password pair or user is disabled.");
    return false;
  }
  c.client->authenticated = true;
  return true;
}

void Auth(CommandContext& c) {
  if (c.args.size() > 3) return ReplyError(c.out, "ERR syntax error");
  const bool with_user = c.args.size() == 3;
  if (CheckPassword(c, with_user ? &c.args[1] : nullptr, c.args.back())) ReplyOk(c.out);
}

// HELLO [protover [AUTH user pass] [SETNAME name]]: protover 2 or 3. The connection switches
// protocol only when the whole command succeeds, and the reply is already in the new one.
void Hello(CommandContext& c) {
  size_t i = 1;
  Protocol protocol = c.client->protocol;
  if (c.args.size() >= 2) {
    int64_t ver;
    if (!ParseRedisInt(c.args[1], &ver)) {
      return ReplyError(c.out, "ERR Protocol version is not an integer or out of range");
    }
    if (ver != 2 && ver != 3) return ReplyError(c.out, "NOPROTO unsupported protocol version");
    protocol = ver == 3 ? Protocol::kResp3 : Protocol::kResp2;
    i = 2;
  }
  std::string name;
  bool set_name = false;
  for (; i < c.args.size(); ++i) {
    const std::string opt = Lower(c.args[i]);
    if (opt == "auth" && i + 2 < c.args.size()) {
      if (!CheckPassword(c, &c.args[i + 1], c.args[i + 2])) return;
      i += 2;
    } else if (opt == "setname" && i + 1 < c.args.size()) {
      name = c.args[++i];
      set_name = true;
    } else {
      return ReplyError(c.out, "ERR Syntax error in HELLO option '" + c.args[i] + "'");
    }
  }
  if (!c.server->config->requirepass.empty() && !c.client->authenticated) {
    return ReplyError(c.out,
                      "NOAUTH HELLO must be called with the client already authenticated, "
                      "otherwise the HELLO <proto> AUTH <user> <pass> option can be used to "
                      "authenticate the client and select the RESP protocol version at the "
                      "same time");
  }
  if (set_name) c.client->name = name;
  c.client->protocol = protocol;
  ReplyMapHeader(c.out, 7, protocol);
  ReplyBulk(c.out, "server");
  ReplyBulk(c.out, "redis");
  ReplyBulk(c.out, "version");
  ReplyBulk(c.out, kRedisVersion);
  ReplyBulk(c.out, "proto");
  ReplyInteger(c.out, static_cast<int64_t>(protocol));
  ReplyBulk(c.out, "id");
  ReplyInteger(c.out, static_cast<int64_t>(c.client->id));
  ReplyBulk(c.out, "mode");
  ReplyBulk(c.out, "standalone");
  ReplyBulk(c.out, "role");
  ReplyBulk(c.out, "master");
  ReplyBulk(c.out, "modules");
  ReplyArrayHeader(c.out, 0);
}

void Select(CommandContext& c) {
  int64_t index;
  if (!ParseRedisInt(c.args[1], &index)) {
    return ReplyError(c.out, "ERR value is not an integer or out of range");
  }
  if (index != 0) return ReplyError(c.out, "ERR DB index is out of range");
  ReplyOk(c.out);
}

std::string ClientLine(const ClientState& cl) {
  return "id=" + std::to_string(cl.id) + " addr=" + cl.peer + " name=" + cl.name + " db=0";
}

void Client(CommandContext& c) {
  const std::string sub = Lower(c.args[1]);
  if (sub == "setname" && c.args.size() == 3) {
    for (char ch : c.args[2]) {
      if (ch < '!' || ch > '~') {
        return ReplyError(c.out,
                          "ERR Client names cannot contain spaces, newlines or special "
                          "characters.");
      }
    }
    c.client->name = c.args[2];
    return ReplyOk(c.out);
  }
  if (sub == "getname" && c.args.size() == 2) {
    return c.client->name.empty() ? ReplyNull(c.out, c.client->protocol)
                                  : ReplyBulk(c.out, c.client->name);
  }
  if (sub == "id" && c.args.size() == 2) {
    return ReplyInteger(c.out, static_cast<int64_t>(c.client->id));
  }
  if ((sub == "info" || sub == "list") && c.args.size() == 2) {
    return ReplyBulk(c.out, ClientLine(*c.client) + "\n");
  }
  // Settings clients send on connect; accepted, they change nothing here.
  if (sub == "setinfo" || sub == "no-evict" || sub == "no-touch" ||
      (sub == "reply" && c.args.size() == 3 && Lower(c.args[2]) == "on")) {
    return ReplyOk(c.out);
  }
  ReplyError(c.out, "ERR unknown subcommand or wrong number of arguments for '" + c.args[1] +
                        "'. Try CLIENT HELP.");
}

// One COMMAND INFO entry in Redis 7's shape: name, arity, flags, first key, last key, step,
// ACL categories, tips, key specifications, subcommands. Only name and arity carry information
// (flags, categories and tips are empty sets in RESP3, arrays in RESP2).
void ReplyCommandInfo(std::string* out, const CommandSpec& spec, Protocol protocol) {
  ReplyArrayHeader(out, 10);
  ReplyBulk(out, spec.name);
  ReplyInteger(out, spec.arity);
  ReplySetHeader(out, 0, protocol);
  ReplyInteger(out, 0);
  ReplyInteger(out, 0);
  ReplyInteger(out, 0);
  ReplySetHeader(out, 0, protocol);
  ReplySetHeader(out, 0, protocol);
  ReplyArrayHeader(out, 0);
  ReplyArrayHeader(out, 0);
}

void Command(CommandContext& c) {
  const auto& all = AllCommands();
  if (c.args.size() == 1) {
    ReplyArrayHeader(c.out, all.size());
    for (const CommandSpec& spec : all) ReplyCommandInfo(c.out, spec, c.client->protocol);
    return;
  }
  const std::string sub = Lower(c.args[1]);
  if (sub == "count") return ReplyInteger(c.out, static_cast<int64_t>(all.size()));
  if (sub == "docs") return ReplyMapHeader(c.out, 0, c.client->protocol);  // no documentation
  if (sub == "info") {
    ReplyArrayHeader(c.out, c.args.size() - 2);
    for (size_t i = 2; i < c.args.size(); ++i) {
      const std::string name = Lower(c.args[i]);
      const CommandSpec* found = nullptr;
      for (const CommandSpec& spec : all) {
        if (name == spec.name) found = &spec;
      }
      found ? ReplyCommandInfo(c.out, *found, c.client->protocol)
            : ReplyNull(c.out, c.client->protocol);
    }
    return;
  }
  if (sub == "list") {
    ReplyArrayHeader(c.out, all.size());
    for (const CommandSpec& spec : all) ReplyBulk(c.out, spec.name);
    return;
  }
  ReplyError(c.out, "ERR unknown subcommand '" + c.args[1] + "'. Try COMMAND HELP.");
}

// CONFIG GET pattern: the server's settings (plus Redis's "save" and "appendonly", which tools
// such as redis-benchmark ask for). CONFIG SET is refused; RESETSTAT is accepted.
void Config(CommandContext& c) {
  const std::string sub = Lower(c.args[1]);
  if (sub == "get" && c.args.size() >= 3) {
    const ServerConfig& cfg = *c.server->config;
    const std::pair<std::string, std::string> all[] = {
        {"bind", cfg.bind},
        {"port", std::to_string(cfg.port)},
        {"dir", cfg.dir},
        {"maxclients", std::to_string(cfg.maxclients)},
        {"timeout", std::to_string(cfg.timeout_seconds)},
        {"sync", cfg.sync ? "always" : "no"},
        {"sync-threads", std::to_string(cfg.sync_threads)},
        {"appendonly", "yes"},  // every write goes to sluice's write-ahead log
        {"appendfsync", cfg.sync ? "always" : "no"},
        {"save", ""},
        {"databases", "1"},
        {"proto-max-bulk-len", std::to_string(cfg.max_request_bytes)},
        {"max-request-bytes", std::to_string(cfg.max_request_bytes)},
        {"max-output-bytes", std::to_string(cfg.max_output_bytes)},
        {"threads", std::to_string(cfg.threads)},
        {"memtable", cfg.memtable},
    };
    std::vector<const std::pair<std::string, std::string>*> hits;
    for (const auto& kv : all) {
      for (size_t i = 2; i < c.args.size(); ++i) {
        if (GlobMatch(Lower(c.args[i]), kv.first)) {
          hits.push_back(&kv);
          break;
        }
      }
    }
    ReplyMapHeader(c.out, hits.size(), c.client->protocol);
    for (const auto* kv : hits) {
      ReplyBulk(c.out, kv->first);
      ReplyBulk(c.out, kv->second);
    }
    return;
  }
  if (sub == "resetstat" && c.args.size() == 2) return ReplyOk(c.out);
  if (sub == "set") return ReplyError(c.out, "ERR CONFIG SET is not supported by sluice-server");
  ReplyError(c.out, "ERR unknown subcommand or wrong number of arguments for '" + c.args[1] +
                        "'. Try CONFIG HELP.");
}

void Info(CommandContext& c) {
  std::vector<std::string> wanted;
  for (size_t i = 1; i < c.args.size(); ++i) wanted.push_back(Lower(c.args[i]));
  auto want = [&](const char* section) {
    if (wanted.empty()) return true;
    for (const std::string& w : wanted) {
      if (w == section || w == "all" || w == "everything" || w == "default") return true;
    }
    return false;
  };
  ServerState& s = *c.server;
  DB* db = s.db;
  std::string r;
  if (want("server")) {
    const auto up = std::chrono::duration_cast<std::chrono::seconds>(
                        std::chrono::steady_clock::now() - s.start_time)
                        .count();
    r += "# Server\r\nredis_version:" + std::string(kRedisVersion) +
         "\r\nsluice_server:1\r\nredis_mode:standalone\r\narch_bits:" +
         std::to_string(sizeof(void*) * 8) +
         "\r\nmultiplexing_api:asio\r\nprocess_id:" + std::to_string(::getpid()) +
         "\r\ntcp_port:" + std::to_string(s.config->port) +
         "\r\nuptime_in_seconds:" + std::to_string(up) +
         "\r\nuptime_in_days:" + std::to_string(up / 86400) +
         "\r\nio_threads_active:" + std::to_string(s.config->threads) + "\r\n\r\n";
  }
  if (want("clients")) {
    r += "# Clients\r\nconnected_clients:" + std::to_string(s.connected_clients.load()) +
         "\r\nmaxclients:" + std::to_string(s.config->maxclients) + "\r\n\r\n";
  }
  if (want("memory")) {
    std::string mem;
    if (!db->GetProperty("sluice.memory-usage", &mem)) mem = "0";
    r += "# Memory\r\nused_memory:" + mem + "\r\n\r\n";
  }
  if (want("persistence")) {
    r += "# Persistence\r\nloading:0\r\naof_enabled:1\r\nsync:" +
         std::string(s.config->sync ? "always" : "no") + "\r\n\r\n";
  }
  if (want("stats")) {
    r += "# Stats\r\ntotal_connections_received:" + std::to_string(s.total_connections.load()) +
         "\r\ntotal_commands_processed:" + std::to_string(s.total_commands.load()) +
         "\r\nrejected_connections:" + std::to_string(s.rejected_connections.load()) + "\r\n\r\n";
  }
  if (want("sluice")) {
    std::string json;
    if (!db->GetProperty("sluice.stats-json", &json)) json = "{}";
    for (char& ch : json) {
      if (ch == '\r' || ch == '\n') ch = ' ';
    }
    r += "# Sluice\r\nmemtable:" + s.config->memtable + "\r\nstats_json:" + json + "\r\n\r\n";
  }
  if (want("keyspace")) {
    const uint64_t keys = EstimatedKeyCount(db);  // as DBSIZE
    r += "# Keyspace\r\n";
    if (keys > 0) r += "db0:keys=" + std::to_string(keys) + ",expires=0,avg_ttl=0\r\n";
  }
  if (r.ends_with("\r\n\r\n")) r.resize(r.size() - 2);  // no blank line after the last
  ReplyBulk(c.out, r);
}

void Time(CommandContext& c) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(now).count();
  ReplyArrayHeader(c.out, 2);
  ReplyBulk(c.out, std::to_string(us / 1000000));
  ReplyBulk(c.out, std::to_string(us % 1000000));
}

void Quit(CommandContext& c) {
  c.client->close_after_reply = true;
  ReplyOk(c.out);
}

// SHUTDOWN [NOSAVE|SAVE|NOW|FORCE]: no reply (as Redis); the server stops accepting, finishes
// the commands already running, closes the database cleanly and exits 0.
void Shutdown(CommandContext& c) {
  for (size_t i = 1; i < c.args.size(); ++i) {
    const std::string opt = Lower(c.args[i]);
    if (opt != "nosave" && opt != "save" && opt != "now" && opt != "force") {
      return ReplyError(c.out, "ERR syntax error");
    }
  }
  c.client->close_after_reply = true;
  c.server->request_shutdown();
}

}  // namespace

void AddServerCommands(std::vector<CommandSpec>* t) {
  t->push_back({"ping", -1, Ping});
  t->push_back({"echo", 2, Echo});
  t->push_back({"auth", -2, Auth, /*allowed_before_auth=*/true});
  t->push_back({"hello", -1, Hello, /*allowed_before_auth=*/true});
  t->push_back({"select", 2, Select});
  t->push_back({"client", -2, Client});
  t->push_back({"command", -1, Command});
  t->push_back({"config", -2, Config});
  t->push_back({"info", -1, Info});
  t->push_back({"time", 1, Time});
  t->push_back({"quit", -1, Quit, /*allowed_before_auth=*/true});
  t->push_back({"shutdown", -1, Shutdown});
}

}  // namespace sluice::server
