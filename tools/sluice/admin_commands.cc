// tools/sluice/admin_commands.cc — stats, compact, check and repair: the database as a whole.
//
// check reads the files directly rather than opening the database (opening replays the WAL and
// may write new files): it holds the database's lock while it reads, so nothing changes under
// it, and it reports each damaged file by name.

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/filename.h"
#include "commands.h"
#include "file_inspect.h"
#include "key_range.h"
#include "sluice/env.h"
#include "util/logging.h"

namespace sluice::cli {

namespace {

int RunStats(const GlobalOptions& g, bool json) {
  std::unique_ptr<DB> db;
  ColumnFamilyHandle* family = nullptr;
  if (int rc = OpenDatabase(g, &db, &family); rc != kExitOk) return rc;
  std::string text;
  Output out;
  if (json) {
    db->GetProperty(family, "sluice.stats-json", &text);
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
    std::string flodb;
    if (db->GetProperty(family, "sluice.flodb-stats", &flodb)) j["flodb"] = flodb;
    out.Write(j.dump(2) + "\n");
  } else {
    db->GetProperty(family, "sluice.stats", &text);
    out.Write(text);
    for (const char* extra : {"sluice.flodb-stats", "sluice.memtable-choices"}) {
      if (db->GetProperty(family, extra, &text) && !text.empty())
        out.Write(fmt::format("{}:\n{}", extra + 7, text));
    }
    if (db->GetProperty(family, "sluice.sstables", &text) && !text.empty()) {
      out.Write("Files:\n" + text + (text.back() == '\n' ? "" : "\n"));
    }
  }
  out.Flush();
  if (!out.status().ok()) return Fail(out.status());
  return CloseDatabase(std::move(db));
}

int RunCompact(const GlobalOptions& g, const RangeArgs& args) {
  KeyRange range;
  Status s = ToKeyRange(g, args, &range);
  if (!s.ok()) return Fail(s);
  std::unique_ptr<DB> db;
  ColumnFamilyHandle* family = nullptr;
  if (int rc = OpenDatabase(g, &db, &family); rc != kExitOk) return rc;
  auto files = [&db, family] {
    std::string r, n;
    for (int level = 0;
         db->GetProperty(family, fmt::format("sluice.num-files-at-level{}", level), &n); level++) {
      if (n != "0") r += fmt::format(" L{}:{}", level, n);
    }
    return r.empty() ? std::string(" none") : r;
  };
  const std::string before = files();
  // CompactRange flushes the memory component first.
  const std::string from = range.from.value_or(""), to = range.to.value_or("");
  const Slice begin(from), end(to);
  s = db->CompactRange(family, range.from ? &begin : nullptr, range.to ? &end : nullptr);
  if (!s.ok()) return Fail(s);
  std::printf("files per level before:%s\nfiles per level after: %s\n", before.c_str(),
              files().c_str());
  return CloseDatabase(std::move(db));
}

int RunListColumnFamilies(const GlobalOptions& g) {
  if (int rc = RequireDb(g); rc != kExitOk) return rc;
  if (!Env::Default()->FileExists(g.db + "/CURRENT")) {
    return Fail(fmt::format("{}: no such database", g.db), kExitNoDatabase);
  }
  std::vector<std::string> names;
  Status s = DB::ListColumnFamilies(DBOptions(), g.db, &names);
  if (!s.ok()) return Fail(s);
  Output out;
  for (const std::string& name : names) out.Write(name + "\n");
  out.Flush();
  return out.status().ok() ? kExitOk : Fail(out.status());
}

int RunCreateColumnFamily(const GlobalOptions& g, const std::string& name) {
  std::unique_ptr<DB> db;
  ColumnFamilyHandle* family = nullptr;
  if (int rc = OpenDatabase(g, &db, &family); rc != kExitOk) return rc;
  ColumnFamilyOptions options;
  options.memtable = g.memtable;
  ColumnFamilyHandle* created = nullptr;
  Status s = db->CreateColumnFamily(options, name, &created);
  if (!s.ok()) return Fail(s);
  return CloseDatabase(std::move(db));
}

int RunDropColumnFamily(const GlobalOptions& g, const std::string& name) {
  GlobalOptions with_family = g;  // open with it named, to get its handle
  with_family.column_family = name;
  with_family.create_if_missing = false;
  std::unique_ptr<DB> db;
  ColumnFamilyHandle* family = nullptr;
  if (int rc = OpenDatabase(with_family, &db, &family); rc != kExitOk) return rc;
  Status s = db->DropColumnFamily(family);
  if (!s.ok()) return Fail(s);
  return CloseDatabase(std::move(db));
}

// One line of check's report.
void Report(const char* verdict, const std::string& file, const std::string& detail) {
  std::printf("%-8s %-16s %s\n", verdict, file.c_str(), detail.c_str());
}

int RunCheck(const GlobalOptions& g) {
  if (int rc = RequireDb(g); rc != kExitOk) return rc;
  Env* env = Env::Default();
  if (!env->FileExists(CurrentFileName(g.db))) {
    return Fail(fmt::format("{}: no sluice database (no CURRENT file)", g.db), kExitNoDatabase);
  }
  std::unique_ptr<FileLock> lock;
  Status s = env->LockFile(LockFileName(g.db), &lock);
  if (!s.ok()) return Fail(s);
  int corrupt = 0, checked = 0;

  // The MANIFEST: every edit decodes; the files of the final version exist with their sizes.
  std::string manifest;
  LiveFiles live;
  std::vector<LogProblem> problems;
  s = ReadCurrentFile(env, g.db, &manifest);
  if (s.ok()) s = ReplayManifest(manifest, nullptr, &live, &problems);
  const std::string manifest_name = manifest.empty() ? "CURRENT" : manifest.substr(g.db.size() + 1);
  checked++;
  if (!s.ok() || std::any_of(problems.begin(), problems.end(),
                             [](const LogProblem& p) { return p.IsCorruption(); })) {
    corrupt++;
    Report("CORRUPT", manifest_name, s.ok() ? problems.front().message : s.ToString());
  } else {
    Report("OK", manifest_name, fmt::format("{} live files", live.size()));
  }

  std::vector<std::string> children;
  s = env->GetChildren(g.db, &children);
  if (!s.ok()) return Fail(s);
  std::sort(children.begin(), children.end());
  for (const auto& [number, level_and_file] : live) {
    const std::string name = TableFileName(g.db, number).substr(g.db.size() + 1);
    if (std::find(children.begin(), children.end(), name) == children.end()) {
      corrupt++;
      Report("MISSING", name,
             fmt::format("named by {} at level {}", manifest_name, level_and_file.first));
    }
  }
  for (const std::string& name : children) {
    uint64_t number = 0;
    FileType type;
    if (!ParseFileName(name, &number, &type)) continue;
    const std::string path = g.db + "/" + name;
    if (type == FileType::kTable) {
      checked++;
      std::unique_ptr<Table> table;
      s = OpenTableFile(path, &table);
      if (s.ok()) s = table->VerifyChecksums();
      auto it = live.find(number);
      uint64_t size = 0;
      if (s.ok() && it != live.end() && env->GetFileSize(path, &size).ok() &&
          size != it->second.second.file_size) {
        s = Status::Corruption(
            fmt::format("{} bytes, the MANIFEST says {}", size, it->second.second.file_size), path);
      }
      if (!s.ok()) {
        corrupt++;
        Report("CORRUPT", name, s.ToString());
      } else {
        Report("OK", name,
               fmt::format("{} entries, {} blocks{}", table->properties().num_entries,
                           table->properties().num_data_blocks,
                           it == live.end() ? " (not live: left over, deleted at next open)"
                                            : fmt::format(", level {}", it->second.first)));
      }
    } else if (type == FileType::kLog) {
      checked++;
      problems.clear();
      uint64_t records = 0;
      s = ReadLogFile(
          path, [&records](const Slice&, uint64_t) { return records++, Status::OK(); }, &problems);
      auto bad = std::find_if(problems.begin(), problems.end(),
                              [](const LogProblem& p) { return p.IsCorruption(); });
      if (!s.ok() || bad != problems.end()) {
        corrupt++;
        Report("CORRUPT", name, s.ok() ? bad->message : s.ToString());
      } else {
        Report("OK", name,
               fmt::format("{} records{}", records,
                           problems.empty() ? ""
                                            : "; torn tail (a crash cut the last "
                                              "write; recovery drops it)"));
      }
    }
  }
  env->UnlockFile(std::move(lock));
  std::printf("checked %d files: %d damaged\n", checked, corrupt);
  std::fflush(stdout);
  return corrupt > 0 ? Fail(fmt::format("{} damaged file(s) in {}", corrupt, g.db), kExitCorruption)
                     : kExitOk;
}

int RunRepair(const GlobalOptions& g) {
  if (int rc = RequireDb(g); rc != kExitOk) return rc;
  Env* env = Env::Default();
  if (!env->FileExists(g.db)) {
    return Fail(fmt::format("{}: no such directory", g.db), kExitNoDatabase);
  }
  Options options;
  options.memtable = g.memtable;
  Status s = RepairDB(g.db, options);
  if (!s.ok()) return Fail(s);
  std::printf("repaired %s", g.db.c_str());
  std::vector<std::string> lost;
  if (env->GetChildren(g.db + "/lost", &lost).ok() && !lost.empty()) {
    std::printf("; unreadable files moved to %s/lost/", g.db.c_str());
  }
  std::printf("\n");
  return kExitOk;
}

}  // namespace

void AddAdminCommands(CLI::App* app, const GlobalOptions* g, int* exit_code) {
  auto json = std::make_shared<bool>(false);
  auto* stats = app->add_subcommand(
      "stats", "Levels, files, sizes, memory component statistics and write amplification");
  stats->add_flag("--json", *json,
                  "One JSON object (the fields of the sluice.stats-json property)");
  stats->callback([g, exit_code, json] { *exit_code = RunStats(*g, *json); });

  auto range = std::make_shared<RangeArgs>();
  auto* compact = app->add_subcommand(
      "compact", "Flush, then compact a key range (default: everything) to the last level");
  compact->add_option("--from", range->from, "First key (inclusive)");
  compact->add_option("--to", range->to, "Last key (inclusive)");
  compact->callback([g, exit_code, range] { *exit_code = RunCompact(*g, *range); });

  auto* check = app->add_subcommand(
      "check", "Verify every checksum of every file (MANIFEST, SSTs, WALs); report damage by file");
  check->callback([g, exit_code] { *exit_code = RunCheck(*g); });

  auto* repair = app->add_subcommand(
      "repair",
      "Rebuild the MANIFEST from the readable files and replay the WALs (data in "
      "unreadable files is lost; they are moved to lost/)");
  repair->callback([g, exit_code] { *exit_code = RunRepair(*g); });

  auto* list = app->add_subcommand("list-column-families",
                                   "Print the names of the column families, one per line");
  list->callback([g, exit_code] { *exit_code = RunListColumnFamilies(*g); });

  auto family_name = std::make_shared<std::string>();
  auto* create = app->add_subcommand(
      "create-column-family", "Create column family NAME (its memory component: --memtable)");
  create->add_option("NAME", *family_name, "The new family's name")->required();
  create->callback(
      [g, exit_code, family_name] { *exit_code = RunCreateColumnFamily(*g, *family_name); });
  auto* drop =
      app->add_subcommand("drop-column-family", "Drop column family NAME and delete its data");
  drop->add_option("NAME", *family_name, "The family to drop")->required();
  drop->callback(
      [g, exit_code, family_name] { *exit_code = RunDropColumnFamily(*g, *family_name); });
}

}  // namespace sluice::cli
