// tools/sluice/data_commands.cc — put, get, multi-get, delete, delete-range and scan: keys and
// ranges.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "key_range.h"
#include "text_codec.h"

namespace sluice::cli {

namespace {

WriteOptions WriteOptionsFor(const GlobalOptions& g) {
  WriteOptions w;
  w.sync = g.sync;
  return w;
}

// Reads all of standard input (put's value when none is given on the command line).
std::string ReadStdin() {
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

}  // namespace

void AddDataCommands(CLI::App* app, const GlobalOptions* g, int* exit_code) {
  // --- put KEY [VALUE] ---
  struct PutArgs {
    std::string key;
    std::optional<std::string> value;
  };
  auto put_args = std::make_shared<PutArgs>();
  auto* put = app->add_subcommand("put", "Set KEY to VALUE (VALUE omitted: read it from stdin)");
  put->add_option("KEY", put_args->key, "The key")->required();
  put->add_option("VALUE", put_args->value, "The value (with --hex: in hex)");
  put->callback([g, exit_code, a = put_args] {
    std::string key, value;
    Status s = ParseArgument(*g, "key", a->key, &key);
    if (s.ok() && a->value) {
      s = ParseArgument(*g, "value", *a->value, &value);
    } else if (s.ok()) {
      value = ReadStdin();
      // A hex value typed or echoed on stdin ends with a newline that is not part of it.
      if (g->hex)
        s = ParseArgument(*g, "value", value.substr(0, value.find_last_not_of("\r\n") + 1), &value);
    }
    if (!s.ok()) return void(*exit_code = Fail(s));
    std::unique_ptr<DB> db;
    ColumnFamilyHandle* family = nullptr;
    if ((*exit_code = OpenDatabase(*g, &db, &family)) != kExitOk) return;
    s = db->Put(WriteOptionsFor(*g), family, key, value);
    if (!s.ok()) return void(*exit_code = Fail(s));
    *exit_code = CloseDatabase(std::move(db));
  });

  // --- get KEY ---
  struct GetArgs {
    std::string key;
    bool raw = false;
  };
  auto get_args = std::make_shared<GetArgs>();
  auto* get = app->add_subcommand(
      "get", "Print the value of KEY and a newline (exit code 1 if KEY has no value)");
  get->add_option("KEY", get_args->key, "The key")->required();
  get->add_flag("--raw", get_args->raw,
                "Print the value's bytes exactly, with no newline after them");
  get->callback([g, exit_code, a = get_args] {
    std::string key, value;
    Status s = ParseArgument(*g, "key", a->key, &key);
    if (!s.ok()) return void(*exit_code = Fail(s));
    std::unique_ptr<DB> db;
    ColumnFamilyHandle* family = nullptr;
    if ((*exit_code = OpenDatabase(*g, &db, &family)) != kExitOk) return;
    s = db->Get(ReadOptions(), family, key, &value);
    if (s.IsNotFound()) {
      *exit_code = Fail(fmt::format("key '{}' not found", Show(key, g->hex)), kExitNotFound);
      return;
    }
    if (!s.ok()) return void(*exit_code = Fail(s));
    Output out;
    out.Write(g->hex ? HexEncode(value) : value);
    if (!a->raw) out.Write("\n");
    out.Flush();
    if (!out.status().ok()) return void(*exit_code = Fail(out.status()));
    *exit_code = CloseDatabase(std::move(db));
  });

  // --- multi-get KEY... ---
  struct MultiGetArgs {
    std::vector<std::string> keys;
    std::string format = "tsv";
  };
  auto multi_args = std::make_shared<MultiGetArgs>();
  auto* multi = app->add_subcommand(
      "multi-get",
      "Print KEY<TAB>VALUE (or JSON) for each KEY that has a value, in the order given, all "
      "read from one consistent state (exit code 1 if any KEY has none)");
  multi->add_option("KEY", multi_args->keys, "The keys")->required();
  multi
      ->add_option("--format", multi_args->format,
                   "Output format (tsv: KEY<TAB>VALUE escaped as in docs/cli.md; json: one JSON "
                   "object per line), what load reads back")
      ->check(CLI::IsMember({"tsv", "json"}));
  multi->callback([g, exit_code, a = multi_args] {
    std::vector<std::string> keys(a->keys.size());
    for (size_t i = 0; i < keys.size(); i++) {
      Status s = ParseArgument(*g, "key", a->keys[i], &keys[i]);
      if (!s.ok()) return void(*exit_code = Fail(s));
    }
    std::unique_ptr<DB> db;
    ColumnFamilyHandle* family = nullptr;
    if ((*exit_code = OpenDatabase(*g, &db, &family)) != kExitOk) return;
    const std::vector<Slice> slices(keys.begin(), keys.end());
    std::vector<std::string> values;
    const std::vector<Status> statuses = db->MultiGet(
        ReadOptions(), std::vector<ColumnFamilyHandle*>(slices.size(), family), slices, &values);
    for (const Status& s : statuses) {
      if (!s.ok() && !s.IsNotFound()) return void(*exit_code = Fail(s));
    }
    Output out;
    std::vector<std::string> missing;
    for (size_t i = 0; i < keys.size(); i++) {
      if (statuses[i].ok()) {
        out.Write(FormatEntry(keys[i], values[i], g->hex, a->format == "json"));
      } else {
        missing.push_back("'" + Show(keys[i], g->hex) + "'");
      }
    }
    out.Flush();
    if (!out.status().ok()) return void(*exit_code = Fail(out.status()));
    *exit_code = CloseDatabase(std::move(db));
    if (*exit_code == kExitOk && !missing.empty()) {
      *exit_code = Fail(fmt::format("{} of {} keys not found: {}", missing.size(), keys.size(),
                                    fmt::join(missing, ", ")),
                        kExitNotFound);
    }
  });

  // --- delete KEY ---
  auto del_key = std::make_shared<std::string>();
  auto* del = app->add_subcommand("delete", "Delete KEY (deleting a missing key is no error)");
  del->add_option("KEY", *del_key, "The key")->required();
  del->callback([g, exit_code, del_key] {
    std::string key;
    Status s = ParseArgument(*g, "key", *del_key, &key);
    if (!s.ok()) return void(*exit_code = Fail(s));
    std::unique_ptr<DB> db;
    ColumnFamilyHandle* family = nullptr;
    if ((*exit_code = OpenDatabase(*g, &db, &family)) != kExitOk) return;
    s = db->Delete(WriteOptionsFor(*g), family, key);
    if (!s.ok()) return void(*exit_code = Fail(s));
    *exit_code = CloseDatabase(std::move(db));
  });

  // --- delete-range BEGIN END ---
  auto range_keys = std::make_shared<std::pair<std::string, std::string>>();
  auto* delete_range = app->add_subcommand(
      "delete-range", "Delete every key k with BEGIN <= k < END, with one range tombstone");
  delete_range->add_option("BEGIN", range_keys->first, "The first key deleted")->required();
  delete_range->add_option("END", range_keys->second, "The first key kept (exclusive end)")
      ->required();
  delete_range->callback([g, exit_code, range_keys] {
    std::string begin, end;
    Status s = ParseArgument(*g, "BEGIN", range_keys->first, &begin);
    if (s.ok()) s = ParseArgument(*g, "END", range_keys->second, &end);
    if (!s.ok()) return void(*exit_code = Fail(s));
    std::unique_ptr<DB> db;
    ColumnFamilyHandle* family = nullptr;
    if ((*exit_code = OpenDatabase(*g, &db, &family)) != kExitOk) return;
    s = db->DeleteRange(WriteOptionsFor(*g), family, begin, end);
    if (!s.ok()) return void(*exit_code = Fail(s));
    *exit_code = CloseDatabase(std::move(db));
  });

  // --- scan ---
  struct ScanArgs {
    RangeArgs range;
    std::string format = "tsv";
    uint64_t limit = 0;
    bool reverse = false, keys_only = false;
  };
  auto scan_args = std::make_shared<ScanArgs>();
  auto* scan = app->add_subcommand(
      "scan", "Print the entries of a key range, one per line: KEY<TAB>VALUE (escaped) or JSON");
  AddRangeOptions(scan, &scan_args->range);
  scan->add_option("--limit", scan_args->limit, "At most this many entries (0: all)");
  scan->add_flag("--reverse", scan_args->reverse, "From the last key of the range backwards");
  scan->add_flag("--keys-only", scan_args->keys_only, "Print keys only");
  scan->add_option("--format", scan_args->format,
                   "Output format (tsv: KEY<TAB>VALUE escaped "
                   "as in docs/cli.md; json: one JSON object per line)")
      ->check(CLI::IsMember({"tsv", "json"}));
  scan->callback([g, exit_code, a = scan_args] {
    KeyRange range;
    Status s = ToKeyRange(*g, a->range, &range);
    if (!s.ok()) return void(*exit_code = Fail(s));
    range.limit = a->limit;
    range.reverse = a->reverse;
    std::unique_ptr<DB> db;
    ColumnFamilyHandle* family = nullptr;
    if ((*exit_code = OpenDatabase(*g, &db, &family)) != kExitOk) return;
    Output out;
    const bool json = a->format == "json";
    s = WalkRange(db.get(), family, range, [&](const Slice& k, const Slice& v) {
      return out.Write(
          FormatEntry(k.ToStringView(), v.ToStringView(), g->hex, json, !a->keys_only));
    });
    out.Flush();
    if (!s.ok()) return void(*exit_code = Fail(s));
    if (!out.status().ok()) return void(*exit_code = Fail(out.status()));
    *exit_code = CloseDatabase(std::move(db));
  });
}

}  // namespace sluice::cli
