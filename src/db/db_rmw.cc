// db/db_rmw.cc — atomic read-modify-write without locks (cLSM, EuroSys'15, section 3.3), and
// the variants built on it (PutIfAbsent, CompareAndSwap, Increment).
//
// One attempt of Modify():
//   1. Read the key's write stamp (db/write_stamps.h: a counter every write to the key bumps
//      after inserting), then read the key through the current SuperVersion (the optimistic
//      read). If that read passed over a version of a multi-update batch still being applied
//      (Get hides those until the batch is complete), wait for the batch and start over: the
//      batch may have bumped the stamp already, so step 5 could not see that the read missed it.
//   2. Run the caller's decision on that value, outside any epoch section or slot. If it keeps
//      the state the key has, the call ends here: it was a read, linearized at step 1.
//   3. Reserve the WAL record on the current mutable component and take sequence number ts, as
//      every write does (Busy: a switch is under way; start over).
//   4. FenceBelow(ts, key): afterwards every write to the key ordered before ts has finished,
//      and no write can still be ordered before ts (a writer that drew a smaller sequence number
//      but has not shown it in its slot yet is waited for). Writes to other keys are not
//      waited for.
//   5. Validate: the key's write stamp must not have moved since step 1.
//   6. Valid: log and apply the new version with ts. Conflict: fill the WAL reservation with
//      the batch marked aborted (a reservation must be filled), release ts, start over.
//
// Why this is linearizable. Order every write by its sequence number. Writes ordered after ts may
// land at any time; they come after this RMW, so its read need not include them. Take a write
// w to the key ordered before ts: by step 5 it has finished, so its bump is visible (it bumped
// before releasing its Active slot, which the fence observed, or the fence skipped it because
// it cannot have been unpublished: see FenceBelow). If w bumped before step 1's stamp read, its
// version was inserted before that (release/acquire), so step 1's read — through a
// SuperVersion loaded after the stamp, which holds w's component or the SST file it was
// flushed to — saw w or something newer (or passed over it as an in-flight batch, and started
// over). If w bumped after, step 5 sees the stamp moved.
// So validation fails exactly when step 1 may have missed a write ordered before ts (or on a
// hash collision, a harmless retry), and a successful attempt is atomic at ts.
//
// Why the fence (not in the paper's Algorithm 3). The paper detects conflicts by a CAS on the
// skiplist predecessor of the new node. With sequence numbers drawn before insertion that is not
// enough: a put that drew a smaller sequence number than the RMW but inserts after it lands behind
// the RMW's version and vanishes, although the RMW's result did not include it — a lost
// update (a linearizability checker finds it). After the fence no such put exists, and a
// per-key stamp replaces the CAS: O(1), independent of the memory component (Membuffer entry,
// skiplist node, vector...), and it needs no second search of the key.
//
// Progress: no lock is taken and the caller's function runs outside any slot or epoch section.
// An attempt fails only because another write to the key (or to a key sharing its stamp, a
// 1-in-4096 chance per write) committed in between: some write made progress. The
// fence waits only for writes to the same key that already hold a smaller sequence number to finish
// inserting (and for multi-update batches, whose keys are not tracked in Active).

#include <fmt/format.h>

#include "db/db_impl.h"
#include "db/write_batch_internal.h"
#include "util/coding.h"
#include "util/epoch.h"

namespace sluice {

Status DBImpl::Modify(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                      const ModifyDecision& decide, std::string* final_value) {
  if (closed_.load(std::memory_order_acquire)) {
    return Status::InvalidArgument(dbname_, "database is closed");
  }
  ColumnFamilyData* cfd = nullptr;
  Status family_status = FamilyOf(family, "read-modify-write", &cfd);
  if (!family_status.ok()) return family_status;
  ColumnFamilyHandle* encode_as = cfd == default_cfd_ ? nullptr : &cfd->handle;
  if (key.size() > options_.max_key_size) {
    return Status::InvalidArgument(fmt::format("key of {} bytes exceeds Options::max_key_size ({})",
                                               key.size(), options_.max_key_size));
  }
  const uint64_t key_tag = SequenceOracle::KeyTag(key);
  WriteWaits waits;
  std::string current;
  std::string& value = *final_value;
  for (;;) {
    Status s = BackgroundError();
    if (!s.ok()) return s;

    // Step 1: the key's write stamp, then (after it: see the argument above) the optimistic
    // read through the current SuperVersion.
    const uint64_t stamp = write_stamps_.Read(key_tag);
    SequenceNumber skipped_batch = 0;
    {
      epoch::Guard guard;
      s = GetFromSuperVersion(cfd->super_version.load(std::memory_order_acquire), ReadOptions(),
                              key, &current, &skipped_batch);
    }
    if (!s.ok() && !s.IsNotFound()) return s;
    if (skipped_batch != 0) {
      // The read passed over a version of a multi-update batch still being applied. That batch
      // may have bumped the stamp already, so validation could not tell that the read missed
      // it: wait until it is visible and start over.
      oracle_.WaitWhileBatchInFlight(skipped_batch);
      continue;
    }

    // Step 2: the caller's decision, outside any epoch section or slot (it may be slow).
    const bool exists = s.ok();
    ModifyAction action = ModifyAction::kKeep;
    value.clear();
    s = decide(exists ? &current : nullptr, &action, &value);
    // Writing the state the key already has changes nothing: a read, as kKeep.
    if (s.ok() && action == ModifyAction::kDelete && !exists) action = ModifyAction::kKeep;
    if (s.ok() && action == ModifyAction::kPut && exists && value == current) {
      action = ModifyAction::kKeep;
    }
    if (!s.ok() || action == ModifyAction::kKeep) {
      if (s.ok()) {
        if (exists) {
          value.swap(current);
        } else {
          value.clear();
        }
        DBStats::Add(&stats_.rmws, 1);
        DBStats::Add(&stats_.rmw_noops, 1);
      }
      return s;
    }
    if (action == ModifyAction::kPut && value.size() > options_.max_value_size) {
      return Status::InvalidArgument(
          fmt::format("value of {} bytes exceeds Options::max_value_size ({})", value.size(),
                      options_.max_value_size));
    }
    WriteBatch batch;
    if (action == ModifyAction::kPut) {
      batch.Put(encode_as, key, value);
    } else {
      batch.Delete(encode_as, key);
    }

    // Step 3: sequence number and WAL reservation on the current mutable component.
    ReservedWrite w;
    w.key_tag = key_tag;
    w.families = std::span<ColumnFamilyData* const>(&cfd, 1);
    bool retry = false;
    s = ReserveOnCurrent(options, &batch, &w, &retry, &waits);
    if (!s.ok()) return s;
    if (retry) continue;
    // Steps 4 and 5: fence, then validate.
    bool valid = true;
    if (rmw_conflict_detection_) {
      oracle_.FenceBelow(w.seq, key_tag);
      valid = write_stamps_.Read(key_tag) == stamp;
    }
    if (!valid) WriteBatchInternal::MarkAborted(&batch);
    // Step 6.
    s = CompleteWrite(options, &batch, &w);
    w.section.Leave();
    if (!s.ok()) return s;
    if (!valid) {
      DBStats::Add(&stats_.rmw_conflicts, 1);
      continue;
    }
    if (action == ModifyAction::kDelete) value.clear();
    DBStats::Add(&stats_.rmws, 1);
    DBStats::Add(&stats_.writes, 1);
    DBStats::Add(&stats_.keys_written, 1);
    DBStats::Add(&stats_.user_bytes_written, key.size() + value.size());
    return Status::OK();
  }
}

Status DBImpl::ReadModifyWrite(const WriteOptions& options, ColumnFamilyHandle* family,
                               const Slice& key, const ModifyFunction& fn, std::string* result) {
  if (!fn) return Status::InvalidArgument("ReadModifyWrite: the function is empty");
  std::string scratch;
  return Modify(
      options, family, key,
      [&](const std::string* current, ModifyAction* action, std::string* value) {
        std::optional<std::string> next = fn(current);
        if (!next.has_value()) {
          *action = ModifyAction::kDelete;
        } else {
          *action = ModifyAction::kPut;
          *value = std::move(*next);
        }
        return Status::OK();
      },
      result != nullptr ? result : &scratch);
}

Status DBImpl::PutIfAbsent(const WriteOptions& options, ColumnFamilyHandle* family,
                           const Slice& key, const Slice& value, bool* inserted) {
  bool did = false;
  std::string final_value;
  Status s = Modify(
      options, family, key,
      [&](const std::string* current, ModifyAction* action, std::string* next) {
        did = current == nullptr;
        if (did) {
          *action = ModifyAction::kPut;
          next->assign(value.data(), value.size());
        }
        return Status::OK();
      },
      &final_value);
  if (inserted != nullptr) *inserted = s.ok() && did;
  return s;
}

Status DBImpl::CompareAndSwap(const WriteOptions& options, ColumnFamilyHandle* family,
                              const Slice& key, const std::string* expected, const Slice& desired,
                              bool* swapped) {
  bool did = false;
  std::string final_value;
  Status s = Modify(
      options, family, key,
      [&](const std::string* current, ModifyAction* action, std::string* next) {
        did =
            expected == nullptr ? current == nullptr : current != nullptr && *current == *expected;
        if (did) {
          *action = ModifyAction::kPut;
          next->assign(desired.data(), desired.size());
        }
        return Status::OK();
      },
      &final_value);
  if (swapped != nullptr) *swapped = s.ok() && did;
  return s;
}

Status DBImpl::Increment(const WriteOptions& options, ColumnFamilyHandle* family, const Slice& key,
                         int64_t delta, int64_t* result) {
  uint64_t sum = 0;
  std::string final_value;
  Status s = Modify(
      options, family, key,
      [&](const std::string* current, ModifyAction* action, std::string* next) {
        uint64_t base = 0;
        if (current != nullptr) {
          if (current->size() != sizeof(uint64_t)) {
            return Status::InvalidArgument(
                fmt::format("Increment: the value of key {:?} has {} bytes, not an 8-byte counter",
                            key.ToStringView(), current->size()));
          }
          base = DecodeFixed64(current->data());
        }
        sum = base + static_cast<uint64_t>(delta);  // wraps around, as documented
        *action = ModifyAction::kPut;
        next->resize(sizeof(uint64_t));
        EncodeFixed64(next->data(), sum);
        return Status::OK();
      },
      &final_value);
  if (s.ok() && result != nullptr) *result = static_cast<int64_t>(sum);
  return s;
}

}  // namespace sluice
