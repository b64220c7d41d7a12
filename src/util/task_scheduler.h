// util/task_scheduler.h — the process's background threads: pools that run the tasks of every
// open database (flushes, compactions and their key ranges, deletion of obsolete files, FloDB
// drains), shared by all the DBs and column families of the process, as RocksDB's Env thread
// pools are.
//
// Three pools, each with its own threads and its own first-in, first-out queue:
//   kHigh   flushes: never queued behind a compaction;
//   kLow    compactions, their parallel key ranges, obsolete-file deletion, housekeeping;
//   kDrain  FloDB drains (short slices of work that re-queue themselves).
// A task belongs to a Client (a DB, a FloDB component). Clients queue few tasks at a time
// (a DB at most one flush and its compaction share; a component one drain slice per drain
// thread) and each task does one unit of work, then queues its successor at the tail: so a busy
// client cannot starve another's flush, which waits at most for the tasks ahead of it.
// A delayed task (ScheduleAfter) waits on the timer thread, which queues it when it is due.
//
// Invariants: a task runs at most once, on a thread of its pool. Once Client::Close returns,
// no task of the client runs and none will (Schedule refuses); Close drops the queued ones
// (destroying them unrun) and waits only for the client's own running tasks. The scheduler's
// lock is a leaf: no task runs under it, and dropped tasks are destroyed after it is released,
// so a task may schedule, and a DB may schedule while it holds its own locks.

#ifndef SLUICE_UTIL_TASK_SCHEDULER_H_
#define SLUICE_UTIL_TASK_SCHEDULER_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "util/mutex.h"
#include "util/thread_annotations.h"

namespace sluice {

class TaskScheduler {
 public:
  enum class Pool : int { kHigh = 0, kLow = 1, kDrain = 2 };
  static constexpr int kPools = 3;
  static constexpr int kMaxThreads = 1024;  // per pool

  // What a pool holds and did (a snapshot).
  struct PoolCounts {
    int threads = 0;
    size_t queued = 0;   // ready tasks waiting for a thread
    size_t delayed = 0;  // tasks on the timer, due later
    int running = 0;
    uint64_t completed = 0;
  };

  // The process-wide scheduler every DB uses, created on first use with DefaultThreads of each
  // pool. Never destroyed: its threads live as long as the process.
  static TaskScheduler& Default();
  // The default size of a pool on this machine: kHigh max(1, cores / 2), kLow and kDrain
  // max(1, cores).
  static int DefaultThreads(Pool pool);
  static const char* PoolName(Pool pool);  // "high", "low", "drain"

  // threads[p]: the size of pool p (<= 0: DefaultThreads). Starts the threads and the timer.
  explicit TaskScheduler(std::array<int, kPools> threads = {0, 0, 0});
  // REQUIRES: every client closed. Joins the threads.
  ~TaskScheduler();
  TaskScheduler(const TaskScheduler&) = delete;
  TaskScheduler& operator=(const TaskScheduler&) = delete;

  // Resizes a pool (clamped to 1..kMaxThreads): new threads start at once; when it shrinks, the
  // threads beyond the new size finish their task and exit before this returns. Not from a
  // task of this scheduler.
  void SetThreads(Pool pool, int threads) EXCLUDES(mu_, resize_mu_);
  // Grows a pool to at least `threads` (a DB that asks for more parallel jobs than the pool
  // has, as RocksDB's IncBackgroundThreadsIfNeeded does); never shrinks it.
  void EnsureThreads(Pool pool, int threads) EXCLUDES(mu_, resize_mu_);
  int Threads(Pool pool) const EXCLUDES(mu_);
  PoolCounts Counts(Pool pool) const EXCLUDES(mu_);
  // Threads the scheduler runs: every pool's plus the timer.
  int TotalThreads() const EXCLUDES(mu_);

  class Client;
  // A new client; its tasks run on this scheduler. Close it (or destroy it) before the
  // objects its tasks use.
  std::unique_ptr<Client> NewClient();

 private:
  struct ClientState {
    int running = 0;      // tasks of the client running now
    bool closed = false;  // Schedule refuses
  };
  struct Task {
    ClientState* client = nullptr;
    std::function<void()> fn;
  };
  struct PoolState {
    std::deque<Task> queue;
    std::vector<std::thread> threads;
    int desired = 0;  // threads with an index below it keep running
    int running = 0;
    uint64_t completed = 0;
  };
  // A delayed task, keyed by (due time, order of scheduling).
  using DelayedKey = std::pair<std::chrono::steady_clock::time_point, uint64_t>;
  struct Delayed {
    Pool pool;
    Task task;
  };

  bool Schedule(ClientState* client, Pool pool, std::chrono::microseconds delay,
                std::function<void()> fn) EXCLUDES(mu_);
  void Close(ClientState* client) EXCLUDES(mu_);
  void StartThreads(Pool pool, int threads) REQUIRES(mu_);
  void WorkerLoop(Pool pool, int index) EXCLUDES(mu_);
  void TimerLoop() EXCLUDES(mu_);
  PoolState& PoolOf(Pool pool) REQUIRES(mu_) { return pools_[static_cast<size_t>(pool)]; }

  Mutex resize_mu_;  // serialises SetThreads (which joins threads without mu_)
  mutable Mutex mu_;
  std::array<PoolState, kPools> pools_ GUARDED_BY(mu_);
  std::array<CondVar, kPools> work_cv_{CondVar(&mu_), CondVar(&mu_), CondVar(&mu_)};
  CondVar idle_cv_{&mu_};   // a client's running count dropped (Close waits on it)
  CondVar timer_cv_{&mu_};  // an earlier delayed task, or stopping
  std::map<DelayedKey, Delayed> delayed_ GUARDED_BY(mu_);
  uint64_t delayed_order_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread timer_;
};

// The handle through which one owner (a DB, a memory component) schedules its tasks.
class TaskScheduler::Client {
 public:
  ~Client() { Close(); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Queues task on pool: false (task destroyed unrun) once the client is closed.
  bool Schedule(Pool pool, std::function<void()> task) {
    return scheduler_->Schedule(&state_, pool, std::chrono::microseconds(0), std::move(task));
  }
  // Queues task on pool once delay has passed (false once closed).
  bool ScheduleAfter(Pool pool, std::chrono::microseconds delay, std::function<void()> task) {
    return scheduler_->Schedule(&state_, pool, delay, std::move(task));
  }
  // Runs every task of `tasks` and returns once all have finished: tasks[0] on this thread,
  // the others queued on pool, where a thread may take them; any that no thread has started
  // when this thread is done is run here too. So it never waits for a queue (a pool busy with
  // other work, or this very caller being the pool's only thread, only means less parallelism).
  void RunParallel(Pool pool, std::vector<std::function<void()>> tasks);
  // Drops the queued and delayed tasks, waits for the running ones (from one of the client's
  // own tasks: for the others), and refuses new ones. Idempotent. A client is never destroyed
  // by one of its own tasks (the pool thread still counts the task as the client's after it
  // returns).
  void Close() { scheduler_->Close(&state_); }
  TaskScheduler* scheduler() const { return scheduler_; }

 private:
  friend class TaskScheduler;
  explicit Client(TaskScheduler* scheduler) : scheduler_(scheduler) {}
  TaskScheduler* const scheduler_;
  ClientState state_;  // guarded by the scheduler's mu_
};

}  // namespace sluice

#endif  // SLUICE_UTIL_TASK_SCHEDULER_H_
