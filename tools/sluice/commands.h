// tools/sluice/commands.h — the sluice tool's subcommands, grouped by what they work on. Each
// Add* function registers its subcommands on `app`; a subcommand's callback runs it and stores
// its exit code (cli_common.h) in *exit_code. `g` holds the global options, filled in by the
// time a callback runs.

#ifndef SLUICE_TOOLS_SLUICE_COMMANDS_H_
#define SLUICE_TOOLS_SLUICE_COMMANDS_H_

#include <CLI/CLI.hpp>

#include "cli_common.h"

namespace sluice::cli {

// put, get, delete, scan (data_commands.cc)
void AddDataCommands(CLI::App* app, const GlobalOptions* g, int* exit_code);
// load, dump (load_dump.cc)
void AddLoadDumpCommands(CLI::App* app, const GlobalOptions* g, int* exit_code);
// stats, compact, check, repair (admin_commands.cc)
void AddAdminCommands(CLI::App* app, const GlobalOptions* g, int* exit_code);
// sst, wal, manifest (file_commands.cc)
void AddFileCommands(CLI::App* app, const GlobalOptions* g, int* exit_code);

}  // namespace sluice::cli

#endif  // SLUICE_TOOLS_SLUICE_COMMANDS_H_
