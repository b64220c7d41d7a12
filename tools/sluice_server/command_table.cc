// tools/sluice_server/command_table.cc — command lookup, arity and authentication checks, and
// the helpers shared by the command groups (command_table.h).

#include "command_table.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "reply.h"

namespace sluice::server {

uint64_t ScanCursors::Save(std::string key) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t id = next_++;
  bytes_ += key.size();
  cursors_.emplace(id, std::move(key));
  while (cursors_.size() > kMaxCursors || (bytes_ > kMaxBytes && cursors_.size() > 1)) {
    auto oldest = cursors_.begin();
    bytes_ -= oldest->second.size();
    cursors_.erase(oldest);
  }
  return id;
}

bool ScanCursors::Find(uint64_t cursor, std::string* key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = cursors_.find(cursor);
  if (it == cursors_.end()) return false;
  *key = it->second;
  return true;
}

bool ParseRedisInt(std::string_view s, int64_t* out) {
  if (s.empty() || s.size() > 20) return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (ec != std::errc() || p != s.data() + s.size()) return false;
  // Canonical form only, as Redis's string2ll: "01", "-0" and "+1" are not integers.
  return std::to_string(*out) == s;
}

uint64_t EstimatedKeyCount(DB* db) {
  std::string v;
  return db->GetProperty("sluice.estimate-num-keys", &v) ? std::stoull(v) : 0;
}

void ReplyStatusError(std::string* out, const Status& s) { ReplyError(out, "ERR " + s.ToString()); }

const std::vector<CommandSpec>& AllCommands() {
  static const std::vector<CommandSpec> table = [] {
    std::vector<CommandSpec> t;
    AddStringCommands(&t);
    AddKeyspaceCommands(&t);
    AddServerCommands(&t);
    std::sort(t.begin(), t.end(), [](const CommandSpec& a, const CommandSpec& b) {
      return std::string_view(a.name) < std::string_view(b.name);
    });
    return t;
  }();
  return table;
}

namespace {

const CommandSpec* Lookup(const std::string& lower_name) {
  static const std::unordered_map<std::string, const CommandSpec*> index = [] {
    std::unordered_map<std::string, const CommandSpec*> m;
    for (const CommandSpec& c : AllCommands()) m.emplace(c.name, &c);
    return m;
  }();
  auto it = index.find(lower_name);
  return it == index.end() ? nullptr : it->second;
}

// Redis's "-ERR unknown command 'foo', with args beginning with: 'a' 'b' ".
void ReplyUnknown(const std::vector<std::string>& args, std::string* out) {
  std::string msg =
      "ERR unknown command '" + args[0].substr(0, 128) + "', with args beginning with: ";
  for (size_t i = 1; i < args.size() && msg.size() < 512; ++i) {
    msg += "'" + args[i].substr(0, 128) + "' ";
  }
  ReplyError(out, msg);
}

}  // namespace

const CommandSpec* FindCommand(std::string_view name) { return Lookup(Lower(name)); }

void ExecuteCommand(ServerState* server, ClientState* client, const CommandSpec* spec,
                    std::vector<std::string>& args, std::string* out) {
  server->total_commands.fetch_add(1, std::memory_order_relaxed);
  const bool needs_auth = !server->config->requirepass.empty() && !client->authenticated;
  if (needs_auth && (spec == nullptr || !spec->allowed_before_auth)) {
    ReplyError(out, "NOAUTH Authentication required.");
    return;
  }
  if (spec == nullptr) {
    ReplyUnknown(args, out);
    return;
  }
  const int n = static_cast<int>(std::min<size_t>(args.size(), 1 << 30));
  if ((spec->arity > 0 && n != spec->arity) || (spec->arity < 0 && n < -spec->arity)) {
    ReplyError(out, "ERR wrong number of arguments for '" + std::string(spec->name) + "' command");
    return;
  }
  CommandContext ctx{server, client, args, out};
  spec->fn(ctx);
}

}  // namespace sluice::server
