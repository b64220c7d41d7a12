// base/filename.h — names of the files in a database directory.
//
//   NNNNNN.log       a write-ahead log          NNNNNN.sst   an SST file
//   MANIFEST-NNNNNN  a version-edit log         CURRENT      names the live MANIFEST
//   LOCK             held while the DB is open  LOG, LOG.old the human-readable event log
//   NNNNNN.dbtmp     a temporary file (CURRENT is written as one, then renamed)
// Numbers come from one counter (VersionSet::NewFileNumber), so no two files share one.

#ifndef SLUICE_BASE_FILENAME_H_
#define SLUICE_BASE_FILENAME_H_

#include <cstdint>
#include <string>

#include "sluice/env.h"
#include "sluice/status.h"

namespace sluice {

enum class FileType { kLog, kTable, kManifest, kCurrent, kLock, kInfoLog, kTemp };

// A database path as the DB names its files: without trailing slashes ("/" stays "/").
std::string NormalizeDbPath(std::string path);
std::string LogFileName(const std::string& dbname, uint64_t number);
std::string TableFileName(const std::string& dbname, uint64_t number);
std::string ManifestFileName(const std::string& dbname, uint64_t number);
std::string CurrentFileName(const std::string& dbname);
std::string LockFileName(const std::string& dbname);
std::string InfoLogFileName(const std::string& dbname);
std::string OldInfoLogFileName(const std::string& dbname);
std::string TempFileName(const std::string& dbname, uint64_t number);

// Parses a file name (not a path). False if it is not one of ours.
bool ParseFileName(const std::string& name, uint64_t* number, FileType* type);

// Reads CURRENT in dbname and sets *manifest to the path of the MANIFEST it names (and *number,
// if not null, to its file number); Corruption naming CURRENT if it does not name one.
Status ReadCurrentFile(Env* env, const std::string& dbname, std::string* manifest,
                       uint64_t* number = nullptr);

// Points CURRENT at MANIFEST-<manifest_number>: writes a temp file, syncs it, renames it over
// CURRENT and syncs the directory, so CURRENT is always either the old or the new name.
Status SetCurrentFile(Env* env, const std::string& dbname, uint64_t manifest_number);

}  // namespace sluice

#endif  // SLUICE_BASE_FILENAME_H_
