// memory/flodb/flodb_component.cc — see flodb_component.h for the design and the invariants.

#include "memory/flodb/flodb_component.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <thread>
#include <utility>

#include "memory/skiplist_rep.h"
#include "util/coding.h"
#include "util/cpu.h"
#include "util/epoch.h"
#include "util/radix_sort.h"
#include "util/spin_wait.h"
#include "util/sync_point.h"
#include "util/thread_slot.h"

namespace sluice {

int FloDBComponent::PhasedCount::Enter() {
  const uint32_t i = OwnedOrSharedIndex(kShards);
  for (;;) {
    const int phase = phase_.load(std::memory_order_seq_cst);
    // seq_cst increment (on an owned line a seq_cst store), then seq_cst re-check: if the phase
    // has not flipped by the time of the re-check, the flipper's scan of this phase's count
    // comes later and sees the increment.
    AddToOwnedOrShared<int64_t>(&shards_[phase][i].n, i, kShards, 1, std::memory_order_seq_cst);
    AddToOwnedOrShared<uint64_t>(&shards_[phase][i].enters, i, kShards, 1,
                                 std::memory_order_relaxed);
    if (phase_.load(std::memory_order_seq_cst) == phase) return phase;
    Exit(phase);
  }
}

void FloDBComponent::PhasedCount::Exit(int phase) {
  const uint32_t i = OwnedOrSharedIndex(kShards);
  // release: what the thread did inside happens-before a flipper that reads the decrement.
  AddToOwnedOrShared<int64_t>(&shards_[phase][i].n, i, kShards, -1, std::memory_order_release);
}

bool FloDBComponent::PhasedCount::Zero(int phase) const {
  int64_t sum = 0;
  // seq_cst: the flipper's phase store comes before these loads in the single total order
  // (Dekker with Enter's increment and re-check); they also acquire what the threads did
  // inside (pairs with Exit's release). The shared line may go negative for a moment (a
  // thread's exit is counted before another's entry); only the sum counts.
  for (const Shard& s : shards_[phase]) sum += s.n.load(std::memory_order_seq_cst);
  return sum == 0;
}

int FloDBComponent::PhasedCount::ThreadsEnteredSince(EnterCounts* seen) const {
  int threads = 0;
  for (uint32_t i = 0; i <= kShards; i++) {
    const uint64_t enters = shards_[0][i].enters.load(std::memory_order_relaxed) +
                            shards_[1][i].enters.load(std::memory_order_relaxed);
    if (enters != (*seen)[i]) threads++;
    (*seen)[i] = enters;
  }
  return threads;
}

void FloDBComponent::PhasedCount::FlipAndWait() {
  const int old = phase_.load(std::memory_order_relaxed);
  // seq_cst: ordered after everything the flipper published before (e.g. a raised floor).
  phase_.store(1 - old, std::memory_order_seq_cst);
  TEST_SYNC_POINT_CALLBACK("FloDBComponent::PhasedCount::FlipAndWait:Flipped", this);
  SpinWait([&] { return Zero(old); });  // as long as an add or a drain batch
}

namespace {

// One index slot (8 bytes) per 256 bytes of the budget: 3% of it, allocated once keys are
// updated in the sorted level. The index takes up to three quarters of its slots, a key per
// 341 bytes, which covers every key of a full component whose keys cost that much (a 256-byte
// value with its version and node); keys beyond that are found by searching the skiplist.
size_t NodeIndexSlotsFor(size_t write_buffer_size) { return write_buffer_size / 256; }

// The sorted level's key filter: 1/64 of the component's budget (1 MiB for 64 MiB), 16 bits or
// more per key for entries of 128 bytes or more; smaller entries get fewer bits per key and more
// false positives (a false positive costs the search the filter saves).
size_t KeyFilterBytesFor(size_t write_buffer_size) { return write_buffer_size / 64; }

}  // namespace

FloDBComponent::FloDBComponent(const FloDBOptions& options, const MemoryComponentContext& context,
                               std::shared_ptr<FloDBStats> stats)
    : options_(options),
      context_(context),
      stats_(stats != nullptr ? std::move(stats) : std::make_shared<FloDBStats>()),
      records_(ArenaBlockSizeFor(options.write_buffer_size)),
      memtable_(
          ArenaBlockSizeFor(options.write_buffer_size),
          [keeper = context.keeper](SequenceNumber older, SequenceNumber newer) {
            return keeper != nullptr && keeper->MustKeep(older, newer);
          },
          stats_.get(), &records_, NodeIndexSlotsFor(options.write_buffer_size),
          KeyFilterBytesFor(options.write_buffer_size)),
      mbf_(options.use_membuffer
               ? std::make_unique<Membuffer>(
                     std::max<size_t>(
                         static_cast<size_t>(static_cast<double>(options.write_buffer_size) *
                                             options.membuffer_fraction),
                         1024),
                     options.partition_bits, options.bucket_slots, &records_)
               : nullptr) {
  // The drain chains start with the first add into the Membuffer (ArmDrain).
  if (mbf_ != nullptr)
    drain_chains_.resize(static_cast<size_t>(std::max(1, options_.drain_threads)));
}

FloDBComponent::~FloDBComponent() {
  StopDrainers();
  // Nothing else runs now (the component is destroyed after a grace period); the Membuffer
  // frees the entries it still holds.
}

void FloDBComponent::StopDrainers() {
  // Drops the queued drain steps, waits for a running one; later ArmDrain calls are refused.
  drain_tasks_->Close();
}

void FloDBComponent::ArmDrain() {
  bool expected = false;
  // seq_cst: see drain_armed_.
  if (!drain_armed_.compare_exchange_strong(expected, true, std::memory_order_seq_cst)) return;
  const size_t chains = drain_chains_.size();
  live_chains_.store(chains, std::memory_order_relaxed);  // no chain runs (armed was false)
  for (size_t i = 0; i < chains; i++) {
    drain_tasks_->Schedule(TaskScheduler::Pool::kDrain, [this, i] { DrainStep(i); });
  }
}

void FloDBComponent::Add(SequenceNumber seq, ValueType type, const Slice& key, const Slice& value,
                         bool keep_older) {
  const SortedLevel::Update update{key, seq, type, value, keep_older};
  if (mbf_ == nullptr || immutable_.load(std::memory_order_acquire)) {
    FloDBStats::Add(&stats_->memtable_direct);
    memtable_.Apply(update);
    return;
  }
  epoch::Guard guard;
  const uint64_t hash = Membuffer::HashKey(key);
  mbf_->PrefetchBucket(key, hash);  // arrives while the entry is made
  MembufferEntry* entry = mbf_->NewEntry(hash, seq, type, key, value);
  // Then the key's old entry, if any, arrives while this thread enters writers_ and locks
  // the bucket.
  mbf_->PrefetchEntryFor(key, hash);
  entry->keep_older = keep_older;
  Membuffer::AddResult result;
  // relaxed: see for_scans_.
  const bool for_scans = for_scans_.load(std::memory_order_relaxed);
  for (bool helped = for_scans;;) {
    MembufferEntry* displaced = nullptr;
    // Inside writers_ while the add may read the floor: a scan that raises it waits for us.
    const int phase = writers_.Enter();
    result = mbf_->Add(
        entry,
        [this](const MembufferEntry& old, const MembufferEntry& fresh) {
          return context_.keeper != nullptr &&
                 context_.keeper->MustKeep(old.sequence(), fresh.sequence());
        },
        [this](const MembufferEntry& old) {
          FloDBStats::Add(&stats_->pushed_down);
          memtable_.Apply({old.key(), old.sequence(), old.type(), old.value(), old.keep_older});
        },
        &displaced, /*retry_if_full=*/!helped);
    writers_.Exit(phase);
    // A displaced entry left its slot under the bucket lock; readers may still hold it. One a
    // drainer marked is the drainer's (it links it below): its flag was set under the lock
    // that the add took after it, so this load sees it.
    if (displaced != nullptr && !displaced->draining.load(std::memory_order_relaxed)) {
      mbf_->RetireEntry(displaced);
    }
    if (result == Membuffer::AddResult::kAdded) {
      FloDBStats::Add(&stats_->membuffer_adds);
      // seq_cst, after the partition count's seq_cst increment: see drain_armed_.
      if (!drain_armed_.load(std::memory_order_seq_cst)) ArmDrain();
      return;
    }
    if (result == Membuffer::AddResult::kReplaced) {
      FloDBStats::Add(&stats_->membuffer_in_place);
      return;
    }
    if (result == Membuffer::AddResult::kFull && !helped) {
      // The byte budget is spent: rather than one costly single insert into the sorted level,
      // help the drain with a chunk of this partition (multi-insert: a fraction of the cost per
      // entry), then retry once; that retry is the final attempt. Not for a full bucket
      // (kBucketFull): a chunk rarely holds its entries, so the retry would fail again and the
      // chunk would be moved for nothing. Such a bucket holds more keys than its slots (a few
      // buckets of a large Membuffer do, by chance); a key that finds it full goes below.
      helped = true;
      FloDBStats::Add(&stats_->overflow_helps);
      DrainChunk(mbf_->PartitionOf(key), kHelpChunkEntries);
      continue;
    }
    break;
  }
  mbf_->FreeEntry(entry);  // never published
  switch (result) {
    case Membuffer::AddResult::kFull:
      FloDBStats::Add(for_scans ? &stats_->memtable_for_scans : &stats_->memtable_full);
      break;
    case Membuffer::AddResult::kBucketFull: FloDBStats::Add(&stats_->memtable_full); break;
    case Membuffer::AddResult::kLate: FloDBStats::Add(&stats_->memtable_late); break;
    default: FloDBStats::Add(&stats_->memtable_overtaken); break;
  }
  ApplyBelow(update);
}

void FloDBComponent::PrefetchForAdd(const Slice& key) {
  // The bucket is the add's first cache miss (its lock); fetched this early, it has arrived
  // by the time the add locks it.
  if (mbf_ != nullptr) mbf_->PrefetchBucket(key, Membuffer::HashKey(key));
}

void FloDBComponent::PrefetchForGet(const Slice& key) {
  // A Get's first misses: the key's bucket, then the sorted level's filter.
  const uint64_t hash = Membuffer::HashKey(key);
  if (mbf_ != nullptr) mbf_->PrefetchBucket(key, hash);
  memtable_.PrefetchForGet(hash);
}

size_t FloDBComponent::DrainChunk(size_t partition, size_t max_entries, SequenceNumber max_seq) {
  thread_local std::vector<MembufferEntry*> entries;
  entries.clear();
  const int phase = drain_batches_.Enter();
  mbf_->CollectChunk(partition, max_entries, &entries, max_seq);
  TEST_SYNC_POINT_CALLBACK("FloDBComponent::DrainChunk:Collected", &entries);
  const size_t moved = MoveToSortedLevel(&entries);
  drain_batches_.Exit(phase);
  return moved;
}

size_t FloDBComponent::MoveToSortedLevel(std::vector<MembufferEntry*>* entries) {
  if (entries->empty()) return 0;
  // Sorted by key: a radix sort by the keys' 8-byte prefixes, then, within each run of equal
  // prefixes (keys longer than 8 bytes that share them), by the whole key.
  thread_local std::vector<std::pair<uint64_t, MembufferEntry*>> order, scratch;
  order.clear();
  constexpr size_t kPrefetchAhead = 8;  // entries (and, below, buckets) fetched ahead
  for (size_t i = 0; i < entries->size(); i++) {
    if (i + kPrefetchAhead < entries->size()) __builtin_prefetch((*entries)[i + kPrefetchAhead]);
    order.emplace_back(KeyPrefix64((*entries)[i]->key()), (*entries)[i]);
  }
  RadixSortByKey(&order, &scratch);
  for (size_t begin = 0, end; begin < order.size(); begin = end) {
    for (end = begin + 1; end < order.size() && order[end].first == order[begin].first; end++) {
    }
    if (end - begin > 1) {
      std::sort(order.begin() + begin, order.begin() + end, [](const auto& a, const auto& b) {
        return a.second->key().compare(b.second->key()) < 0;
      });
    }
  }
  thread_local std::vector<FloDBRecord*> sorted, dropped;
  sorted.clear();
  dropped.clear();
  for (const auto& [prefix, e] : order) sorted.push_back(e);
  // Sequence lock for NumEntries: the release fence orders the count before the moves below,
  // pairing with NumEntries' acquire fence; the release increment of moves_finished_ after
  // them pairs with its acquire load.
  moves_started_.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  // Into the sorted level first, then out of the slot: a reader always finds the entry somewhere.
  // The records go below as they are; this drainer marked them, so no writer retires them.
  if (options_.multi_insert) {
    memtable_.MultiLink(sorted.data(), sorted.size(), &dropped);
  } else {
    for (FloDBRecord* r : sorted) {
      if (!memtable_.Link(r)) dropped.push_back(r);
    }
  }
  TEST_SYNC_POINT_CALLBACK("FloDBComponent::MoveToSortedLevel:Linked", entries);
  // The buckets (and the entries, whose keys lead to them) were last read long enough ago to
  // be out of the cache for a large batch: fetch a few ahead, the entries twice as far.
  for (size_t i = 0; i < entries->size(); i++) {
    if (i + 2 * kPrefetchAhead < entries->size()) {
      __builtin_prefetch((*entries)[i + 2 * kPrefetchAhead]);
    }
    if (i + kPrefetchAhead < entries->size()) {
      mbf_->PrefetchBucketOf((*entries)[i + kPrefetchAhead]);
    }
    // Linked records now belong to the sorted level, whether this removes them or an update
    // displaced them meanwhile (and left them to us).
    mbf_->RemoveDrained((*entries)[i]);
  }
  TEST_SYNC_POINT_CALLBACK("FloDBComponent::MoveToSortedLevel:Removed", &dropped);
  // Dropped records are out of their slots now, and out of every chain: ours to retire.
  for (FloDBRecord* r : dropped) mbf_->RetireEntry(r);
  moves_finished_.fetch_add(1, std::memory_order_release);
  FloDBStats::Add(&stats_->drained_entries, entries->size());
  FloDBStats::Add(&stats_->drain_batches);
  return entries->size();
}

void FloDBComponent::DrainUpTo(SequenceNumber max_seq) {
  // From here on no add <= max_seq enters the Membuffer; writers that read the old floor have
  // finished (and flagged their buckets) once the flip's wait returns.
  mbf_->RaiseFloor(max_seq);
  writers_.FlipAndWait();
  epoch::Guard guard;
  // An unmarked entry <= max_seq always has its bucket flagged in the occupancy bitmap, or sits
  // in a bucket whose flag a drain batch in flight has just cleared (see Membuffer's
  // MarkOccupied): so once a round over every partition finds nothing, the rest is being moved
  // by batches that started before the flip below, and the wait covers them.
  for (size_t moved = 1; moved != 0;) {
    moved = 0;
    for (size_t p = 0; p < mbf_->partitions(); p++) {
      // An empty partition is skipped without reading its bitmap (a scan while writes bypass
      // the Membuffer would otherwise read all of it). Sound: an add's increment of its
      // partition's count (under the bucket lock, inside its writer's section) happens-before
      // the flip's wait above returned, and the count drops only once the entry has left the
      // Membuffer (RemoveDrained, or pushed below under the lock); counts change by read-
      // modify-writes, so a zero read here means every entry <= max_seq of the partition has
      // left its slot (for the sorted level, or in a batch the final wait covers).
      if (mbf_->PartitionEntries(p) <= 0) continue;
      moved += DrainChunk(p, kDrainChunkEntries, max_seq);
    }
  }
  drain_batches_.FlipAndWait();
}

void FloDBComponent::DrainStep(size_t chain_index) {
  // One look over the partitions, then the chain's next step is queued: at once if this one
  // moved entries, else after a back-off from 100 us to 5 ms, so a Membuffer that is filling
  // slowly costs little; a burst that arrives meanwhile fills the Membuffer, whose writers
  // then help drain. Once writes have stopped and the Membuffer is empty the chain ends (the
  // next add starts it again: ArmDrain), so an idle component costs no drain work at all.
  DrainChain& chain = drain_chains_[chain_index];
  Membuffer& m = *mbf_;
  const size_t partitions = m.partitions();
  TEST_SYNC_POINT("FloDBComponent::DrainStep:Look");
  size_t moved = 0;
  bool quiet = false;
  {
    epoch::Guard guard;
    // Draining early: a partition is drained once it holds an eighth of its share of the
    // budget (or when the whole Membuffer is half full). Entries stay long enough to absorb
    // some updates in place, a batch is large enough that its multi-insert shares most of
    // each path, and buckets stay nearly empty, so an add rarely has another entry's key to
    // compare (a cache miss each in a large Membuffer). The drain steps do the sorted level's
    // work on cores that the writers leave idle.
    // Holding (DecidePolicy): when the writers and drain chains outnumber the cores, that work
    // is taken from the writers. Then, if updates find their key in the Membuffer often
    // enough, the budget grows to half the component and partitions are drained only at
    // three quarters of their share (or the whole at seven eighths): most updates complete
    // in place and never move at all.
    // When no write has come for kDrainQuietAfter, whatever is left is drained, so a quiet
    // Membuffer empties (and a scan then has little to drain). Not sooner: a component written
    // slowly but steadily (one of many column families) would otherwise look quiet between
    // two writes at every look and be drained a few entries at a time.
    const uint64_t writes = stats_->Writes();
    const auto now = std::chrono::steady_clock::now();
    if (writes != chain.writes_seen) {
      chain.writes_seen = writes;
      chain.last_write_seen = now;
    }
    quiet = now - chain.last_write_seen >= kDrainQuietAfter;
    DecidePolicy(now, &chain.window);
    const bool hold = chain.window.hold;
    // For scans: a budget of 0 sends every new key below (Membuffer::Add refuses it as
    // kFull), and drains whatever the Membuffer holds at once.
    const size_t budget = chain.window.for_scans ? 0
                          : hold ? std::max(m.capacity(), options_.write_buffer_size / 2)
                                 : m.capacity();
    if (m.budget() != budget) m.SetBudget(budget);
    const bool urgent = m.EntryBytes() >= (hold ? budget / 8 * 7 : budget / 2);
    const auto batch_bytes =
        static_cast<int64_t>(hold ? m.PartitionBudget() / 4 * 3 : m.PartitionBudget() / 8);
    for (size_t i = 0; i < partitions; i++) {
      const size_t p = drain_cursor_.fetch_add(1, std::memory_order_relaxed) % partitions;
      if (m.PartitionEntries(p) == 0) continue;
      if (quiet || urgent || m.PartitionBytes(p) >= batch_bytes) {
        moved += DrainChunk(p, kDrainChunkEntries);
      }
    }
  }
  if (moved > 0) {
    chain.idle_micros = kDrainMinIdleMicros;
    drain_tasks_->Schedule(TaskScheduler::Pool::kDrain,
                           [this, chain_index] { DrainStep(chain_index); });
    return;
  }
  if (quiet && m.NumEntries() == 0) {
    // The chain ends. The last one to end disarms, then looks once more: an add that read
    // drain_armed_ as true before the store found a chain running; one that comes after reads
    // false and arms (seq_cst pairing: see drain_armed_). chain is not touched from here on:
    // a new chain with its index may start at once.
    chain.idle_micros = kDrainMinIdleMicros;
    if (live_chains_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      // The policy the chains decided ends with them (no chain would revise it): adds go to
      // the Membuffer again, within its own capacity, and the first one restarts the chains.
      // relaxed: see for_scans_.
      for_scans_.store(false, std::memory_order_relaxed);
      if (m.budget() != m.capacity()) m.SetBudget(m.capacity());
      drain_armed_.store(false, std::memory_order_seq_cst);
      if (m.AnyEntriesSeqCst()) ArmDrain();
    }
    return;
  }
  const auto wait = std::chrono::microseconds(chain.idle_micros);
  chain.idle_micros = std::min(chain.idle_micros * 2, kDrainMaxIdleMicros);
  drain_tasks_->ScheduleAfter(TaskScheduler::Pool::kDrain, wait,
                              [this, chain_index] { DrainStep(chain_index); });
}

void FloDBComponent::DecidePolicy(std::chrono::steady_clock::time_point now, DrainWindow* w) {
  if (now - w->start < kDrainWindow) return;
  static const int hardware_threads =
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int cores = options_.cores > 0 ? options_.cores : hardware_threads;
  const uint64_t writes = stats_->Writes();
  const uint64_t in_place = stats_->membuffer_in_place.Get();
  const uint64_t masters = stats_->scan_masters.Get();
  const int writers = writers_.ThreadsEnteredSince(&w->writers_seen);
  // Not while scans drain: each would move whatever the Membuffer holds.
  const bool scanned = masters != w->masters;
  const uint64_t window_writes = writes - w->writes;
  const uint64_t window_in_place = in_place - w->in_place;
  w->hold = writers + std::max(1, options_.drain_threads) > cores && !scanned &&
            window_writes > 0 && window_in_place * kHoldInPlaceShare >= window_writes;
  w->for_scans = scanned;
  // relaxed: see for_scans_.
  for_scans_.store(scanned, std::memory_order_relaxed);
  FloDBStats::Add(&stats_->drain_windows);
  if (w->hold) FloDBStats::Add(&stats_->hold_windows);
  if (w->for_scans) FloDBStats::Add(&stats_->scan_windows);
  w->start = now;
  w->writes = writes;
  w->in_place = in_place;
  w->masters = masters;
}

bool FloDBComponent::Get(const Slice& key, SequenceNumber read_seq, MemoryLookup* result) {
  epoch::Guard guard;
  const uint64_t hash = Membuffer::HashKey(key);  // the same hash indexes the sorted level
  // An immutable component's Membuffer was drained (MarkImmutable) and takes no more adds.
  if (mbf_ != nullptr && !immutable_.load(std::memory_order_acquire)) {
    bool shadowed;
    if (mbf_->Get(key, hash, read_seq, result, &shadowed)) return true;
  }
  return memtable_.Get(key, hash, read_seq, result);
}

SequenceNumber FloDBComponent::PrepareScan(bool allow_piggyback, bool* piggybacked) {
  *piggybacked = false;
  if (mbf_ == nullptr) return context_.announced_sequence();
  const uint64_t started_before = masters_started_.load(std::memory_order_acquire);
  MutexLock lock(&scan_mu_);
  if (immutable_.load(std::memory_order_acquire)) return context_.announced_sequence();  // drained
  if (allow_piggyback && masters_done_.load(std::memory_order_acquire) > started_before) {
    // A master that started after this call finished while we waited: share its sequence.
    *piggybacked = true;
    FloDBStats::Add(&stats_->scan_piggybacks);
    return master_sequence_.load(std::memory_order_acquire);
  }
  const uint64_t generation = masters_started_.fetch_add(1, std::memory_order_acq_rel) + 1;
  const auto start = std::chrono::steady_clock::now();
  // Announced first: an update that replaces a version <= s in place before the floor reaches
  // s pushes that version below, where the scan reads it (Membuffer::BeginFloorRaise).
  mbf_->BeginFloorRaise();
  // seq_cst (inside announced_sequence): read after the announcement and before the floor is
  // raised, so a writer whose sequence number is <= s either reads the raised floor or is
  // waited for (DrainUpTo).
  const SequenceNumber s = context_.announced_sequence();
  TEST_SYNC_POINT("FloDBComponent::PrepareScan:SequenceRead");
  DrainUpTo(s);
  master_sequence_.store(s, std::memory_order_release);
  masters_done_.store(generation, std::memory_order_release);
  FloDBStats::Add(&stats_->scan_masters);
  FloDBStats::Add(&stats_->scan_drain_micros,
                  static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                            std::chrono::steady_clock::now() - start)
                                            .count()));
  return s;
}

void FloDBComponent::MarkImmutable() {
  StopDrainers();
  MutexLock lock(&scan_mu_);
  // Every add goes below from now on; everything in the Membuffer is drained.
  if (mbf_ != nullptr) {
    DrainUpTo(kMaxSequenceNumber);
    // Nothing can be left: a flush iterates the sorted level only.
    assert(mbf_->NumEntries() == 0);
  }
  // Only now: PrepareScan returns at once for an immutable component, so it must be drained.
  immutable_.store(true, std::memory_order_release);
}

std::unique_ptr<InternalIterator> FloDBComponent::NewIterator() {
  // Everything reachable: either MarkImmutable or PrepareScan drained the Membuffer. Once
  // immutable nothing changes any more, so the iterator may point into the versions.
  return memtable_.NewIterator(/*stable=*/immutable_.load(std::memory_order_acquire));
}

size_t FloDBComponent::ApproximateMemoryUsage() const {
  // The sorted level counts the records' pool, which holds the Membuffer's entries too.
  size_t total = memtable_.ApproximateMemoryUsage() + sizeof(*this);
  if (mbf_ != nullptr) total += mbf_->TableBytes();
  return total;
}

uint64_t FloDBComponent::LevelCountSum() const {
  // Membuffer first: a drained entry is counted in the sorted level before it leaves the
  // Membuffer (MoveToSortedLevel), and the Membuffer's count drops with a release that the
  // acquire loads in Membuffer::NumEntries pair with. Reading the sorted level first could miss an
  // entry in transit in both counts, and the DB would think a non-empty component empty (and
  // skip flushing it). An entry in transit may be in both counts instead.
  return (mbf_ != nullptr ? mbf_->NumEntries() : 0) + memtable_.NumVersions();
}

bool FloDBComponent::HasEntries() const { return LevelCountSum() > 0; }

uint64_t FloDBComponent::NumEntries() const {
  // The sum is exact when no move ran during the reads: a sequence lock over
  // moves_started_/moves_finished_. While a move is in flight, wait for a gap between moves.
  // Once writers have stopped the drain empties the Membuffer in a finite number of batches,
  // so there is one, however slowly the drain runs (a sanitizer, a loaded machine): the wait
  // gives up early (after about 20 ms) only if writes arrived meanwhile, when the figure is
  // approximate anyway, and then returns the sum, which may count one batch's entries twice.
  // A last bound of a second keeps a stalled drain thread from holding the caller.
  const auto start = std::chrono::steady_clock::now();
  const uint64_t writes_at_start = stats_->Writes();
  uint64_t sum = 0;
  for (uint64_t attempt = 0;; attempt++) {
    // acquire: every move counted as finished has its counts visible below.
    const uint64_t finished = moves_finished_.load(std::memory_order_acquire);
    const uint64_t started = moves_started_.load(std::memory_order_relaxed);
    sum = LevelCountSum();
    // acquire fence: had the reads above seen a move that started after `started`, the load
    // below sees its increment (the mover's release fence precedes its writes).
    std::atomic_thread_fence(std::memory_order_acquire);
    if (started == finished && moves_started_.load(std::memory_order_relaxed) == started) {
      return sum;
    }
    if (attempt % 16 != 15) {
      CpuRelax();
      continue;
    }
    std::this_thread::yield();  // the drainer may need this core
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited > std::chrono::seconds(1)) return sum;
    if (waited > std::chrono::milliseconds(20) && stats_->Writes() != writes_at_start) return sum;
  }
}

}  // namespace sluice
