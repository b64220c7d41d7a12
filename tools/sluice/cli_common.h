// tools/sluice/cli_common.h — what every subcommand of the sluice tool shares: the global
// options, opening the database, exit codes, error messages, output to a pipe, and the progress
// bar.
//
// Exit codes are part of the tool's interface (docs/cli.md): each failure kind has its own, and
// a command that fails prints exactly one line, "sluice: <what failed>", on stderr. Normal
// output goes to stdout only, so it pipes cleanly; a reader that goes away (| head) ends the
// command quietly with success.

#ifndef SLUICE_TOOLS_SLUICE_CLI_COMMON_H_
#define SLUICE_TOOLS_SLUICE_CLI_COMMON_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "sluice/db.h"
#include "sluice/status.h"

namespace sluice::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitNotFound = 1,      // get, multi-get: a key has no value
  kExitUsage = 2,         // bad command line (CLI11 reports it)
  kExitNoDatabase = 3,    // --db names no database (and --create-if-missing was not given)
  kExitLocked = 4,        // the database is open in another process
  kExitCorruption = 5,    // a damaged file (check, sst, wal, manifest, or while reading)
  kExitIOError = 6,       // a file could not be opened, read or written
  kExitBadInput = 7,      // invalid argument: a malformed input line, bad hex, a bad option
  kExitNotSupported = 8,  // the database refuses the operation
};

// Options that come before the subcommand.
struct GlobalOptions {
  std::string db;
  std::string memtable = "flodb";
  bool create_if_missing = false;
  bool hex = false;   // keys and values on the command line and in output are hex
  bool sync = false;  // writes are synced to disk before the command reports success
  std::string column_family = kDefaultColumnFamilyName;  // the family data commands act on
};

// The exit code for a failed Status (kExitOk for OK).
int ExitCodeFor(const Status& s);
// Prints "sluice: <s>" on stderr and returns `code`, or ExitCodeFor(s) when code is < 0.
int Fail(const Status& s, int code = -1);
// Prints "sluice: <message>" on stderr and returns `code`.
int Fail(std::string_view message, int code);

// kExitOk if --db was given, else prints why it is needed and returns kExitUsage.
int RequireDb(const GlobalOptions& g);
// Opens g.db (creating it only with --create-if-missing) with every column family it has, and
// sets *family to g.column_family's handle (created with --create-if-missing; else a family
// the database lacks is kExitBadInput). On failure prints the error and returns its exit code
// (kExitNoDatabase when there is no database at g.db); kExitOk on success.
int OpenDatabase(const GlobalOptions& g, std::unique_ptr<DB>* db, ColumnFamilyHandle** family);
// Closes db, reporting a failure (a WAL sync that failed) like Fail; kExitOk on success.
int CloseDatabase(std::unique_ptr<DB> db);

// Parses a key or value given on the command line: literally, or hex with --hex.
Status ParseArgument(const GlobalOptions& g, std::string_view what, const std::string& text,
                     std::string* bytes);

// Buffered writes to a FILE (stdout by default) that notice a reader going away: after a write
// fails with EPIPE, broken_pipe() is true and further writes are dropped; another failure is an
// IOError in status(). SIGPIPE must be ignored (main does it).
class Output {
 public:
  explicit Output(std::FILE* f = stdout, std::string name = "standard output");
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output();

  // False once writing is pointless (the reader left, or an error): stop producing output.
  bool Write(std::string_view text);
  bool Flush();
  bool broken_pipe() const { return broken_pipe_; }
  const Status& status() const { return status_; }
  uint64_t bytes_written() const { return bytes_; }

 private:
  bool Check(bool ok);

  std::FILE* const f_;
  const std::string name_;
  bool broken_pipe_ = false;
  Status status_;
  uint64_t bytes_ = 0;
};

// A one-line progress bar on stderr, drawn only when stderr is a terminal (so redirected and
// piped runs print nothing extra), at most ten times a second.
class Progress {
 public:
  // total: the amount at which the work is done (0 when unknown: only counts are shown).
  Progress(std::string label, uint64_t total);
  ~Progress();  // erases the bar
  void Update(uint64_t done, uint64_t items);

 private:
  const std::string label_;
  const uint64_t total_;
  const bool enabled_;
  bool drawn_ = false;
  const std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace sluice::cli

#endif  // SLUICE_TOOLS_SLUICE_CLI_COMMON_H_
