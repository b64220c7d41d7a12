// tools/sluice/file_inspect.h — reading a database's files directly, without opening the
// database: SST files, logs (WAL and MANIFEST alike), the MANIFEST's version history. Used by
// the sst, wal, manifest and check subcommands.
//
// Nothing here writes; every problem comes back as a Status naming the file (and offset).

#ifndef SLUICE_TOOLS_SLUICE_FILE_INSPECT_H_
#define SLUICE_TOOLS_SLUICE_FILE_INSPECT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sluice/status.h"
#include "table/table.h"
#include "version/version_edit.h"
#include "wal/log_reader.h"

namespace sluice::cli {

// Opens the SST file at path (footer, index, filter and properties are read and verified).
Status OpenTableFile(const std::string& path, std::unique_ptr<Table>* table);

// "user_key @ seq PUT" or "... DEL": an internal key as the tool shows it (hex with `hex`).
std::string ShowInternalKey(const Slice& internal_key, bool hex);

struct LogProblem {
  log::Problem problem;
  uint64_t offset;
  size_t bytes;
  std::string message;
  // A torn tail is what a crash in the middle of an append leaves: expected, not damage.
  bool IsCorruption() const { return problem != log::Problem::kTruncatedTail; }
};

// Reads every record of the log file at path in order, calling fn(record, offset) for each
// (stops at fn's first error and returns it). Damaged regions are skipped and listed in
// *problems, in file order. Returns an IOError if the file cannot be opened.
Status ReadLogFile(const std::string& path,
                   const std::function<Status(const Slice& record, uint64_t offset)>& fn,
                   std::vector<LogProblem>* problems);

// The live files of a version: file number -> (level, metadata).
using LiveFiles = std::map<uint64_t, std::pair<int, FileMetaData>>;

// Replays the MANIFEST at path: fn(edit, offset) for each edit (may be null), and *live the
// files of the final version. Corruption if a record does not decode as an edit; damaged
// regions as in ReadLogFile.
Status ReplayManifest(const std::string& path,
                      const std::function<void(const VersionEdit& edit, uint64_t offset)>& fn,
                      LiveFiles* live, std::vector<LogProblem>* problems);

}  // namespace sluice::cli

#endif  // SLUICE_TOOLS_SLUICE_FILE_INSPECT_H_
