// tools/sluice/load_dump.cc — load and dump: moving a whole database (or a range of it) to and
// from tab-separated or JSON-lines text.
//
// dump writes what one iterator sees, so the file is one consistent state of the database.
// load applies the file in write batches of up to kBatchEntries entries; it stops at the first
// line it cannot read, naming the file and line, with every line before it loaded (they are
// acknowledged writes: the database is closed, and so synced, before the error is reported).

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.h"
#include "key_range.h"
#include "text_codec.h"

namespace sluice::cli {

namespace {

constexpr size_t kBatchEntries = 1000;
constexpr size_t kBatchBytes = 4 << 20;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// --format, or else the file's extension (.jsonl / .json: JSON lines), or else tsv.
bool IsJson(const std::string& format, const std::string& file) {
  if (!format.empty()) return format == "json";
  return EndsWith(file, ".jsonl") || EndsWith(file, ".json");
}

// load without --format from a file with neither extension (stdin, say): JSON lines if the
// first line is a JSON object with a key field (what dump --format json writes), else tsv.
bool LooksLikeJsonLine(const std::string& line) {
  std::string key, value;
  return !line.empty() && line.front() == '{' && ParseJsonLine(line, &key, &value).ok();
}

struct LoadArgs {
  std::string file;
  std::string format;
};

int RunLoad(const GlobalOptions& g, const LoadArgs& a) {
  const bool from_stdin = a.file == "-";
  std::ifstream in;
  uint64_t total = 0;
  if (!from_stdin) {
    in.open(a.file, std::ios::binary);
    if (!in) return Fail(Status::IOError(a.file, std::strerror(errno)));
    in.seekg(0, std::ios::end);
    total = static_cast<uint64_t>(in.tellg());
    in.seekg(0);
  }
  std::istream& input = from_stdin ? std::cin : in;
  const std::string name = from_stdin ? "standard input" : a.file;
  bool json = IsJson(a.format, a.file);
  bool sniff = a.format.empty() && !json;

  std::unique_ptr<DB> db;
  ColumnFamilyHandle* family = nullptr;
  if (int rc = OpenDatabase(g, &db, &family); rc != kExitOk) return rc;
  WriteOptions wo;
  wo.sync = g.sync;
  WriteBatch batch;
  uint64_t line_no = 0, loaded = 0, bytes = 0;
  Status s;
  auto commit = [&] {
    if (batch.Count() == 0) return Status::OK();
    Status w = db->Write(wo, &batch);
    if (w.ok()) loaded += static_cast<uint64_t>(batch.Count());
    batch.Clear();
    return w;
  };
  Progress progress("loading", total);
  std::string line, key, value;
  while (s.ok() && std::getline(input, line)) {
    line_no++;
    bytes += line.size() + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (sniff) json = LooksLikeJsonLine(line), sniff = false;
    Status p = ParseEntry(line, g.hex, json, &key, &value);
    if (!p.ok()) {
      s = Status::InvalidArgument(fmt::format("{}:{}", name, line_no), p.message());
      break;
    }
    batch.Put(family, key, value);
    if (static_cast<size_t>(batch.Count()) >= kBatchEntries ||
        batch.ApproximateSize() >= kBatchBytes) {
      s = commit();
      progress.Update(bytes, loaded);
    }
  }
  if (s.ok() && input.bad()) s = Status::IOError(name, "read failed");
  // After a bad line, the batch holds only lines before it: they are written too.
  if (Status w = commit(); s.ok()) s = w;
  int rc = CloseDatabase(std::move(db));
  if (!s.ok()) {
    return Fail(fmt::format("{} ({} entries before it were loaded)", s.ToString(), loaded),
                ExitCodeFor(s));
  }
  if (rc == kExitOk) {
    std::fprintf(stderr, "loaded %llu entries from %s\n", static_cast<unsigned long long>(loaded),
                 name.c_str());
  }
  return rc;
}

struct DumpArgs {
  std::string file;  // "" or "-": stdout
  std::string format;
  RangeArgs range;
};

int RunDump(const GlobalOptions& g, const DumpArgs& a) {
  const bool to_stdout = a.file.empty() || a.file == "-";
  const bool json = IsJson(a.format, a.file);
  KeyRange range;
  Status s = ToKeyRange(g, a.range, &range);
  if (!s.ok()) return Fail(s);

  std::unique_ptr<DB> db;
  ColumnFamilyHandle* family = nullptr;
  if (int rc = OpenDatabase(g, &db, &family); rc != kExitOk) return rc;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(nullptr, &std::fclose);
  if (!to_stdout) {
    file.reset(std::fopen(a.file.c_str(), "wb"));
    if (file == nullptr) return Fail(Status::IOError(a.file, std::strerror(errno)));
  }
  uint64_t n = 0;
  {
    Output out(to_stdout ? stdout : file.get(), to_stdout ? "standard output" : a.file);
    // On a terminal stdout is the output itself: no bar over it.
    const bool show_progress = !to_stdout || !isatty(STDOUT_FILENO);
    Progress progress("dumping", 0);
    s = WalkRange(db.get(), family, range, [&](const Slice& k, const Slice& v) {
      n++;
      if (show_progress) progress.Update(out.bytes_written(), n);
      return out.Write(FormatEntry(std::string_view(k.data(), k.size()),
                                   std::string_view(v.data(), v.size()), g.hex, json));
    });
    out.Flush();
    if (s.ok()) s = out.status();
  }
  if (s.ok() && file != nullptr && std::fclose(file.release()) != 0) {
    s = Status::IOError(a.file, std::strerror(errno));
  }
  int rc = CloseDatabase(std::move(db));
  if (!s.ok()) return Fail(s);
  if (rc == kExitOk && !to_stdout) {
    std::fprintf(stderr, "dumped %llu entries to %s\n", static_cast<unsigned long long>(n),
                 a.file.c_str());
  }
  return rc;
}

}  // namespace

void AddLoadDumpCommands(CLI::App* app, const GlobalOptions* g, int* exit_code) {
  auto load_args = std::make_shared<LoadArgs>();
  auto* load = app->add_subcommand(
      "load", "Put every entry of FILE (KEY<TAB>VALUE lines or JSON lines; - for stdin)");
  load->add_option("FILE", load_args->file, "The file to load ('-': standard input)")->required();
  load->add_option("--format", load_args->format,
                   "tsv or json (default: json for .jsonl/.json files, else tsv)")
      ->check(CLI::IsMember({"tsv", "json"}));
  load->callback([g, exit_code, a = load_args] { *exit_code = RunLoad(*g, *a); });

  auto dump_args = std::make_shared<DumpArgs>();
  auto* dump = app->add_subcommand(
      "dump", "Write every entry (or a range) to FILE or stdout, in a form load reads back");
  dump->add_option("FILE", dump_args->file, "Output file (default: standard output)");
  dump->add_option("--format", dump_args->format,
                   "tsv or json (default: json for .jsonl/.json files, else tsv)")
      ->check(CLI::IsMember({"tsv", "json"}));
  AddRangeOptions(dump, &dump_args->range);
  dump->callback([g, exit_code, a = dump_args] { *exit_code = RunDump(*g, *a); });
}

}  // namespace sluice::cli
