// tools/sluice_server/keyspace_commands.cc — commands over the whole keyspace: SCAN, KEYS,
// DBSIZE, TYPE, FLUSHALL, FLUSHDB.
//
// sluice keeps keys in order, so SCAN walks them in key order with bounded DB::Scan calls and
// its cursor names the last key returned (a number kept in ScanCursors, since clients parse
// cursors as numbers). A key present for the whole scan is returned exactly once; keys added or
// removed meanwhile may or may not be, as in Redis. A MATCH pattern with a literal prefix
// ("user:*") reads only that prefix's range.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_table.h"
#include "glob.h"
#include "reply.h"

namespace sluice::server {
namespace {

constexpr int64_t kMaxScanCount = 100000;

// The bytes every key matching `pattern` starts with (up to its first special character).
std::string LiteralPrefix(const std::string& pattern) {
  std::string prefix;
  for (char ch : pattern) {
    if (ch == '*' || ch == '?' || ch == '[' || ch == '\\') break;
    prefix.push_back(ch);
  }
  return prefix;
}

// SCAN cursor [MATCH pattern] [COUNT n] [TYPE type]
void Scan(CommandContext& c) {
  std::string start;
  if (c.args[1] != "0") {
    uint64_t cursor = 0;
    int64_t v;
    if (!ParseRedisInt(c.args[1], &v) || v < 0) return ReplyError(c.out, "ERR invalid cursor");
    cursor = static_cast<uint64_t>(v);
    if (!c.server->cursors.Find(cursor, &start)) {
      return ReplyError(c.out, "ERR invalid cursor (unknown or expired; start again from 0)");
    }
    start.push_back('\0');  // the smallest key after the last one returned
  }
  std::string pattern;
  bool has_pattern = false, only_none = false;
  int64_t count = 10;
  for (size_t i = 2; i < c.args.size(); i += 2) {
    const std::string opt = Lower(c.args[i]);
    if (i + 1 >= c.args.size()) return ReplyError(c.out, "ERR syntax error");
    if (opt == "match") {
      pattern = c.args[i + 1];
      has_pattern = pattern != "*";
    } else if (opt == "count") {
      if (!ParseRedisInt(c.args[i + 1], &count)) {
        return ReplyError(c.out, "ERR value is not an integer or out of range");
      }
      if (count < 1) return ReplyError(c.out, "ERR syntax error");
      if (count > kMaxScanCount) count = kMaxScanCount;
    } else if (opt == "type") {
      only_none = Lower(c.args[i + 1]) != "string";  // every sluice value is a string
    } else {
      return ReplyError(c.out, "ERR syntax error");
    }
  }
  std::string end;
  if (has_pattern) {
    const std::string prefix = LiteralPrefix(pattern);
    if (start < prefix) start = prefix;
    end = PrefixSuccessor(prefix).value_or("");  // "": no end
  }
  std::vector<std::pair<std::string, std::string>> batch;
  Status s = c.server->db->Scan(ReadOptions(), start, end, static_cast<size_t>(count), &batch);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  uint64_t next = 0;
  if (static_cast<int64_t>(batch.size()) == count)
    next = c.server->cursors.Save(batch.back().first);
  ReplyArrayHeader(c.out, 2);
  ReplyBulk(c.out, std::to_string(next));
  std::vector<const std::string*> keys;
  for (const auto& kv : batch) {
    if (only_none) break;
    if (!has_pattern || GlobMatch(pattern, kv.first)) keys.push_back(&kv.first);
  }
  ReplyArrayHeader(c.out, keys.size());
  for (const std::string* k : keys) ReplyBulk(c.out, *k);
}

// KEYS pattern: every matching key, read from one consistent iterator.
void Keys(CommandContext& c) {
  const std::string& pattern = c.args[1];
  std::optional<std::string> lower, upper;
  NarrowToPrefix(LiteralPrefix(pattern), &lower, &upper);
  Slice lower_slice, upper_slice;
  ReadOptions options;
  if (lower) options.iterate_lower_bound = &(lower_slice = *lower);
  if (upper) options.iterate_upper_bound = &(upper_slice = *upper);
  std::vector<std::string> keys;
  std::unique_ptr<Iterator> it = c.server->db->NewIterator(options);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string_view k = it->key().ToStringView();
    if (GlobMatch(pattern, k)) keys.emplace_back(k);
  }
  Status s = it->status();
  it.reset();
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyArrayHeader(c.out, keys.size());
  for (const std::string& k : keys) ReplyBulk(c.out, k);
}

// DBSIZE: an estimate (EstimatedKeyCount), as docs/server.md says; SCAN counts exactly.
void DbSize(CommandContext& c) {
  ReplyInteger(c.out, static_cast<int64_t>(EstimatedKeyCount(c.server->db)));
}

void Type(CommandContext& c) {
  std::string value;
  Status s = c.server->db->Get(ReadOptions(), c.args[1], &value);
  if (s.IsNotFound()) return ReplySimple(c.out, "none");
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplySimple(c.out, "string");
}

// FLUSHALL / FLUSHDB [ASYNC|SYNC]: deletes every key in key order, 1000 per atomic batch, then
// compacts the tombstones away. Not atomic as a whole: a key written concurrently may survive.
void FlushAll(CommandContext& c) {
  if (c.args.size() > 2) return ReplyError(c.out, "ERR syntax error");
  if (c.args.size() == 2) {
    const std::string mode = Lower(c.args[1]);
    if (mode != "async" && mode != "sync") return ReplyError(c.out, "ERR syntax error");
  }
  DB* db = c.server->db;
  // Keys only: an iterator, not DB::Scan, so no value is copied.
  std::unique_ptr<Iterator> it = db->NewIterator(ReadOptions());
  WriteBatch batch;
  auto write = [&] {
    Status w = batch.Count() > 0 ? db->Write(c.server->write_options, &batch) : Status::OK();
    batch.Clear();
    return w;
  };
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    batch.Delete(it->key());
    if (batch.Count() >= 1000) {
      if (Status w = write(); !w.ok()) return ReplyStatusError(c.out, w);
    }
  }
  Status iter_status = it->status();
  it.reset();
  if (!iter_status.ok()) return ReplyStatusError(c.out, iter_status);
  if (Status w = write(); !w.ok()) return ReplyStatusError(c.out, w);
  Status s = db->CompactRange(nullptr, nullptr);
  if (!s.ok()) return ReplyStatusError(c.out, s);
  ReplyOk(c.out);
}

}  // namespace

void AddKeyspaceCommands(std::vector<CommandSpec>* t) {
  t->push_back({"scan", -2, Scan});
  t->push_back({"keys", 2, Keys});
  t->push_back({"dbsize", 1, DbSize});
  t->push_back({"type", 2, Type});
  t->push_back({"flushall", -1, FlushAll, /*allowed_before_auth=*/false, /*writes=*/true});
  t->push_back({"flushdb", -1, FlushAll, /*allowed_before_auth=*/false, /*writes=*/true});
}

}  // namespace sluice::server
