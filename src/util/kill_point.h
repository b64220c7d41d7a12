// util/kill_point.h — named points in the engine where a crash test can kill the process.
//
// SLUICE_KILL_POINT("flush.table_written") marks a place where a crash is interesting: between
// writing a file and making it part of the database, between writing a record and syncing it,
// and so on. Points are dormant unless the process was started with the environment variable
// SLUICE_KILL_POINT naming one of them (or a prefix ending in '*', or "*" for all):
// then each time a matching point is reached the process kills itself with SIGKILL with
// probability 1/SLUICE_KILL_ODDS (default 1: the first time). Nothing is flushed or
// unwound on the way out, exactly as with `kill -9`, so the on-disk state is what the OS had
// been handed at that instant.
//
// A dormant point costs one relaxed load of a global flag. kAllKillPoints lists every point
// (tools/sluice_stress --list_kill_points prints it; tests/crash/crash_test.py draws from it);
// a point not listed there is a bug, caught by tests/crash/crash_test.py.
//
// Thread-safety: configured once, before main, from the environment; afterwards read-only.

#ifndef SLUICE_UTIL_KILL_POINT_H_
#define SLUICE_UTIL_KILL_POINT_H_

#include <atomic>
#include <string_view>

namespace sluice::kill_point {

inline constexpr std::string_view kAllKillPoints[] = {
    // The WAL and the MANIFEST share the log writer: "<log>." is "wal." or "manifest.".
    "wal.torn_write",              // half of a group of records is handed to the OS, then death
    "wal.after_write",             // records handed to the OS, not yet synced
    "wal.after_sync",              // records synced, writers not yet told
    "manifest.torn_write",         // half a version edit written
    "manifest.after_write",        // a version edit written, not synced
    "manifest.after_sync",         // a version edit synced, not yet applied in memory
    "table.before_sync",           // an SST fully written (flush or compaction), not synced
    "flush.table_written",         // the flushed SST synced, not yet in the MANIFEST
    "flush.installed",             // the flush recorded in the MANIFEST, obsolete files not deleted
    "compaction.outputs_written",  // compaction outputs synced, not yet in the MANIFEST
    "compaction.installed",        // the compaction recorded, its inputs not yet deleted
    "current.before_rename",       // a new CURRENT written to its temporary name
    "current.after_rename",        // CURRENT renamed, directory not synced
    "obsolete.before_delete",      // obsolete files found, none deleted
    "obsolete.mid_delete",         // some obsolete files deleted, not all
};

// True when some point may fire (the environment asked for one).
inline std::atomic<bool> g_armed{false};

// Kills the process if `name` matches the armed pattern and the odds say so.
void MaybeKill(std::string_view name);

// For code that must do something special before dying (a torn write): true if the point
// `name` fires now; the caller then does its partial work and calls KillNow(name).
bool ShouldKill(std::string_view name);
[[noreturn]] void KillNow(std::string_view name);

}  // namespace sluice::kill_point

// relaxed: the flag is set before main() and never changes; no data depends on it.
#define SLUICE_KILL_POINT(name)                                          \
  do {                                                                   \
    if (::sluice::kill_point::g_armed.load(std::memory_order_relaxed)) { \
      ::sluice::kill_point::MaybeKill(name);                             \
    }                                                                    \
  } while (0)

#endif  // SLUICE_UTIL_KILL_POINT_H_
