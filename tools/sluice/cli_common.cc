// tools/sluice/cli_common.cc — exit codes, opening the database, output and progress for the
// sluice tool (cli_common.h).

#include "cli_common.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#include "sluice/env.h"
#include "text_codec.h"
#include "util/logging.h"

namespace sluice::cli {

int ExitCodeFor(const Status& s) {
  if (s.ok()) return kExitOk;
  // Key lookups handle NotFound themselves (kExitNotFound); anywhere else it is a file that
  // could not be opened.
  if (s.IsNotFound()) return kExitIOError;
  if (s.IsBusy()) return kExitLocked;
  if (s.IsCorruption()) return kExitCorruption;
  if (s.IsIOError()) return kExitIOError;
  if (s.IsNotSupported()) return kExitNotSupported;
  return kExitBadInput;
}

int Fail(const Status& s, int code) {
  std::fprintf(stderr, "sluice: %s\n", s.ToString().c_str());
  return code >= 0 ? code : ExitCodeFor(s);
}

int Fail(std::string_view message, int code) {
  std::fprintf(stderr, "sluice: %.*s\n", static_cast<int>(message.size()), message.data());
  return code;
}

int RequireDb(const GlobalOptions& g) {
  return g.db.empty() ? Fail("this command needs --db (or SLUICE_DB)", kExitUsage) : kExitOk;
}

int OpenDatabase(const GlobalOptions& g, std::unique_ptr<DB>* db, ColumnFamilyHandle** family) {
  if (int rc = RequireDb(g); rc != kExitOk) return rc;
  Env* env = Env::Default();
  if (!g.create_if_missing && !env->FileExists(g.db + "/CURRENT")) {
    return Fail(env->FileExists(g.db)
                    ? fmt::format("{}: not a sluice database (no CURRENT file)", g.db)
                    : fmt::format("{}: no such database (--create-if-missing creates one)", g.db),
                kExitNoDatabase);
  }
  Options options;
  options.create_if_missing = g.create_if_missing;
  options.memtable = g.memtable;
  options.create_missing_column_families = g.create_if_missing;
  // Every family the database has (only "default" for a new one), and the one asked for.
  std::vector<std::string> names;
  if (!env->FileExists(g.db + "/CURRENT") || !DB::ListColumnFamilies(options, g.db, &names).ok()) {
    names = {kDefaultColumnFamilyName};
  }
  if (std::find(names.begin(), names.end(), g.column_family) == names.end()) {
    if (!g.create_if_missing) {
      return Fail(fmt::format("{}: no column family named '{}' (list-column-families lists them; "
                              "--create-if-missing creates it)",
                              g.db, g.column_family),
                  kExitBadInput);
    }
    names.push_back(g.column_family);
  }
  std::vector<ColumnFamilyDescriptor> families;
  for (const std::string& name : names) families.emplace_back(name, options);
  std::vector<ColumnFamilyHandle*> handles;
  Status s = DB::Open(options, g.db, families, &handles, db);
  if (!s.ok()) return Fail(s);
  *family = handles[static_cast<size_t>(std::find(names.begin(), names.end(), g.column_family) -
                                        names.begin())];
  return kExitOk;
}

int CloseDatabase(std::unique_ptr<DB> db) {
  Status s = db->Close();
  return s.ok() ? kExitOk : Fail(s);
}

Status ParseArgument(const GlobalOptions& g, std::string_view what, const std::string& text,
                     std::string* bytes) {
  if (!g.hex) {
    *bytes = text;
    return Status::OK();
  }
  Status s = HexDecode(text, bytes);
  return s.ok() ? s : Status::InvalidArgument(fmt::format("{} '{}'", what, text), s.message());
}

Output::Output(std::FILE* f, std::string name) : f_(f), name_(std::move(name)) {}

Output::~Output() { Flush(); }

bool Output::Check(bool ok) {
  if (ok) return true;
  if (errno == EPIPE) {
    broken_pipe_ = true;
  } else if (status_.ok()) {
    status_ = Status::IOError(name_, std::strerror(errno));
  }
  return false;
}

bool Output::Write(std::string_view text) {
  if (broken_pipe_ || !status_.ok()) return false;
  bytes_ += text.size();
  return Check(std::fwrite(text.data(), 1, text.size(), f_) == text.size());
}

bool Output::Flush() {
  if (broken_pipe_ || !status_.ok()) return false;
  return Check(std::fflush(f_) == 0);
}

Progress::Progress(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

Progress::~Progress() {
  if (drawn_) std::fputs("\r\033[K", stderr);
}

void Progress::Update(uint64_t done, uint64_t items) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  drawn_ = true;
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double rate = secs > 0 ? static_cast<double>(items) / secs : 0.0;
  std::string line = fmt::format("\r\033[K{} {} entries, {:.0f}/s", label_, items, rate);
  if (total_ > 0) {
    constexpr int kWidth = 30;
    const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
    const int filled = static_cast<int>(frac * kWidth);
    line += fmt::format(" [{}{}] {:3.0f}% of {}", std::string(static_cast<size_t>(filled), '#'),
                        std::string(static_cast<size_t>(kWidth - filled), '.'), frac * 100,
                        HumanBytes(total_));
  } else {
    line += fmt::format(", {}", HumanBytes(done));
  }
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace sluice::cli
