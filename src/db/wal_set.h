// db/wal_set.h — the write-ahead log files of a database: one chain that every column family
// shares (one sequence space; a batch across families is one record).
//
// Invariants:
//   * WalSet::current receives every logged write; the files in `older` are sealed (no new
//     reservation succeeds) and may still hold writes of memory components not yet flushed.
//     They are kept, oldest first, until every family has flushed past them (the smallest
//     family log number, VersionSet::LogNumber()), then dropped from the set and deleted.
//   * A WalSet is immutable; the DB publishes the current one through an atomic pointer and
//     retires replaced ones through epoch reclamation, as it does SuperVersions. A switch seals
//     the old file, installs the SuperVersion of the new memory component, and only then the
//     new WalSet; a writer loads the WalSet before the SuperVersion. So a writer that reserves
//     on WAL file N inserts into a component that was mutable while N was current (the proof:
//     docs/design.md, "Column families and the shared WAL").

#ifndef SLUICE_DB_WAL_SET_H_
#define SLUICE_DB_WAL_SET_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "wal/log_writer.h"

namespace sluice {

struct WalFile {
  WalFile(std::unique_ptr<log::Writer> l, uint64_t n) : log(std::move(l)), number(n) {}
  const std::unique_ptr<log::Writer> log;
  const uint64_t number;
};

struct WalSet {
  std::shared_ptr<WalFile> current;
  std::vector<std::shared_ptr<WalFile>> older;  // sealed, oldest first, not yet obsolete
};

}  // namespace sluice

#endif  // SLUICE_DB_WAL_SET_H_
