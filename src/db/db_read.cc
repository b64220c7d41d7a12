// db/db_read.cc — the read path (Get, iterators, snapshots).
//
// Get takes no lock and never waits: inside an epoch section it searches the current
// SuperVersion top-down (mutable component, immutable ones newest first, then SST files) and
// stops at the first version with sequence <= its read point. Without a snapshot the read point
// is "latest", and a version belonging to a multi-entry batch still being applied is skipped
// (the read continues with the next older version), so batches appear atomically.

#include <algorithm>
#include <cassert>

#include "base/merging_iterator.h"
#include "db/db_impl.h"
#include "db/db_iter.h"
#include "util/epoch.h"
#include "util/logging.h"
#include "util/sync_point.h"

namespace sluice {

Status DBImpl::Get(const ReadOptions& options, ColumnFamilyHandle* family, const Slice& key,
                   std::string* value) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status s = FamilyOf(family, "Get", &cfd);
  if (!s.ok()) return s;
  DBStats::Add(&stats_.gets, 1);
  epoch::Guard guard;
  s = GetFromSuperVersion(cfd->super_version.load(std::memory_order_acquire), options, key, value,
                          nullptr);
  if (s.ok()) DBStats::Add(&stats_.get_hits, 1);
  return s;
}

Status DBImpl::GetFromMemory(SuperVersion* sv, const Slice& key, bool latest,
                             SequenceNumber* read_seq, std::string* value,
                             SequenceNumber* skipped_batch, bool* done, SequenceNumber* covering) {
  assert(epoch::InSection());  // sv and everything it holds stay alive only inside one
  // Range tombstones are judged at the read point the read started with (a latest read passes
  // over those of batches still in flight, as over their versions).
  const SequenceNumber tombstone_seq = *read_seq;
  auto in_flight = [&](SequenceNumber t) { return latest && oracle_.IsBatchInFlight(t); };
  SequenceNumber found = 0;  // the version that answered, if a component had one
  auto search = [&](LoggedComponent* mem) -> Status {
    // This component's tombstones first: they may hide the version it holds.
    if (const RangeTombstoneSet::Indexes* t = mem->component->range_tombstones().Current()) {
      *covering = std::max(*covering, t->MaxCoveringSequence(key, tombstone_seq, in_flight));
    }
    MemoryLookup r;
    while (mem->component->Get(key, *read_seq, &r)) {
      assert(r.sequence <= *read_seq);  // MemoryComponent::Get's contract
      if (latest && oracle_.IsBatchInFlight(r.sequence)) {
        if (skipped_batch != nullptr) *skipped_batch = r.sequence;
        assert(r.sequence > 0);
        *read_seq = r.sequence - 1;  // not visible yet: look at older versions
        continue;
      }
      *done = true;
      found = r.sequence;
      if (r.type == kTypeDeletion || r.sequence < *covering) return Status::NotFound(Slice());
      *value = std::move(r.value);
      return Status::OK();
    }
    return Status::OK();
  };
  *done = false;
  Status s = search(sv->mem.get());
  for (size_t i = 0; !*done && i < sv->imms.size(); i++) s = search(sv->imms[i].get());
  // What decided the answer (a version, a tombstone hiding one) may belong to a write that has
  // not announced yet: it takes effect now, before the read returns (SequenceOracle's
  // linearizable read points). A read at a snapshot finds only announced writes.
  if (latest) oracle_.EnsureAnnounced(std::max(found, *covering));
  return s;
}

Status DBImpl::GetFromSuperVersion(SuperVersion* sv, const ReadOptions& options, const Slice& key,
                                   std::string* value, SequenceNumber* skipped_batch) {
  assert(sv != nullptr && sv->mem != nullptr && sv->version != nullptr);
  const bool latest = options.snapshot == nullptr;
  const SequenceNumber start_seq = latest ? kMaxSequenceNumber : options.snapshot->sequence();
  SequenceNumber read_seq = start_seq;
  SequenceNumber covering = 0;
  bool done = false;
  Status s = GetFromMemory(sv, key, latest, &read_seq, value, skipped_batch, &done, &covering);
  if (!done) {
    TableLookup r;
    bool found = false;
    s = sv->version->Get(options, LookupKey(key, read_seq), table_cache_.get(), &r, &found);
    // SST tombstones are older than every memory component's versions: they matter only for
    // a version found in the files.
    if (s.ok() && found && r.type != kTypeDeletion) {
      s = sv->version->MaxCoveringTombstone(key, start_seq, table_cache_.get(), &covering);
    }
    if (s.ok()) {
      if (!found || r.type == kTypeDeletion || r.sequence < covering) {
        s = Status::NotFound(Slice());
      } else {
        *value = std::move(r.value);
      }
    }
  }
  return s;
}

namespace {

// An iterator that can only report an error.
class ErrorIterator final : public Iterator {
 public:
  explicit ErrorIterator(Status s) : s_(std::move(s)) {}
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

 private:
  Status s_;
};

// Watches the mutable component's entries for a FloDB scan: a version newer than the scan's
// sequence number means a version the scan needs may have been replaced in place.
class NewerVersionGuard final : public InternalIterator {
 public:
  NewerVersionGuard(std::unique_ptr<InternalIterator> target, SequenceNumber seq,
                    std::string* newer_key, bool* newer_seen)
      : target_(std::move(target)), seq_(seq), newer_key_(newer_key), newer_seen_(newer_seen) {}

  bool Valid() const override { return target_->Valid(); }
  void SeekToFirst() override {
    target_->SeekToFirst();
    Check();
  }
  void SeekToLast() override {
    target_->SeekToLast();
    Check();
  }
  void Seek(const Slice& t) override {
    target_->Seek(t);
    Check();
  }
  void Next() override {
    target_->Next();
    Check();
  }
  void Prev() override {
    target_->Prev();
    Check();
  }
  Slice key() const override { return target_->key(); }
  Slice value() const override { return target_->value(); }
  Status status() const override { return target_->status(); }

 private:
  void Check() {
    if (*newer_seen_ || !target_->Valid()) return;
    if (ExtractSequence(target_->key()) > seq_) {
      *newer_seen_ = true;
      const Slice user_key = ExtractUserKey(target_->key());
      newer_key_->assign(user_key.data(), user_key.size());
    }
  }

  std::unique_ptr<InternalIterator> target_;
  const SequenceNumber seq_;
  std::string* const newer_key_;
  bool* const newer_seen_;
};

// A DB iterator that also releases a registration (the snapshot that protects its versions
// from in-place replacement) when it is destroyed.
class RegisteredIterator final : public Iterator {
 public:
  RegisteredIterator(std::unique_ptr<Iterator> target, SnapshotList* list, const Snapshot* reg)
      : target_(std::move(target)), list_(list), reg_(reg) {}
  ~RegisteredIterator() override {
    target_.reset();
    list_->Release(reg_);
  }
  bool Valid() const override { return target_->Valid(); }
  void SeekToFirst() override { target_->SeekToFirst(); }
  void SeekToLast() override { target_->SeekToLast(); }
  void Seek(const Slice& t) override { target_->Seek(t); }
  void SeekForPrev(const Slice& t) override { target_->SeekForPrev(t); }
  void Next() override { target_->Next(); }
  void Prev() override { target_->Prev(); }
  Slice key() const override { return target_->key(); }
  Slice value() const override { return target_->value(); }
  Status status() const override { return target_->status(); }

 private:
  std::unique_ptr<Iterator> target_;
  SnapshotList* const list_;
  const Snapshot* const reg_;
};

}  // namespace

MemoryComponentContext DBImpl::ComponentContext() {
  MemoryComponentContext c;
  c.keeper = &replacement_keeper_;
  c.announced_sequence = [this] { return oracle_.AnnouncedSequence(); };
  return c;
}

SequenceNumber DBImpl::PrepareScan(SuperVersion* sv, bool allow_piggyback) {
  assert(epoch::InSection());
  // A linearizable read point (SequenceOracle::LinearizablePoint): it covers every write a
  // reader may have seen (all are announced), not the writes still being logged or inserted,
  // which the scan is ordered before and so need not wait for.
  const SequenceNumber seq = oracle_.LinearizablePoint([&](SequenceNumber cap, bool first) {
    bool piggybacked = false;
    // Each component makes every version <= the number its PrepareScan returns reachable, so
    // the read point is the smallest of them. Not just the mutable one's: a write that drew
    // its number before the switch may still be inserting into an older component after that
    // component was prepared, with a number above what it returned (it announces later), and
    // an entry of it the drain has not moved yet is invisible to the iterator. With a read
    // point above such a write's number, an iterator saw some of a batch's keys and not others.
    SequenceNumber p = cap;
    for (auto it = sv->imms.rbegin(); it != sv->imms.rend(); ++it) {
      p = std::min(p, (*it)->component->PrepareScan(/*allow_piggyback=*/first, &piggybacked));
    }
    TEST_SYNC_POINT("DBImpl::PrepareScan:OlderComponentsPrepared");
    p = std::min(p, sv->mem->component->PrepareScan(allow_piggyback && first, &piggybacked));
    p = std::min(p, oracle_.AnnouncedSequence());
    // Every write at or below p is then in a component we read, or about to be: wait for it.
    oracle_.WaitForWritesUpTo(p);
    return p;
  });
  assert(seq <= oracle_.LastSequence());
  return seq;
}

bool DBImpl::ReadPointCovered(const ColumnFamilyData* cfd, const SuperVersion* sv) {
  // acquire, after the read point was chosen: a write at or below it has completed, and it
  // reserved on a component installed (release) before that.
  return cfd->super_version.load(std::memory_order_acquire)->mem == sv->mem;
}

std::vector<std::unique_ptr<InternalIterator>> DBImpl::NewInternalIterators(
    SuperVersion* sv, const ReadOptions& options, SequenceNumber guard_seq, std::string* newer_key,
    bool* newer_seen) {
  assert(epoch::InSection());  // sv is pinned by the section until the iterators pin its parts
  assert((newer_seen == nullptr) == (newer_key == nullptr));
  std::vector<std::unique_ptr<InternalIterator>> children;
  auto add_mem = [&](const std::shared_ptr<LoggedComponent>& m, bool guard) {
    std::unique_ptr<InternalIterator> it = m->component->NewIterator();
    if (guard) {
      it = std::make_unique<NewerVersionGuard>(std::move(it), guard_seq, newer_key, newer_seen);
    }
    std::shared_ptr<LoggedComponent> pin = m;
    it->RegisterCleanup([pin]() mutable { pin.reset(); });
    children.push_back(std::move(it));
  };
  add_mem(sv->mem, newer_seen != nullptr);
  for (const auto& imm : sv->imms) add_mem(imm, false);
  std::shared_ptr<const Version> version = sv->version;
  const size_t first_table = children.size();
  // The children outlive the caller's bound Slices (the DBIter keeps copies and applies them),
  // so none of them may see the pointers.
  ReadOptions child_options = options;
  child_options.iterate_lower_bound = nullptr;
  child_options.iterate_upper_bound = nullptr;
  version->AddIterators(child_options, table_cache_.get(), &children);
  if (children.size() > first_table) {
    children[first_table]->RegisterCleanup([version]() mutable { version.reset(); });
  }
  return children;
}

Status DBImpl::NewRangeDelCheck(SuperVersion* sv, SequenceNumber seq,
                                std::unique_ptr<RangeDelCheck>* result) {
  assert(epoch::InSection());
  result->reset();
  auto check = std::make_unique<RangeDelCheck>(seq);
  auto add = [&](const LoggedComponent& c) {
    if (const RangeTombstoneSet::Indexes* t = c.component->range_tombstones().Current()) {
      check->Add(t->base);
      check->Add(t->delta);
    }
  };
  add(*sv->mem);
  for (const auto& imm : sv->imms) add(*imm);
  Status s = sv->version->AddRangeTombstones(table_cache_.get(), check.get());
  if (s.ok() && !check->empty()) *result = std::move(check);
  return s;
}

std::unique_ptr<Iterator> DBImpl::NewIterator(const ReadOptions& options,
                                              ColumnFamilyHandle* family) {
  if (closed_.load(std::memory_order_acquire)) {
    return std::make_unique<ErrorIterator>(Status::InvalidArgument(dbname_, "database is closed"));
  }
  ColumnFamilyData* cfd = nullptr;
  Status family_status = FamilyOf(family, "NewIterator", &cfd);
  if (!family_status.ok()) return std::make_unique<ErrorIterator>(family_status);
  epoch::Guard guard;
  SuperVersion* sv;
  SequenceNumber seq;
  const Snapshot* registration = nullptr;
  for (;;) {
    sv = cfd->super_version.load(std::memory_order_acquire);
    const bool in_place = sv->mem->component->ReplacesInPlace();
    if (options.snapshot != nullptr) {
      // The snapshot protects its versions; only make them reachable by the iterators. Its
      // writes completed before sv was loaded, so sv holds them.
      seq = options.snapshot->sequence();
      if (in_place) PrepareScan(sv, /*allow_piggyback=*/true);
      break;
    }
    if (in_place) {
      // Register before choosing the sequence number, so nothing the iterator needs is
      // replaced in place while it lives (see SnapshotList).
      registration = snapshots_.CreateProtected([&] { return PrepareScan(sv, true); });
      seq = registration->sequence();
    } else {
      // The read point is chosen after the components are pinned (sv).
      seq = oracle_.SnapshotSequence(options_.linearizable_snapshots);
    }
    if (ReadPointCovered(cfd, sv)) break;
    if (registration != nullptr) snapshots_.Release(registration);
    registration = nullptr;
  }
  assert(seq <= oracle_.LastSequence());
  // Every write at or below seq is complete: so are its range tombstones, taken now.
  std::unique_ptr<RangeDelCheck> range_dels;
  Status s = NewRangeDelCheck(sv, seq, &range_dels);
  if (!s.ok()) {
    if (registration != nullptr) snapshots_.Release(registration);
    return std::make_unique<ErrorIterator>(s);
  }
  ChargeLevel0Scan(cfd, *sv->version);
  std::unique_ptr<Iterator> it =
      NewDBIterator(NewMergingIterator(DefaultInternalKeyComparator(),
                                       NewInternalIterators(sv, options, 0, nullptr, nullptr)),
                    seq, options, std::move(range_dels));
  if (registration == nullptr) return it;
  return std::make_unique<RegisteredIterator>(std::move(it), &snapshots_, registration);
}

Status DBImpl::ScanWithIterator(const ReadOptions& options, ColumnFamilyHandle* family,
                                const Slice& start, const Slice& end, size_t limit,
                                std::vector<std::pair<std::string, std::string>>* result) {
  std::unique_ptr<Iterator> it = NewIterator(options, family);
  for (it->Seek(start); it->Valid() && result->size() < limit; it->Next()) {
    if (!end.empty() && it->key().compare(end) >= 0) break;
    result->emplace_back(it->key().ToString(), it->value().ToString());
  }
  return it->status();
}

Status DBImpl::Scan(const ReadOptions& bounded_options, ColumnFamilyHandle* family,
                    const Slice& scan_start, const Slice& scan_end, size_t limit,
                    std::vector<std::pair<std::string, std::string>>* result) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status family_status = FamilyOf(family, "Scan", &cfd);
  if (!family_status.ok()) return family_status;
  if (limit == 0) return Status::OK();
  // The iterate bounds narrow [start, end) here, once, so that the restart check below judges
  // exactly the range read (a newer version beyond a tighter bound must not cause a restart).
  Slice start = scan_start, end = scan_end;
  const Slice* lower = bounded_options.iterate_lower_bound;
  const Slice* upper = bounded_options.iterate_upper_bound;
  if (lower != nullptr && start.compare(*lower) < 0) start = *lower;
  if (upper != nullptr) {
    if (upper->empty()) return Status::OK();  // nothing is below ""; an empty end means none
    if (end.empty() || upper->compare(end) < 0) end = *upper;
  }
  if (!end.empty() && start.compare(end) >= 0) return Status::OK();
  ReadOptions options = bounded_options;
  options.iterate_lower_bound = nullptr;
  options.iterate_upper_bound = nullptr;
  const size_t base = result->size();
  const size_t cap = base + limit;
  bool in_place;
  {
    epoch::Guard guard;
    in_place =
        cfd->super_version.load(std::memory_order_acquire)->mem->component->ReplacesInPlace();
  }
  if (!in_place || options.snapshot != nullptr) {
    return ScanWithIterator(options, family, start, end, cap, result);
  }
  MemoryComponentFactory* factory = cfd->component_factory.get();
  factory->RecordScanEvent(MemoryComponentFactory::ScanEvent::kStarted);
  // FloDB's scan (Algorithm 3): drain, take the sequence number, read; restart if a version
  // newer than it shows up in the range read (an in-place update may have replaced one the
  // scan needs); after too many restarts, fall back to a registered scan, which cannot be
  // invalidated.
  for (int restarts = 0;; restarts++) {
    if (restarts > cfd->options.flodb_scan_max_restarts) {
      factory->RecordScanEvent(MemoryComponentFactory::ScanEvent::kFellBack);
      result->resize(base);
      return ScanWithIterator(options, family, start, end, cap, result);
    }
    std::string newer_key;
    bool newer_seen = false;
    std::unique_ptr<Iterator> it;
    {
      epoch::Guard guard;
      SuperVersion* sv;
      SequenceNumber seq;
      do {
        sv = cfd->super_version.load(std::memory_order_acquire);
        seq = PrepareScan(sv, /*allow_piggyback=*/true);
      } while (!ReadPointCovered(cfd, sv));
      std::unique_ptr<RangeDelCheck> range_dels;
      Status s = NewRangeDelCheck(sv, seq, &range_dels);
      if (!s.ok()) return s;
      ChargeLevel0Scan(cfd, *sv->version);
      it = NewDBIterator(
          NewMergingIterator(DefaultInternalKeyComparator(),
                             NewInternalIterators(sv, options, seq, &newer_key, &newer_seen)),
          seq, options, std::move(range_dels));
    }
    bool exhausted = true;
    for (it->Seek(start); it->Valid(); it->Next()) {
      if (!end.empty() && it->key().compare(end) >= 0) break;
      if (result->size() >= cap) {
        exhausted = false;
        break;
      }
      result->emplace_back(it->key().ToString(), it->value().ToString());
    }
    Status s = it->status();
    if (!s.ok()) return s;
    // The range actually read: up to the last pair returned, or to `end` if it ran out.
    const bool invalidated = newer_seen && Slice(newer_key).compare(start) >= 0 &&
                             (exhausted ? (end.empty() || Slice(newer_key).compare(end) < 0)
                                        : Slice(newer_key).compare(result->back().first) <= 0);
    if (!invalidated) return Status::OK();
    factory->RecordScanEvent(MemoryComponentFactory::ScanEvent::kRestarted);
    result->resize(base);
  }
}

const Snapshot* DBImpl::GetSnapshot() {
  if (closed_.load(std::memory_order_acquire)) return nullptr;
  // Any family's in-place replacement needs the registration: a snapshot covers them all.
  if (AnyFamilyReplacesInPlace()) {
    // Linearizable, and registered before its sequence number is chosen (see SnapshotList).
    return snapshots_.CreateProtected([this] { return oracle_.SnapshotSequence(true); });
  }
  return snapshots_.Create(
      [this] { return oracle_.SnapshotSequence(options_.linearizable_snapshots); });
}

void DBImpl::ReleaseSnapshot(const Snapshot* snapshot) { snapshots_.Release(snapshot); }

uint64_t DBImpl::MemoryUsage(ColumnFamilyData* cfd) {
  std::vector<ColumnFamilyData*> families;
  if (cfd != nullptr) {
    families.push_back(cfd);
  } else {
    MutexLock l(&mutex_);
    families = LiveFamilies();
  }
  epoch::Guard guard;
  uint64_t total = 0;
  for (ColumnFamilyData* f : families) {
    SuperVersion* sv = f->super_version.load(std::memory_order_acquire);
    total += sv->mem->component->ApproximateMemoryUsage();
    for (const auto& imm : sv->imms) total += imm->component->ApproximateMemoryUsage();
  }
  return total;
}

}  // namespace sluice
