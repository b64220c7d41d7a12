// wal/log_writer.cc — see log_writer.h for the protocol.

#include "wal/log_writer.h"

#include <thread>
#include <vector>

#include "util/cpu.h"
#include "util/kill_point.h"
#include "util/spin_wait.h"
#include "wal/log_format.h"

namespace sluice::log {

Writer::Writer(std::unique_ptr<WritableFile> file, std::string fname, uint64_t initial_size)
    : fname_(std::move(fname)),
      file_(std::move(file)),
      reserved_(initial_size),
      written_(initial_size),
      synced_(initial_size) {}

Writer::~Writer() {
  if (!closed_) Close();
}

Status Writer::Reserve(size_t payload_size, const std::function<void()>& on_reserve,
                       Reservation* r) {
  MutexLock l(&mu_);
  if (!error_.ok()) return error_;
  if (sealed_.load(std::memory_order_relaxed) || closed_) {
    return Status::Busy(fname_, "log is sealed");
  }
  r->start = reserved_;
  r->end = PhysicalEnd(reserved_, payload_size);
  reserved_ = r->end;
  if (on_reserve) on_reserve();
  return Status::OK();
}

namespace {

// Removes and returns the range starting at `start`, if registered.
template <typename Vec>
bool TakeRange(Vec* v, uint64_t start, uint64_t* end, const std::string** bytes) {
  for (size_t i = 0; i < v->size(); i++) {
    if ((*v)[i].start == start) {
      *end = (*v)[i].filled.end;
      *bytes = (*v)[i].filled.bytes;
      (*v)[i] = v->back();
      v->pop_back();
      return true;
    }
  }
  return false;
}

}  // namespace

Status Writer::Commit(const Reservation& r, const Slice& payload, bool sync) {
  // Reused across this thread's commits (a thread has one commit in flight at a time); the
  // buffer must stay alive until the range is written, which Commit waits for.
  thread_local std::string bytes;
  bytes.clear();
  EncodePhysical(r.start, payload, &bytes);
  if (bytes.capacity() > (4u << 20) && bytes.size() < (64u << 10)) bytes.shrink_to_fit();

  MutexLock l(&mu_);
  filled_.push_back(FilledRange{r.start, Filled{r.end, &bytes}});
  if (sync && r.end > sync_wanted_) sync_wanted_ = r.end;
  ChangedLocked();
  for (;;) {
    if (!error_.ok()) {
      uint64_t end;
      const std::string* unused;
      TakeRange(&filled_, r.start, &end, &unused);  // no-op if an I/O round already took it
      return error_;
    }
    if (written_ >= r.end && (!sync || synced_ >= r.end)) return Status::OK();
    if (io_busy_) {
      WaitForChange();
      continue;
    }
    // Take the I/O role: collect every contiguous filled range starting at written_.
    chunks_.clear();
    uint64_t end = written_;
    for (;;) {
      uint64_t next_end;
      const std::string* chunk;
      if (!TakeRange(&filled_, end, &next_end, &chunk)) break;
      chunks_.push_back(chunk);
      end = next_end;
    }
    std::vector<const std::string*> chunks;
    chunks.swap(chunks_);  // ours while we do the I/O outside the lock
    const bool do_sync = sync_wanted_ > synced_ && end > synced_;
    if (chunks.empty() && !do_sync) {
      WaitForChange();  // our predecessors have not filled yet; their Commit will wake us
      continue;
    }
    io_busy_ = true;
    l.Unlock();
    Status s = WriteChunks(chunks, do_sync);
    l.Lock();
    io_busy_ = false;
    chunks.clear();
    chunks_.swap(chunks);  // give the capacity back for the next round
    if (s.ok()) {
      written_ = end;
      if (do_sync) synced_ = end;
    } else {
      error_ = s;
    }
    ChangedLocked();
  }
}

Status Writer::WriteChunks(const std::vector<const std::string*>& chunks, bool do_sync) {
  // Crash tests: "<kind>.torn_write" dies with half of the first chunk handed to the OS, so
  // the file ends in a torn record (what a crash in the middle of write(2) can leave).
  const bool armed = kill_point::g_armed.load(std::memory_order_relaxed);
  if (armed && !chunks.empty() && kill_point::ShouldKill(KillPointName("torn_write"))) {
    const std::string& c = *chunks.front();
    if (file_->Append(Slice(c.data(), c.size() / 2)).ok() && file_->Flush().ok()) {
      kill_point::KillNow(KillPointName("torn_write"));
    }
  }
  Status s;
  for (const std::string* c : chunks) {
    s = file_->Append(*c);
    if (!s.ok()) return s;
  }
  s = file_->Flush();
  if (!s.ok()) return s;
  if (armed) kill_point::MaybeKill(KillPointName("after_write"));
  if (do_sync) {
    s = file_->Sync();
    if (s.ok() && armed) kill_point::MaybeKill(KillPointName("after_sync"));
  }
  return s;
}

std::string Writer::KillPointName(std::string_view event) const {
  const bool wal = fname_.size() >= 4 && fname_.compare(fname_.size() - 4, 4, ".log") == 0;
  return std::string(wal ? "wal." : "manifest.") + std::string(event);
}

void Writer::ChangedLocked() {
  // release: a spinning waiter that sees the new count and then takes mu_ sees the change.
  changes_.fetch_add(1, std::memory_order_release);
  if (sleepers_ > 0) cv_.SignalAll();
}

void Writer::WaitForChange() {
  // Another writer's I/O round usually takes a few microseconds, about what sleeping and waking
  // would cost: spin a little (without the lock) before sleeping on the condition variable.
  const uint64_t seen = changes_.load(std::memory_order_relaxed);
  mu_.Unlock();
  for (SpinBackoff backoff(/*spin_rounds=*/300); backoff.rounds() < 400; backoff.Pause()) {
    if (changes_.load(std::memory_order_acquire) != seen) {
      mu_.Lock();
      return;
    }
  }
  mu_.Lock();
  sleepers_++;
  while (changes_.load(std::memory_order_relaxed) == seen) cv_.Wait();
  sleepers_--;
}

Status Writer::AddRecord(const Slice& payload, bool sync) {
  Reservation r;
  Status s = Reserve(payload.size(), nullptr, &r);
  if (!s.ok()) return s;
  return Commit(r, payload, sync);
}

Status Writer::Sync() {
  MutexLock l(&mu_);
  // Wait for in-flight I/O, then sync under the I/O role so no append runs concurrently.
  while (io_busy_) WaitForChange();
  if (!error_.ok()) return error_;
  if (synced_ >= written_) return Status::OK();
  if (closed_) return Status::IOError(fname_, "log closed with unsynced data");
  io_busy_ = true;
  const uint64_t target = written_;
  l.Unlock();
  Status s = file_->Sync();
  l.Lock();
  io_busy_ = false;
  if (s.ok()) {
    if (target > synced_) synced_ = target;
  } else {
    error_ = s;
  }
  ChangedLocked();
  return s;
}

void Writer::Seal() {
  MutexLock l(&mu_);
  sealed_.store(true, std::memory_order_seq_cst);
}

Status Writer::Close() {
  MutexLock l(&mu_);
  while (io_busy_) WaitForChange();
  if (closed_) return error_;
  closed_ = true;
  sealed_.store(true, std::memory_order_seq_cst);
  Status s = file_->Close();
  if (error_.ok() && !s.ok()) error_ = s;
  return error_;
}

uint64_t Writer::ReservedSize() const {
  MutexLock l(&mu_);
  return reserved_;
}

}  // namespace sluice::log
