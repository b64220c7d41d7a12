// db/db_properties.cc — DB::GetProperty: the "sluice.*" properties.
//
// "sluice.stats-json" is the one place the DB's statistics are gathered (StatsJson, under the DB
// mutex so the level figures belong to one version); "sluice.stats" renders that same object as
// text, so the two never disagree. The JSON's field names are a stable interface (the sluice
// tool's `stats --json` and the Python package's DB.stats() return it as is): add fields, do not
// rename them.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "db/db_impl.h"
#include "util/logging.h"

namespace sluice {

namespace {

double Seconds(uint64_t micros) { return static_cast<double>(micros) / 1e6; }

}  // namespace

bool DBImpl::GetProperty(ColumnFamilyHandle* family, const Slice& property, std::string* value) {
  value->clear();
  if (closed_.load(std::memory_order_acquire)) return false;
  ColumnFamilyData* cfd = nullptr;
  if (!FamilyOf(family, "GetProperty", &cfd).ok()) return false;
  const Slice prefix("sluice.");
  if (!property.starts_with(prefix)) return false;
  Slice name = property;
  name.remove_prefix(prefix.size());

  const Slice files_at_level("num-files-at-level");
  if (name.starts_with(files_at_level)) {
    name.remove_prefix(files_at_level.size());
    const std::string digits = name.ToString();
    if (digits.empty() || digits.size() > 2 ||
        digits.find_first_not_of("0123456789") != std::string::npos) {
      return false;
    }
    const int level = std::stoi(digits);
    if (level >= cfd->options.num_levels) return false;
    MutexLock l(&mutex_);
    *value = std::to_string(CurrentSuperVersion(cfd)->version->NumFiles(level));
    return true;
  }
  if (name == Slice("memory-usage")) {
    *value = std::to_string(MemoryUsage(cfd));
    return true;
  }
  // RocksDB's names: what a caller polls to wait until background work has settled.
  if (name == Slice("compaction-pending") || name == Slice("num-running-compactions") ||
      name == Slice("num-running-flushes") || name == Slice("mem-table-flush-pending") ||
      name == Slice("num-immutable-mem-table")) {
    MutexLock l(&mutex_);
    uint64_t n = 0;
    if (name == Slice("compaction-pending")) {
      n = cfd->versions != nullptr && cfd->versions->NeedsCompaction() ? 1 : 0;
    }
    if (name == Slice("num-running-compactions")) {
      n = static_cast<uint64_t>(compactions_running_ + manual_compactions_);
    }
    if (name == Slice("num-running-flushes")) n = flush_running_ ? 1 : 0;
    if (name == Slice("mem-table-flush-pending")) {
      n = CurrentSuperVersion(cfd)->imms.empty() ? 0 : 1;
    }
    if (name == Slice("num-immutable-mem-table")) n = CurrentSuperVersion(cfd)->imms.size();
    *value = std::to_string(n);
    return true;
  }
  // sluice's own settling counter: the idle L0 compaction (PickIdleCompaction) still owed. It
  // runs once writes have stopped for level0_idle_compaction_ms, so a caller that waits for
  // the other counters alone would read a tree whose L0 is about to be rewritten.
  if (name == Slice("idle-compaction-pending")) {
    MutexLock l(&mutex_);
    *value = IdleCompactionOwed(*cfd, *CurrentSuperVersion(cfd)->version) ? "1" : "0";
    return true;
  }
  // RocksDB's names again: the stall policy's view (write_controller.h).
  if (name == Slice("estimate-pending-compaction-bytes")) {
    *value = std::to_string(write_controller_.pending_compaction_bytes());
    return true;
  }
  if (name == Slice("actual-delayed-write-rate")) {
    *value = std::to_string(write_controller_.delayed_write_rate());
    return true;
  }
  if (name == Slice("is-write-stopped")) {
    *value = write_controller_.state() == WriteController::State::kStopped ? "1" : "0";
    return true;
  }
  if (name == Slice("sstables")) {
    MutexLock l(&mutex_);
    *value = CurrentSuperVersion(cfd)->version->DebugString();
    return true;
  }
  // The memory component family's own: "sluice.flodb-stats", "sluice.memtable-choices".
  if (cfd->component_factory->GetProperty(property, value)) return true;
  if (name == Slice("io-counters")) {
    *value = IoCountersString();
    return true;
  }
  if (name == Slice("stats")) {
    *value = StatsString(cfd);
    return true;
  }
  if (name == Slice("stats-json")) {
    *value = StatsJson(cfd).dump();
    return true;
  }
  if (name == Slice("estimate-num-keys")) {
    *value = std::to_string(EstimateNumKeys(cfd));
    return true;
  }
  return false;
}

uint64_t DBImpl::EstimateNumKeys(ColumnFamilyData* cfd) {
  // Every entry of a memory component counts as a key; in SST files a deletion counts -2 (it
  // removes itself and, usually, a version it shadows in a lower level). Exact after a full
  // compaction with no writes since; overwritten keys not yet compacted are counted once per
  // version, so the figure runs high under updates.
  std::shared_ptr<const Version> v;
  std::vector<std::shared_ptr<LoggedComponent>> components;
  {
    // The version and the components are kept alive by these references and are one
    // consistent state: only taking them needs the mutex (counting a component may wait for a
    // FloDB drain's batch, MemoryComponent::NumEntries, and must not hold it).
    MutexLock l(&mutex_);
    SuperVersion* sv = CurrentSuperVersion(cfd);
    v = sv->version;
    components = sv->imms;
    components.push_back(sv->mem);
  }
  int64_t n = 0;
  for (const auto& c : components) n += static_cast<int64_t>(c->component->NumEntries());
  for (int level = 0; level < v->num_levels(); level++) {
    for (const auto& f : v->files(level)) {
      n += static_cast<int64_t>(f->num_entries) - 2 * static_cast<int64_t>(f->num_deletions);
    }
  }
  return n < 0 ? 0 : static_cast<uint64_t>(n);
}

std::string DBImpl::IoCountersString() {
  uint64_t compactions = 0, read = 0, written = 0;
  {
    MutexLock l(&mutex_);
    for (const LevelCompactionStats& ls : stats_.levels) {
      compactions += ls.compactions;
      read += ls.bytes_read;
      written += ls.bytes_written;
    }
  }
  return fmt::format(
      "flushes={} flush_bytes={} compactions={} compaction_bytes_read={} "
      "compaction_bytes_written={} wal_bytes={} user_bytes={}",
      DBStats::Get(stats_.flushes), DBStats::Get(stats_.flush_bytes), compactions, read, written,
      DBStats::Get(stats_.wal_bytes_written), DBStats::Get(stats_.user_bytes_written));
}

nlohmann::ordered_json DBImpl::StatsJson(ColumnFamilyData* cfd) {
  using Json = nlohmann::ordered_json;
  Json j;
  MutexLock l(&mutex_);
  SuperVersion* sv = CurrentSuperVersion(cfd);
  std::shared_ptr<const Version> v = sv->version;
  const CompactionPicker& picker =
      cfd->versions != nullptr ? cfd->versions->picker : versions_->default_family()->picker;
  j["db"] = dbname_;
  if (cfd != default_cfd_) j["column_family"] = cfd->name;

  // The files and sizes are the family's; the compaction counters the database's (every
  // family's summed).
  Json levels = Json::array();
  uint64_t compaction_written = 0, compactions = 0;
  for (const LevelCompactionStats& ls : stats_.levels) {
    compaction_written += ls.bytes_written;
    compactions += ls.compactions;
  }
  for (int level = 0; level < v->num_levels(); level++) {
    const LevelCompactionStats& ls = stats_.levels[static_cast<size_t>(level)];
    levels.push_back({
        {"level", level},
        {"files", v->NumFiles(level)},
        {"bytes", v->NumLevelBytes(level)},
        {"score", level + 1 < v->num_levels() ? picker.LevelScore(*v, level) : 0.0},
        {"compactions", ls.compactions},
        {"compaction_bytes_read", ls.bytes_read},
        {"compaction_bytes_written", ls.bytes_written},
        {"compaction_seconds", Seconds(ls.micros)},
        {"trivial_moves", ls.trivial_moves},
    });
  }
  j["levels"] = std::move(levels);
  j["compactions"] = {{"count", compactions},
                      {"idle_level0", DBStats::Get(stats_.idle_compactions)},
                      {"scan_level0", DBStats::Get(stats_.scan_compactions)},
                      {"split", DBStats::Get(stats_.split_compactions)},
                      {"split_ranges", DBStats::Get(stats_.split_compaction_ranges)}};

  uint64_t immutable_bytes = 0;
  for (const auto& imm : sv->imms) immutable_bytes += imm->component->ApproximateMemoryUsage();
  j["memory"] = {
      {"component", sv->mem->component->Name()},
      {"mutable_bytes", sv->mem->component->ApproximateMemoryUsage()},
      {"mutable_size", sv->mem->write_buffer_size},
      {"mutable_entries", sv->mem->component->NumEntries()},
      {"immutable_components", sv->imms.size()},
      {"immutable_bytes", immutable_bytes},
  };
  if (budget_ != nullptr) {
    // The budget's figures are of every DB that shares it; the flushes and stalls, this DB's.
    j["memory"]["budget"] = {
        {"cap_bytes", budget_->cap()},
        {"used_bytes", budget_->usage()},
        {"mutable_bytes", budget_->mutable_usage()},
        {"allow_stall", budget_->allow_stall()},
        {"flushes", DBStats::Get(stats_.budget_flushes)},
        {"stalls", DBStats::Get(stats_.budget_stalls)},
        {"stall_seconds", Seconds(DBStats::Get(stats_.budget_stall_micros))},
    };
  }

  const uint64_t user = DBStats::Get(stats_.user_bytes_written);
  const uint64_t flushed = DBStats::Get(stats_.flush_bytes);
  const uint64_t wal = DBStats::Get(stats_.wal_bytes_written);
  j["writes"] = {{"batches", DBStats::Get(stats_.writes)},
                 {"keys", DBStats::Get(stats_.keys_written)},
                 {"user_bytes", user},
                 {"wal_bytes", wal}};
  j["flushes"] = {{"count", DBStats::Get(stats_.flushes)},
                  {"bytes", flushed},
                  {"seconds", Seconds(DBStats::Get(stats_.flush_micros))},
                  {"merged", DBStats::Get(stats_.merged_flushes)},
                  {"merged_components", DBStats::Get(stats_.merged_flush_components)}};
  j["write_amplification"] = user == 0 ? 0.0
                                       : static_cast<double>(wal + flushed + compaction_written) /
                                             static_cast<double>(user);
  j["stalls"] = {
      {"slowdowns", DBStats::Get(stats_.slowdown_writes)},
      {"slowdown_seconds", Seconds(DBStats::Get(stats_.slowdown_micros))},
      {"stops", DBStats::Get(stats_.stop_writes)},
      {"stop_seconds", Seconds(DBStats::Get(stats_.stop_micros))},
      {"memtable_full", DBStats::Get(stats_.memtable_waits)},
      {"memtable_full_seconds", Seconds(DBStats::Get(stats_.memtable_wait_micros))},
      {"pending_compaction_bytes", write_controller_.pending_compaction_bytes()},
      {"delayed_write_rate", write_controller_.delayed_write_rate()},
  };
  j["read_modify_writes"] = {{"count", DBStats::Get(stats_.rmws)},
                             {"noops", DBStats::Get(stats_.rmw_noops)},
                             {"conflicts_retried", DBStats::Get(stats_.rmw_conflicts)}};
  j["gets"] = {{"count", DBStats::Get(stats_.gets)},
               {"found", DBStats::Get(stats_.get_hits)},
               {"multi_get_calls", DBStats::Get(stats_.multi_gets)}};
  j["snapshots_live"] = snapshots_.size();
  j["last_sequence"] = oracle_.LastSequence();
  j["recovery"] = {{"torn_tail_bytes", DBStats::Get(stats_.recovered_torn_bytes)},
                   {"skipped_records", DBStats::Get(stats_.recovered_skipped_records)}};
  if (block_cache_ != nullptr) {
    j["block_cache"] = {{"used_bytes", block_cache_->TotalCharge()},
                        {"capacity_bytes", block_cache_->Capacity()},
                        {"hits", block_cache_->Hits()},
                        {"misses", block_cache_->Misses()}};
  }
  if (!bg_error_.ok()) j["background_error"] = bg_error_.ToString();
  return j;
}

std::string DBImpl::StatsString(ColumnFamilyData* cfd) {
  const nlohmann::ordered_json j = StatsJson(cfd);
  auto u64 = [](const nlohmann::ordered_json& v) { return v.get<uint64_t>(); };
  auto bytes = [&](const nlohmann::ordered_json& v) { return HumanBytes(u64(v)); };
  std::string r;
  r += fmt::format("** sluice {} **\n", j["db"].get<std::string>());
  r += fmt::format("{:<6}{:>7}{:>12}{:>8}{:>12}{:>12}{:>10}{:>8}\n", "Level", "Files", "Size",
                   "Score", "Read", "Written", "Comp(s)", "Count");
  for (const auto& ls : j["levels"]) {
    if (u64(ls["files"]) == 0 && u64(ls["compactions"]) == 0) continue;
    r += fmt::format("L{:<5}{:>7}{:>12}{:>8.2f}{:>12}{:>12}{:>10.2f}{:>8}\n", u64(ls["level"]),
                     u64(ls["files"]), bytes(ls["bytes"]), ls["score"].get<double>(),
                     bytes(ls["compaction_bytes_read"]), bytes(ls["compaction_bytes_written"]),
                     ls["compaction_seconds"].get<double>(), u64(ls["compactions"]));
  }
  const auto& mem = j["memory"];
  r += fmt::format("Memory: mutable {} ({} entries, {}), immutable {}\n",
                   bytes(mem["mutable_bytes"]), u64(mem["mutable_entries"]),
                   mem["component"].get<std::string>(), u64(mem["immutable_components"]));
  if (mem.contains("budget")) {
    const auto& b = mem["budget"];
    r += fmt::format(
        "Memory budget (shared): {} of {} used ({} mutable); this DB: {} flushes for it, {} "
        "writes stalled ({:.3f} s)\n",
        bytes(b["used_bytes"]), bytes(b["cap_bytes"]), bytes(b["mutable_bytes"]), u64(b["flushes"]),
        u64(b["stalls"]), b["stall_seconds"].get<double>());
  }
  const auto& w = j["writes"];
  r += fmt::format("Writes: {} batches, {} keys, {} user data, {} WAL\n", u64(w["batches"]),
                   u64(w["keys"]), bytes(w["user_bytes"]), bytes(w["wal_bytes"]));
  const auto& f = j["flushes"];
  r += fmt::format("Flushes: {} ({}, {:.2f} s; {} merged {} components in an L0 backlog)\n",
                   u64(f["count"]), bytes(f["bytes"]), f["seconds"].get<double>(), u64(f["merged"]),
                   u64(f["merged_components"]));
  const auto& c = j["compactions"];
  r += fmt::format(
      "Compactions: {} ({} of L0 into L1 once writes stopped, {} once scans paid for it; {} split "
      "into {} key ranges merged in parallel)\n",
      u64(c["count"]), u64(c["idle_level0"]), u64(c["scan_level0"]), u64(c["split"]),
      u64(c["split_ranges"]));
  r += fmt::format("Write amplification: {:.2f} (WAL + flush + compaction bytes / user bytes)\n",
                   j["write_amplification"].get<double>());
  const auto& st = j["stalls"];
  r += fmt::format(
      "Stalls: slowdown {} ({:.3f} s), stop {} ({:.3f} s), memtable full {} ({:.3f} s); "
      "pending compaction {}, delayed write rate {}/s\n",
      u64(st["slowdowns"]), st["slowdown_seconds"].get<double>(), u64(st["stops"]),
      st["stop_seconds"].get<double>(), u64(st["memtable_full"]),
      st["memtable_full_seconds"].get<double>(), bytes(st["pending_compaction_bytes"]),
      bytes(st["delayed_write_rate"]));
  const auto& rmw = j["read_modify_writes"];
  r += fmt::format("Read-modify-writes: {} ({} no-ops), {} conflicts retried\n", u64(rmw["count"]),
                   u64(rmw["noops"]), u64(rmw["conflicts_retried"]));
  r += fmt::format(
      "Gets: {} ({} found; {} MultiGet calls); snapshots live: {}; last sequence: {}\n",
      u64(j["gets"]["count"]), u64(j["gets"]["found"]), u64(j["gets"]["multi_get_calls"]),
      u64(j["snapshots_live"]), u64(j["last_sequence"]));
  r += fmt::format("Recovery: {} torn-tail bytes dropped, {} damaged records skipped\n",
                   u64(j["recovery"]["torn_tail_bytes"]), u64(j["recovery"]["skipped_records"]));
  if (j.contains("block_cache")) {
    const auto& bc = j["block_cache"];
    r += fmt::format("Block cache: {} of {} used, {} hits, {} misses\n", bytes(bc["used_bytes"]),
                     bytes(bc["capacity_bytes"]), u64(bc["hits"]), u64(bc["misses"]));
  }
  if (j.contains("background_error")) {
    r += "Background error: " + j["background_error"].get<std::string>() + "\n";
  }
  return r;
}

}  // namespace sluice
