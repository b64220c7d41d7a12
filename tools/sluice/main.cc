// sluice — the command-line tool: read, write, load, dump, inspect, check and repair a sluice
// database. `sluice --help` and `sluice <command> --help` list everything; docs/cli.md is the
// manual (formats and exit codes).
//
//   sluice --db /tmp/db --create-if-missing put greeting hello
//   sluice --db /tmp/db get greeting
//   sluice --db /tmp/db scan --prefix user: --limit 10 --format json
//   sluice --db /tmp/db dump backup.tsv && sluice --db /tmp/copy --create-if-missing load
//   backup.tsv sluice --db /tmp/db check

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>

#include "cli_common.h"
#include "commands.h"

int main(int argc, char** argv) {
  using namespace sluice::cli;
  // A reader that goes away (| head) shows up as EPIPE on write, which ends output quietly
  // (Output::broken_pipe) and lets the database close cleanly.
  std::signal(SIGPIPE, SIG_IGN);
  // load and put read std::cin; without this libstdc++ reads it a locked getc at a time.
  std::ios::sync_with_stdio(false);

  GlobalOptions g;
  int exit_code = kExitOk;
  CLI::App app{"sluice: read, write, inspect and repair a sluice database"};
  app.require_subcommand(1);
  app.fallthrough();  // global options may also follow the subcommand
  app.add_option("--db", g.db, "The database directory")->envname("SLUICE_DB");
  app.add_flag("--create-if-missing", g.create_if_missing,
               "Create the database if it does not exist (put, load, ...)");
  app.add_option("--memtable", g.memtable,
                 "Memory component to open the database with (flodb, skiplist, vector, "
                 "hash-skiplist, hash-linklist, ...)");
  app.add_flag("--hex", g.hex, "Keys and values on the command line and in output are in hex");
  app.add_flag("--sync", g.sync, "Sync every write to disk before reporting success");
  app.add_option("--column-family", g.column_family,
                 "The column family data commands act on (default: \"default\")")
      ->envname("SLUICE_COLUMN_FAMILY");

  AddDataCommands(&app, &g, &exit_code);
  AddLoadDumpCommands(&app, &g, &exit_code);
  AddAdminCommands(&app, &g, &exit_code);
  AddFileCommands(&app, &g, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  return exit_code;
}
