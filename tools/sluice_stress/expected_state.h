// sluice_stress/expected_state.h — what the database may legitimately hold, kept outside it.
//
// The expected state lives in a directory of its own (--expected_state) and survives a
// `kill -9` of the driver because everything is handed to the OS with write(2) at once:
//   * baseline — per key, its value (the "base" of value_format.h) or its absence, as verified
//     when the driver last opened the database, and the next base to use;
//   * history-<thread> — every write since then, appended by the thread that did it: an
//     *intent* record before the write is issued and an *ack* record, with the sequence number
//     the database gave it, once it was acknowledged. A write with an intent and no ack was in
//     flight when the process died: it may or may not be in the database.
// Writes to one key are serialised by the driver (a lock per key), and each write gets a
// larger base than the last, so per key the history is totally ordered by base.
//
// Verify() checks a recovered database against baseline + history:
//   * durable (process crash, or sync=true): every key holds the result of its last
//     acknowledged write, or of a write that was in flight: no acknowledged write lost, no
//     deleted key come back;
//   * prefix (always): there is a sequence number S such that the database holds exactly the
//     acknowledged writes numbered up to S (plus possibly in-flight ones): no holes, batches
//     all-or-nothing. (Read-modify-writes report no sequence number; each is only placed
//     between its key's neighbouring writes.) This is the promise of sync=false across a
//     power loss, where a tail of acknowledged writes may be lost; the report says how many.
// Rebase() then turns the recovered state into the next baseline.

#ifndef SLUICE_TOOLS_SLUICE_STRESS_EXPECTED_STATE_H_
#define SLUICE_TOOLS_SLUICE_STRESS_EXPECTED_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/status.h"

namespace sluice::stress {

struct KeyState {
  uint32_t base = 0;       // the base of the key's value, if it exists
  uint32_t next_base = 1;  // every later write of the key uses a base at least this large
  bool exists = false;
};

enum class OpKind : uint8_t { kPut = 1, kDelete = 2 };
enum class Phase : uint8_t { kIntent = 1, kAck = 2 };

struct HistoryRecord {
  uint32_t key = 0;
  uint32_t base = 0;
  OpKind kind = OpKind::kPut;
  Phase phase = Phase::kIntent;
  uint16_t reserved = 0;
  uint32_t reserved2 = 0;
  uint64_t seq = 0;  // acks only: the write's sequence number, 0 if unknown
};
static_assert(sizeof(HistoryRecord) == 24, "the history file format");

// What a key holds after recovery: its value's base, or nothing.
using Recovered = std::optional<uint32_t>;

// The baseline file; a missing one means an empty database (every key absent).
Status LoadBaseline(const std::string& dir, uint32_t max_key, std::vector<KeyState>* state);
// Written to a temporary file, synced and renamed over the old one.
Status SaveBaseline(const std::string& dir, const std::vector<KeyState>& state);

// Appends one thread's records with write(2), unbuffered.
class HistoryWriter {
 public:
  HistoryWriter() = default;
  HistoryWriter(const HistoryWriter&) = delete;
  HistoryWriter& operator=(const HistoryWriter&) = delete;
  ~HistoryWriter();
  Status Open(const std::string& dir, int thread);
  Status Append(const HistoryRecord* records, size_t n);

 private:
  int fd_ = -1;
  std::string fname_;
};

// Every record of every history file of dir; a partial record at the end of a file (a write
// cut by the kill) is ignored. Records naming a key >= max_key are Corruption.
Status LoadHistory(const std::string& dir, uint32_t max_key, std::vector<HistoryRecord>* out);
Status ClearHistory(const std::string& dir);

struct VerifyOptions {
  bool require_acknowledged = true;  // the durable check (false: power loss with sync=false)
};

struct VerifyReport {
  uint64_t keys = 0;
  uint64_t writes = 0;  // distinct writes in the history
  uint64_t acknowledged = 0;
  uint64_t in_flight = 0;
  uint64_t lost_acknowledged = 0;     // acknowledged write groups beyond the recovered prefix
  std::vector<std::string> failures;  // empty: the database is consistent with the history
};

VerifyReport Verify(const std::vector<KeyState>& baseline,
                    const std::vector<HistoryRecord>& history,
                    const std::vector<Recovered>& recovered, const VerifyOptions& options);

// The baseline for the next run: the recovered state, with next_base above every base used.
std::vector<KeyState> Rebase(const std::vector<KeyState>& baseline,
                             const std::vector<HistoryRecord>& history,
                             const std::vector<Recovered>& recovered);

}  // namespace sluice::stress

#endif  // SLUICE_TOOLS_SLUICE_STRESS_EXPECTED_STATE_H_
