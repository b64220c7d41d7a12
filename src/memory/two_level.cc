// memory/two_level.cc — see two_level.h for the design and the invariants.

#include "memory/two_level.h"

#include <algorithm>
#include <chrono>

#include "memory/skiplist_rep.h"
#include "util/cpu.h"
#include "util/epoch.h"

namespace sluice {

std::atomic<int64_t>& TwoLevelComponent::WriterCount::Counter() {
  return shards_[ThreadIndex() % kShards].n;
}

bool TwoLevelComponent::WriterCount::Zero() const {
  int64_t sum = 0;
  // seq_cst: pairs with the writer's Enter / pointer re-check (see Add).
  for (const Shard& s : shards_) sum += s.n.load(std::memory_order_seq_cst);
  return sum == 0;
}

TwoLevelComponent::TwoLevelComponent(const FloDBOptions& options,
                                     const MemoryComponentContext& context)
    : options_(options),
      context_(context),
      stats_(context.flodb_stats != nullptr ? context.flodb_stats : std::make_shared<FloDBStats>()),
      memtable_(
          ArenaBlockSizeFor(options.write_buffer_size),
          [keeper = context.keeper](SequenceNumber older, SequenceNumber newer) {
            return keeper != nullptr && keeper->MustKeep(older, newer);
          },
          stats_.get()) {
  if (options_.use_membuffer) {
    std::unique_ptr<Level1> l = NewLevel1();
    l->mbf->SetFloor(0);
    mbf_.store(l.release(), std::memory_order_release);
    for (int i = 0; i < std::max(1, options_.drain_threads); i++) {
      drainers_.emplace_back([this] { DrainLoop(); });
    }
  }
}

TwoLevelComponent::~TwoLevelComponent() {
  StopDrainers();
  // Nothing else runs now: the component is destroyed after a grace period.
  delete mbf_.load(std::memory_order_relaxed);
  delete frozen_.load(std::memory_order_relaxed);
}

std::unique_ptr<TwoLevelComponent::Level1> TwoLevelComponent::NewLevel1() {
  {
    std::lock_guard<std::mutex> lock(spares_->mu);
    if (spares_->spare != nullptr) {
      std::unique_ptr<Level1> l = std::move(spares_->spare);
      l->mbf->Reset();
      return l;
    }
  }
  const size_t capacity = static_cast<size_t>(static_cast<double>(options_.write_buffer_size) *
                                              options_.membuffer_fraction);
  return std::make_unique<Level1>(std::make_unique<Membuffer>(
      std::max<size_t>(capacity, 1024), options_.partition_bits, options_.bucket_slots));
}

void TwoLevelComponent::RetireLevel1(Level1* l) {
  struct Recycled {
    Level1* level;
    std::weak_ptr<SparePool> pool;
  };
  auto* r = new Recycled{l, spares_};
  epoch::Retire(r, [](void* p) {
    std::unique_ptr<Recycled> recycled(static_cast<Recycled*>(p));
    std::unique_ptr<Level1> level(recycled->level);
    if (std::shared_ptr<SparePool> pool = recycled->pool.lock()) {
      std::lock_guard<std::mutex> lock(pool->mu);
      if (pool->spare == nullptr && level->mbf->IsEmpty()) pool->spare = std::move(level);
    }
  });
}

void TwoLevelComponent::StopDrainers() {
  {
    std::lock_guard<std::mutex> l(drain_mu_);
    stop_drainers_.store(true);
    drain_cv_.notify_all();
  }
  for (auto& t : drainers_) t.join();
  drainers_.clear();
}

void TwoLevelComponent::Add(SequenceNumber seq, ValueType type, const Slice& key,
                            const Slice& value, bool keep_older) {
  FloDBStats::Add(&stats_->writes);
  const FloDBMemtable::Update update{key, seq, type, value, keep_older};
  if (!options_.use_membuffer || immutable_.load(std::memory_order_acquire)) {
    FloDBStats::Add(&stats_->memtable_direct);
    memtable_.Apply(update);
    return;
  }
  epoch::Guard guard;
  const uint64_t hash = Membuffer::HashKey(key);
  Membuffer::AddResult result;
  bool helped = false;
  for (;;) {
    Level1* l = mbf_.load(std::memory_order_acquire);
    // Enter, then re-check: a freeze that swapped the pointer either sees us in the count
    // (and waits for us) or we see its new pointer (and use that one). Both seq_cst.
    l->writers.Enter();
    if (mbf_.load(std::memory_order_seq_cst) != l) {
      l->writers.Exit();
      continue;
    }
    MembufferEntry* entry = MembufferEntry::New(hash, seq, type, key, value);
    entry->keep_older = keep_older;
    MembufferEntry* displaced = nullptr;
    result = l->mbf->Add(
        entry,
        [this](const MembufferEntry& old, const MembufferEntry& fresh) {
          return context_.keeper != nullptr &&
                 context_.keeper->MustKeep(old.sequence(), fresh.sequence());
        },
        [this](const MembufferEntry& old) {
          FloDBStats::Add(&stats_->pushed_down);
          memtable_.Apply({old.key(), old.sequence(), old.type(), old.value(), old.keep_older});
        },
        &displaced);
    l->writers.Exit();
    if (result == Membuffer::AddResult::kAdded) {
      FloDBStats::Add(&stats_->membuffer_adds);
      return;
    }
    if (result == Membuffer::AddResult::kReplaced) {
      FloDBStats::Add(&stats_->membuffer_in_place);
      epoch::Retire(displaced, &MembufferEntry::Free);
      return;
    }
    MembufferEntry::Free(entry);  // never published
    if (result == Membuffer::AddResult::kFull && !helped) {
      // Rather than one costly single insert into the Memtable, help the drain with a chunk
      // of this partition (multi-insert: a fraction of the cost per entry), then retry once.
      helped = true;
      FloDBStats::Add(&stats_->overflow_helps);
      DrainChunk(l, l->mbf->PartitionOf(key), kHelpChunkEntries);
      continue;
    }
    break;
  }
  switch (result) {
    case Membuffer::AddResult::kFull: FloDBStats::Add(&stats_->memtable_full); break;
    case Membuffer::AddResult::kLate: FloDBStats::Add(&stats_->memtable_late); break;
    default: FloDBStats::Add(&stats_->memtable_overtaken); break;
  }
  ApplyBelow(update);
}

void TwoLevelComponent::ApplyBelow(const FloDBMemtable::Update& u) {
  // A frozen Membuffer may hold a version of this key that must reach the Memtable first.
  WaitForFrozenDrain();
  memtable_.Apply(u);
}

void TwoLevelComponent::WaitForFrozenDrain() {
  Level1* f = frozen_.load(std::memory_order_acquire);
  if (f == nullptr) return;
  FloDBStats::Add(&stats_->help_drains);
  // Help: drain partitions until it looks empty, then wait for the master to retire it.
  while (!f->mbf->IsEmpty()) {
    const size_t p = f->drain_cursor.fetch_add(1, std::memory_order_relaxed) % f->mbf->partitions();
    DrainChunk(f, p, kDrainChunkEntries);
    if (frozen_.load(std::memory_order_acquire) != f) return;
  }
  for (int spins = 0; frozen_.load(std::memory_order_acquire) == f; spins++) {
    if (spins < 100) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
}

size_t TwoLevelComponent::DrainPartition(Level1* l, size_t partition, bool sweep_all) {
  thread_local std::vector<MembufferEntry*> entries;
  entries.clear();
  l->mbf->CollectForDrain(partition, &entries, sweep_all);
  return MoveToMemtable(l, &entries);
}

size_t TwoLevelComponent::DrainChunk(Level1* l, size_t partition, size_t max_entries) {
  thread_local std::vector<MembufferEntry*> entries;
  entries.clear();
  l->mbf->CollectChunk(partition, max_entries, &entries);
  return MoveToMemtable(l, &entries);
}

size_t TwoLevelComponent::MoveToMemtable(Level1* l, std::vector<MembufferEntry*>* entries) {
  thread_local std::vector<FloDBMemtable::Update> updates;
  if (entries->empty()) return 0;
  std::sort(entries->begin(), entries->end(), [](const MembufferEntry* a, const MembufferEntry* b) {
    return a->key().compare(b->key()) < 0;
  });
  updates.clear();
  for (const MembufferEntry* e : *entries) {
    updates.push_back({e->key(), e->sequence(), e->type(), e->value(), e->keep_older});
  }
  // Into the Memtable first, then out of the slot: a reader always finds the entry somewhere.
  if (options_.multi_insert) {
    memtable_.MultiApply(updates.data(), updates.size());
  } else {
    for (const auto& u : updates) memtable_.Apply(u);
  }
  for (MembufferEntry* e : *entries) {
    if (l->mbf->RemoveDrained(e)) epoch::Retire(e, &MembufferEntry::Free);
    // Otherwise an update replaced it in the meantime and retired it.
  }
  FloDBStats::Add(&stats_->drained_entries, entries->size());
  FloDBStats::Add(&stats_->drain_batches);
  return entries->size();
}

void TwoLevelComponent::DrainAll(Level1* l) {
  // l receives no more adds. Unmarked entries always have their bucket flagged (see
  // Membuffer::MarkOccupied), so chunks find them; entries other drainers have marked are
  // moved by them. Sweeping every bucket is only a fallback.
  const size_t partitions = l->mbf->partitions();
  for (int idle_rounds = 0; !l->mbf->IsEmpty();) {
    size_t moved = 0;
    for (size_t p = 0; p < partitions; p++) moved += DrainChunk(l, p, kDrainChunkEntries);
    if (moved != 0) {
      idle_rounds = 0;
    } else if (++idle_rounds > 1000) {
      for (size_t p = 0; p < partitions; p++) DrainPartition(l, p, /*sweep_all=*/true);
      idle_rounds = 0;
    } else {
      std::this_thread::yield();  // others are moving their marked entries
    }
  }
}

void TwoLevelComponent::DrainLoop() {
  // Idle: back off from 100 us to 5 ms between looks, so an idle DB costs next to nothing; a
  // burst that arrives meanwhile fills the Membuffer, whose writers then help drain.
  int idle_micros = 100;
  while (!stop_drainers_.load(std::memory_order_acquire)) {
    size_t moved = 0;
    {
      epoch::Guard guard;
      Level1* f = frozen_.load(std::memory_order_acquire);
      Level1* l = f != nullptr ? f : mbf_.load(std::memory_order_acquire);
      const Membuffer& m = *l->mbf;
      const size_t partitions = m.partitions();
      // Sweeping a partition costs a pass over its buckets, so drain one when it holds a batch
      // worth that pass (which also makes multi-insert batches longer), when the Membuffer is
      // half full, or always for a frozen one.
      const bool urgent = f != nullptr || m.EntryBytes() >= m.capacity() / 2;
      const int64_t batch_bytes = static_cast<int64_t>(m.PartitionCapacity() / 8);
      for (size_t i = 0; i < partitions; i++) {
        const size_t p = l->drain_cursor.fetch_add(1, std::memory_order_relaxed) % partitions;
        const int64_t entries = m.PartitionEntries(p);
        if (entries == 0) continue;
        if (urgent || entries >= kDrainBatchEntries || m.PartitionBytes(p) >= batch_bytes) {
          moved += DrainChunk(l, p, kDrainChunkEntries);
        }
      }
    }
    if (moved == 0) {
      std::unique_lock<std::mutex> lock(drain_mu_);
      drain_cv_.wait_for(lock, std::chrono::microseconds(idle_micros),
                         [this] { return stop_drainers_.load(); });
      idle_micros = std::min(idle_micros * 2, 5000);
    } else {
      idle_micros = 100;
    }
  }
}

bool TwoLevelComponent::Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) {
  epoch::Guard guard;
  if (options_.use_membuffer) {
    const uint64_t hash = Membuffer::HashKey(key);
    bool shadowed;
    // Order matters: a frozen Membuffer is published before the fresh one replaces it, so a
    // reader that finds the fresh one also finds the frozen one (or, once drained, nothing).
    Level1* l = mbf_.load(std::memory_order_acquire);
    if (l != nullptr && l->mbf->Get(key, hash, read_seq, result, &shadowed)) return true;
    Level1* f = frozen_.load(std::memory_order_acquire);
    if (f != nullptr && f->mbf->Get(key, hash, read_seq, result, &shadowed)) return true;
  }
  return memtable_.Get(key, read_seq, result);
}

SequenceNumber TwoLevelComponent::PrepareScan(bool allow_piggyback, bool* piggybacked) {
  *piggybacked = false;
  if (!options_.use_membuffer) return context_.last_sequence();
  const uint64_t started_before = masters_started_.load(std::memory_order_acquire);
  std::lock_guard<std::mutex> lock(scan_mu_);
  if (immutable_.load(std::memory_order_acquire)) return context_.last_sequence();  // drained
  if (allow_piggyback && masters_done_.load(std::memory_order_acquire) > started_before) {
    // A master that started after this call finished while we waited: share its sequence.
    *piggybacked = true;
    FloDBStats::Add(&stats_->scan_piggybacks);
    return master_sequence_.load(std::memory_order_acquire);
  }
  const uint64_t generation = masters_started_.fetch_add(1, std::memory_order_acq_rel) + 1;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Level1> fresh = NewLevel1();  // floor unset: refuses every add for now
  Level1* old = mbf_.load(std::memory_order_acquire);
  // Publish the frozen one before the fresh one (see Get), then read the counter after the
  // fresh one is installed: a writer whose sequence is above S loads the fresh Membuffer.
  frozen_.store(old, std::memory_order_seq_cst);
  Level1* fresh_raw = fresh.release();
  mbf_.store(fresh_raw, std::memory_order_seq_cst);
  const SequenceNumber s = context_.last_sequence();
  fresh_raw->mbf->SetFloor(s);
  // Writers still inside the old Membuffer finish their adds (short: no I/O in there).
  for (int spins = 0; !old->writers.Zero(); spins++) {
    if (spins < 100) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
  }
  {
    epoch::Guard guard;
    DrainAll(old);
  }
  frozen_.store(nullptr, std::memory_order_release);
  RetireLevel1(old);
  master_sequence_.store(s, std::memory_order_release);
  masters_done_.store(generation, std::memory_order_release);
  FloDBStats::Add(&stats_->scan_masters);
  FloDBStats::Add(&stats_->scan_drain_micros,
                  static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                            std::chrono::steady_clock::now() - start)
                                            .count()));
  return s;
}

void TwoLevelComponent::MarkImmutable() {
  StopDrainers();
  std::lock_guard<std::mutex> lock(scan_mu_);
  Level1* l = mbf_.load(std::memory_order_acquire);
  if (l != nullptr) {
    epoch::Guard guard;
    DrainAll(l);
  }
  // Only now: PrepareScan returns at once for an immutable component, so it must be drained.
  immutable_.store(true, std::memory_order_release);
}

std::unique_ptr<InternalIterator> TwoLevelComponent::NewIterator() {
  // Everything reachable: either MarkImmutable or PrepareScan drained the Membuffer. Once
  // immutable nothing changes any more, so the iterator may point into the versions.
  return memtable_.NewIterator(/*stable=*/immutable_.load(std::memory_order_acquire));
}

size_t TwoLevelComponent::ApproximateMemoryUsage() const {
  size_t total = memtable_.ApproximateMemoryUsage() + sizeof(*this);
  epoch::Guard guard;
  if (Level1* l = mbf_.load(std::memory_order_acquire)) total += l->mbf->ApproximateMemoryUsage();
  if (Level1* f = frozen_.load(std::memory_order_acquire)) {
    total += f->mbf->ApproximateMemoryUsage();
  }
  return total;
}

uint64_t TwoLevelComponent::NumEntries() const {
  uint64_t n = memtable_.NumVersions();
  epoch::Guard guard;
  if (Level1* l = mbf_.load(std::memory_order_acquire)) n += l->mbf->NumEntries();
  if (Level1* f = frozen_.load(std::memory_order_acquire)) n += f->mbf->NumEntries();
  return n;
}

}  // namespace sluice
