// tools/sluice_server/string_commands.cc — the string commands: GET, SET (NX, XX, GET), SETNX,
// GETSET, MGET, MSET, DEL, EXISTS, INCR, INCRBY, DECR, DECRBY, APPEND, STRLEN.
//
// Every command that reads a value and writes one from it runs on the engine's atomic,
// lock-free DB::ReadModifyWrite, so it is linearizable with every other command: INCR never
// loses an increment, APPEND never loses an append. A ModifyFunction may run more than once
// (on a conflict); the flags it sets are overwritten by each run, so they describe the run
// whose result was installed. Integers are stored as Redis stores them: decimal strings.

#include <optional>
#include <string>
#include <vector>

#include "command_table.h"
#include "reply.h"

namespace sluice::server {
namespace {

const char kNotInteger[] = "ERR value is not an integer or out of range";
const char kSyntax[] = "ERR syntax error";

void Get(CommandContext& c) {
  std::string value;
  Status s = c.server->db->Get(ReadOptions(), c.args[1], &value);
  if (s.IsNotFound()) return ReplyNull(c.out, c.client->protocol);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyBulk(c.out, value);
}

// SET key value [NX|XX] [GET] [KEEPTTL]; EX/PX/EXAT/PXAT are refused (no expiry in sluice).
void Set(CommandContext& c) {
  bool nx = false, xx = false, get = false;
  for (size_t i = 3; i < c.args.size(); ++i) {
    const std::string opt = Lower(c.args[i]);
    if (opt == "nx")
      nx = true;
    else if (opt == "xx")
      xx = true;
    else if (opt == "get")
      get = true;
    else if (opt == "keepttl")
      continue;
    else if (opt == "ex" || opt == "px" || opt == "exat" || opt == "pxat") {
      return ReplyError(c.out, "ERR expiry is not supported by sluice-server");
    } else {
      return ReplyError(c.out, kSyntax);
    }
  }
  if (nx && xx) return ReplyError(c.out, kSyntax);
  DB* db = c.server->db;
  const std::string& key = c.args[1];
  const std::string& value = c.args[2];
  Status s;
  if (!get && !xx) {
    if (!nx) {
      s = db->Put(c.server->write_options, key, value);
      if (!s.ok()) return ReplyStatusError(c.out, s);
      return ReplyOk(c.out);
    }
    bool inserted = false;
    s = db->PutIfAbsent(c.server->write_options, key, value, &inserted);
    if (!s.ok()) return ReplyStatusError(c.out, s);
    return inserted ? ReplyOk(c.out) : ReplyNull(c.out, c.client->protocol);
  }
  // XX, or GET: the old value decides, atomically.
  bool existed = false;
  std::string old;
  s = db->ReadModifyWrite(
      c.server->write_options, key,
      [&](const std::string* cur) -> std::optional<std::string> {
        existed = cur != nullptr;
        if (existed && get) old = *cur;
        if ((nx && existed) || (xx && !existed)) {
          // Unchanged (writing back the same value keeps the call atomic).
          return existed ? std::optional<std::string>(*cur) : std::nullopt;
        }
        return value;
      },
      nullptr);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  if (get) return existed ? ReplyBulk(c.out, old) : ReplyNull(c.out, c.client->protocol);
  const bool written = !((nx && existed) || (xx && !existed));
  written ? ReplyOk(c.out) : ReplyNull(c.out, c.client->protocol);
}

void SetNx(CommandContext& c) {
  bool inserted = false;
  Status s = c.server->db->PutIfAbsent(c.server->write_options, c.args[1], c.args[2], &inserted);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyInteger(c.out, inserted ? 1 : 0);
}

void GetSet(CommandContext& c) {
  bool existed = false;
  std::string old;
  const std::string& value = c.args[2];
  Status s = c.server->db->ReadModifyWrite(
      c.server->write_options, c.args[1],
      [&](const std::string* cur) -> std::optional<std::string> {
        existed = cur != nullptr;
        if (existed) old = *cur;
        return value;
      },
      nullptr);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  existed ? ReplyBulk(c.out, old) : ReplyNull(c.out, c.client->protocol);
}

// nil for a missing key; every value from one consistent state (one DB::MultiGet). A key the
// engine cannot read (Corruption, IOError) makes the whole reply that error rather than a nil
// that would pass for a missing key.
void MGet(CommandContext& c) {
  const std::vector<Slice> keys(c.args.begin() + 1, c.args.end());
  std::vector<std::string> values;
  const std::vector<Status> statuses = c.server->db->MultiGet(ReadOptions(), keys, &values);
  for (const Status& s : statuses) {
    if (!s.ok() && !s.IsNotFound()) return ReplyStatusError(c.out, s);
  }
  ReplyArrayHeader(c.out, keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    statuses[i].ok() ? ReplyBulk(c.out, values[i]) : ReplyNull(c.out, c.client->protocol);
  }
}

// Atomic: every pair becomes visible together (one WriteBatch).
void MSet(CommandContext& c) {
  if (c.args.size() % 2 != 1) {
    return ReplyError(c.out, "ERR wrong number of arguments for 'mset' command");
  }
  WriteBatch batch;
  for (size_t i = 1; i + 1 < c.args.size(); i += 2) batch.Put(c.args[i], c.args[i + 1]);
  Status s = c.server->db->Write(c.server->write_options, &batch);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyOk(c.out);
}

void Del(CommandContext& c) {
  int64_t deleted = 0;
  for (size_t i = 1; i < c.args.size(); ++i) {
    bool existed = false;
    Status s = c.server->db->ReadModifyWrite(
        c.server->write_options, c.args[i],
        [&](const std::string* cur) -> std::optional<std::string> {
          existed = cur != nullptr;
          return std::nullopt;
        },
        nullptr);
    if (!s.ok()) return ReplyStatusError(c.out, s);
    if (existed) ++deleted;
  }
  ReplyInteger(c.out, deleted);
}

void Exists(CommandContext& c) {
  int64_t found = 0;
  std::string value;
  for (size_t i = 1; i < c.args.size(); ++i) {
    Status s = c.server->db->Get(ReadOptions(), c.args[i], &value);
    if (s.ok())
      ++found;
    else if (!s.IsNotFound())
      return ReplyStatusError(c.out, s);
  }
  ReplyInteger(c.out, found);
}

// INCR, INCRBY, DECR, DECRBY: the value (missing counts as 0) plus delta, as a decimal string.
void IncrementBy(CommandContext& c, int64_t delta) {
  bool bad = false;
  int64_t result = 0;
  Status s = c.server->db->ReadModifyWrite(
      c.server->write_options, c.args[1],
      [&](const std::string* cur) -> std::optional<std::string> {
        bad = false;
        int64_t v = 0;
        if (cur != nullptr && !ParseRedisInt(*cur, &v)) bad = true;
        if (!bad && __builtin_add_overflow(v, delta, &result)) bad = true;
        if (bad) return cur ? std::optional<std::string>(*cur) : std::nullopt;  // unchanged
        return std::to_string(result);
      },
      nullptr);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  if (bad) return ReplyError(c.out, kNotInteger);
  ReplyInteger(c.out, result);
}

void Incr(CommandContext& c) { IncrementBy(c, 1); }
void Decr(CommandContext& c) { IncrementBy(c, -1); }

void IncrBy(CommandContext& c) {
  int64_t delta;
  if (!ParseRedisInt(c.args[2], &delta)) return ReplyError(c.out, kNotInteger);
  IncrementBy(c, delta);
}

void DecrBy(CommandContext& c) {
  int64_t delta;
  if (!ParseRedisInt(c.args[2], &delta) || delta == INT64_MIN) {
    return ReplyError(c.out, kNotInteger);
  }
  IncrementBy(c, -delta);
}

void Append(CommandContext& c) {
  const std::string& suffix = c.args[2];
  std::string result;
  Status s = c.server->db->ReadModifyWrite(
      c.server->write_options, c.args[1],
      [&](const std::string* cur) -> std::optional<std::string> {
        return cur ? *cur + suffix : suffix;
      },
      &result);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyInteger(c.out, static_cast<int64_t>(result.size()));
}

void StrLen(CommandContext& c) {
  std::string value;
  Status s = c.server->db->Get(ReadOptions(), c.args[1], &value);
  if (s.IsNotFound()) return ReplyInteger(c.out, 0);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyInteger(c.out, static_cast<int64_t>(value.size()));
}

}  // namespace

void AddStringCommands(std::vector<CommandSpec>* t) {
  t->push_back({"get", 2, Get});
  t->push_back({"set", -3, Set, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"setnx", 3, SetNx, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"getset", 3, GetSet, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"mget", -2, MGet});
  t->push_back({"mset", -3, MSet, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"del", -2, Del, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"unlink", -2, Del, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"exists", -2, Exists});
  t->push_back({"incr", 2, Incr, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"decr", 2, Decr, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"incrby", 3, IncrBy, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"decrby", 3, DecrBy, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"append", 3, Append, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"strlen", 2, StrLen});
}

}  // namespace sluice::server
