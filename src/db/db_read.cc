// db/db_read.cc — the read path (Get, iterators, snapshots) and properties.
//
// Get takes no lock and never waits: inside an epoch section it searches the current
// SuperVersion top-down (mutable component, immutable ones newest first, then SST files) and
// stops at the first version with sequence <= its read point. Without a snapshot the read point
// is "latest", and a version belonging to a multi-entry batch still being applied is skipped
// (the read continues with the next older version), so batches appear atomically.

#include <fmt/format.h>

#include "db/db_impl.h"
#include "db/db_iter.h"
#include "db/merging_iterator.h"
#include "util/epoch.h"
#include "util/logging.h"

namespace sluice {

Status DBImpl::Get(const ReadOptions& options, const Slice& key, std::string* value) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  DBStats::Add(&stats_.gets, 1);
  const bool latest = options.snapshot == nullptr;
  SequenceNumber read_seq = latest ? kMaxSequenceNumber : options.snapshot->sequence();
  epoch::Guard guard;
  SuperVersion* sv = super_version_.load(std::memory_order_acquire);

  auto search = [&](MemTable* mem, bool* done) -> Status {
    MemoryLookup r;
    while (mem->rep->Get(key, read_seq, &r)) {
      if (latest && oracle_.IsBatchInFlight(r.sequence)) {
        read_seq = r.sequence - 1;  // not visible yet: look at older versions
        continue;
      }
      *done = true;
      if (r.type == kTypeDeletion) return Status::NotFound(Slice());
      *value = std::move(r.value);
      return Status::OK();
    }
    return Status::OK();
  };

  bool done = false;
  Status s = search(sv->mem.get(), &done);
  for (size_t i = 0; !done && i < sv->imms.size(); i++) s = search(sv->imms[i].get(), &done);
  if (!done) {
    TableLookup r;
    bool found = false;
    s = sv->version->Get(options, LookupKey(key, read_seq), table_cache_.get(), &r, &found);
    if (s.ok()) {
      if (!found || r.type == kTypeDeletion) {
        s = Status::NotFound(Slice());
      } else {
        *value = std::move(r.value);
      }
    }
  }
  if (s.ok()) DBStats::Add(&stats_.get_hits, 1);
  return s;
}

std::unique_ptr<Iterator> DBImpl::NewIterator(const ReadOptions& options) {
  if (closed_.load(std::memory_order_acquire)) {
    struct Closed final : public Iterator {
      explicit Closed(Status s) : s_(std::move(s)) {}
      bool Valid() const override { return false; }
      void SeekToFirst() override {}
      void SeekToLast() override {}
      void Seek(const Slice&) override {}
      void SeekForPrev(const Slice&) override {}
      void Next() override {}
      void Prev() override {}
      Slice key() const override { return Slice(); }
      Slice value() const override { return Slice(); }
      Status status() const override { return s_; }
      Status s_;
    };
    return std::make_unique<Closed>(Status::InvalidArgument(dbname_, "database is closed"));
  }
  std::vector<std::unique_ptr<InternalIterator>> children;
  SequenceNumber seq;
  {
    epoch::Guard guard;
    SuperVersion* sv = super_version_.load(std::memory_order_acquire);
    // The read point is chosen after the components are pinned: every write at or below it
    // is in one of them (a write into a newer component would have a larger sequence).
    seq = options.snapshot != nullptr ? options.snapshot->sequence()
                                      : oracle_.SnapshotSequence(options_.linearizable_snapshots);
    auto add_mem = [&](const std::shared_ptr<MemTable>& m) {
      std::unique_ptr<InternalIterator> it = m->rep->NewIterator();
      std::shared_ptr<MemTable> pin = m;
      it->RegisterCleanup([pin]() mutable { pin.reset(); });
      children.push_back(std::move(it));
    };
    add_mem(sv->mem);
    for (const auto& imm : sv->imms) add_mem(imm);
    std::shared_ptr<const Version> version = sv->version;
    const size_t first_table = children.size();
    version->AddIterators(options, table_cache_.get(), &children);
    if (children.size() > first_table) {
      children[first_table]->RegisterCleanup([version]() mutable { version.reset(); });
    }
  }
  return NewDBIterator(NewMergingIterator(DefaultInternalKeyComparator(), std::move(children)),
                       seq);
}

const Snapshot* DBImpl::GetSnapshot() {
  if (closed_.load(std::memory_order_acquire)) return nullptr;
  return snapshots_.Create(
      [this] { return oracle_.SnapshotSequence(options_.linearizable_snapshots); });
}

void DBImpl::ReleaseSnapshot(const Snapshot* snapshot) { snapshots_.Release(snapshot); }

uint64_t DBImpl::MemoryUsage() {
  epoch::Guard guard;
  SuperVersion* sv = super_version_.load(std::memory_order_acquire);
  uint64_t total = sv->mem->rep->ApproximateMemoryUsage();
  for (const auto& imm : sv->imms) total += imm->rep->ApproximateMemoryUsage();
  return total;
}

bool DBImpl::GetProperty(const Slice& property, std::string* value) {
  value->clear();
  if (closed_.load(std::memory_order_acquire)) return false;
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
    if (level >= options_.num_levels) return false;
    std::lock_guard<std::mutex> l(mutex_);
    *value = std::to_string(versions_->current()->NumFiles(level));
    return true;
  }
  if (name == Slice("memory-usage")) {
    *value = std::to_string(MemoryUsage());
    return true;
  }
  if (name == Slice("sstables")) {
    std::lock_guard<std::mutex> l(mutex_);
    *value = versions_->current()->DebugString();
    return true;
  }
  if (name == Slice("stats")) {
    *value = StatsString();
    return true;
  }
  return false;
}

std::string DBImpl::StatsString() {
  std::string r;
  std::lock_guard<std::mutex> l(mutex_);
  std::shared_ptr<const Version> v = versions_->current();
  SuperVersion* sv = CurrentSuperVersion();
  r += fmt::format("** sluice {} **\n", dbname_);
  r += fmt::format("{:<6}{:>7}{:>12}{:>8}{:>12}{:>12}{:>10}{:>8}\n", "Level", "Files", "Size",
                   "Score", "Read", "Written", "Comp(s)", "Count");
  uint64_t compaction_written = 0;
  for (int level = 0; level < v->num_levels(); level++) {
    const LevelCompactionStats& ls = stats_.levels[static_cast<size_t>(level)];
    compaction_written += ls.bytes_written;
    if (v->NumFiles(level) == 0 && ls.compactions == 0) continue;
    r += fmt::format("L{:<5}{:>7}{:>12}{:>8.2f}{:>12}{:>12}{:>10.2f}{:>8}\n", level,
                     v->NumFiles(level), HumanBytes(v->NumLevelBytes(level)),
                     level + 1 < v->num_levels() ? versions_->picker().LevelScore(*v, level) : 0.0,
                     HumanBytes(ls.bytes_read), HumanBytes(ls.bytes_written),
                     static_cast<double>(ls.micros) / 1e6, ls.compactions);
  }
  const uint64_t user = DBStats::Get(stats_.user_bytes_written);
  const uint64_t flushed = DBStats::Get(stats_.flush_bytes);
  const uint64_t wal = DBStats::Get(stats_.wal_bytes_written);
  r += fmt::format("Memory: mutable {} ({} entries, {}), immutable {}\n",
                   HumanBytes(sv->mem->rep->ApproximateMemoryUsage()), sv->mem->rep->NumEntries(),
                   sv->mem->rep->Name(), sv->imms.size());
  r += fmt::format("Writes: {} batches, {} keys, {} user data, {} WAL\n",
                   DBStats::Get(stats_.writes), DBStats::Get(stats_.keys_written), HumanBytes(user),
                   HumanBytes(wal));
  r +=
      fmt::format("Flushes: {} ({}, {:.2f} s)\n", DBStats::Get(stats_.flushes), HumanBytes(flushed),
                  static_cast<double>(DBStats::Get(stats_.flush_micros)) / 1e6);
  r += fmt::format("Write amplification: {:.2f} (WAL + flush + compaction bytes / user bytes)\n",
                   user == 0 ? 0.0
                             : static_cast<double>(wal + flushed + compaction_written) /
                                   static_cast<double>(user));
  r += fmt::format(
      "Stalls: slowdown {} ({:.3f} s), stop {} ({:.3f} s), memtable full {} ({:.3f} s)\n",
      DBStats::Get(stats_.slowdown_writes),
      static_cast<double>(DBStats::Get(stats_.slowdown_micros)) / 1e6,
      DBStats::Get(stats_.stop_writes), static_cast<double>(DBStats::Get(stats_.stop_micros)) / 1e6,
      DBStats::Get(stats_.memtable_waits),
      static_cast<double>(DBStats::Get(stats_.memtable_wait_micros)) / 1e6);
  r += fmt::format("Gets: {} ({} found); snapshots live: {}; last sequence: {}\n",
                   DBStats::Get(stats_.gets), DBStats::Get(stats_.get_hits), snapshots_.size(),
                   oracle_.LastSequence());
  r += fmt::format("Recovery: {} torn-tail bytes dropped, {} damaged records skipped\n",
                   DBStats::Get(stats_.recovered_torn_bytes),
                   DBStats::Get(stats_.recovered_skipped_records));
  if (block_cache_ != nullptr) {
    r += fmt::format("Block cache: {} of {} used, {} hits, {} misses\n",
                     HumanBytes(block_cache_->TotalCharge()), HumanBytes(block_cache_->Capacity()),
                     block_cache_->Hits(), block_cache_->Misses());
  }
  if (!bg_error_.ok()) r += "Background error: " + bg_error_.ToString() + "\n";
  return r;
}

}  // namespace sluice
