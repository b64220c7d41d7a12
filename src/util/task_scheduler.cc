// util/task_scheduler.cc — see task_scheduler.h for the pools and their invariants.

#include "util/task_scheduler.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <string>

#include "util/thread_name.h"

namespace sluice {
namespace {

// The client whose task this thread runs (null outside tasks): Close from inside one of the
// client's own tasks waits for the others only.
thread_local const void* current_client = nullptr;

int MachineCores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

int Clamp(int threads) { return std::clamp(threads, 1, TaskScheduler::kMaxThreads); }

}  // namespace

TaskScheduler& TaskScheduler::Default() {
  // Never destroyed (as the epoch manager): a DB closed by a static destructor still finds it.
  static TaskScheduler* const scheduler = new TaskScheduler();
  return *scheduler;
}

int TaskScheduler::DefaultThreads(Pool pool) {
  const int cores = MachineCores();
  return pool == Pool::kHigh ? std::max(1, cores / 2) : cores;
}

const char* TaskScheduler::PoolName(Pool pool) {
  switch (pool) {
    case Pool::kHigh: return "high";
    case Pool::kLow: return "low";
    case Pool::kDrain: return "drain";
  }
  return "?";
}

TaskScheduler::TaskScheduler(std::array<int, kPools> threads) {
  MutexLock l(&mu_);
  for (int p = 0; p < kPools; p++) {
    const auto pool = static_cast<Pool>(p);
    const int n = threads[static_cast<size_t>(p)];
    StartThreads(pool, Clamp(n > 0 ? n : DefaultThreads(pool)));
  }
  timer_ = std::thread([this] {
    SetCurrentThreadName("sluice-timer");
    TimerLoop();
  });
}

TaskScheduler::~TaskScheduler() {
  std::vector<std::thread> threads;
  {
    MutexLock l(&mu_);
    stopping_ = true;
    for (int p = 0; p < kPools; p++) {
      PoolState& ps = pools_[static_cast<size_t>(p)];
      assert(ps.queue.empty());  // every client closed
      for (auto& t : ps.threads) threads.push_back(std::move(t));
      ps.threads.clear();
      work_cv_[static_cast<size_t>(p)].SignalAll();
    }
    timer_cv_.SignalAll();
  }
  for (auto& t : threads) t.join();
  timer_.join();
}

void TaskScheduler::StartThreads(Pool pool, int threads) {
  PoolState& ps = PoolOf(pool);
  ps.desired = threads;
  for (int i = static_cast<int>(ps.threads.size()); i < threads; i++) {
    ps.threads.emplace_back([this, pool, i] {
      SetCurrentThreadName((std::string("sluice-") + PoolName(pool)).c_str());
      WorkerLoop(pool, i);
    });
  }
}

void TaskScheduler::SetThreads(Pool pool, int threads) {
  threads = Clamp(threads);
  MutexLock resize(&resize_mu_);
  std::vector<std::thread> leaving;
  {
    MutexLock l(&mu_);
    PoolState& ps = PoolOf(pool);
    if (threads >= static_cast<int>(ps.threads.size())) {
      StartThreads(pool, threads);
      return;
    }
    // The threads from index `threads` on see desired below their index after their task.
    ps.desired = threads;
    for (size_t i = static_cast<size_t>(threads); i < ps.threads.size(); i++) {
      leaving.push_back(std::move(ps.threads[i]));
    }
    ps.threads.resize(static_cast<size_t>(threads));
    work_cv_[static_cast<size_t>(pool)].SignalAll();
  }
  for (auto& t : leaving) t.join();
}

void TaskScheduler::EnsureThreads(Pool pool, int threads) {
  if (Threads(pool) < Clamp(threads)) SetThreads(pool, std::max(Threads(pool), threads));
}

int TaskScheduler::Threads(Pool pool) const {
  MutexLock l(&mu_);
  return pools_[static_cast<size_t>(pool)].desired;
}

TaskScheduler::PoolCounts TaskScheduler::Counts(Pool pool) const {
  MutexLock l(&mu_);
  const PoolState& ps = pools_[static_cast<size_t>(pool)];
  const auto delayed = static_cast<size_t>(std::count_if(
      delayed_.begin(), delayed_.end(), [pool](const auto& d) { return d.second.pool == pool; }));
  return PoolCounts{ps.desired, ps.queue.size(), delayed, ps.running, ps.completed};
}

int TaskScheduler::TotalThreads() const {
  MutexLock l(&mu_);
  int total = 1;  // the timer
  for (const PoolState& ps : pools_) total += static_cast<int>(ps.threads.size());
  return total;
}

std::unique_ptr<TaskScheduler::Client> TaskScheduler::NewClient() {
  return std::unique_ptr<Client>(new Client(this));
}

bool TaskScheduler::Schedule(ClientState* client, Pool pool, std::chrono::microseconds delay,
                             std::function<void()> fn) {
  {
    MutexLock l(&mu_);
    if (!client->closed && !stopping_) {
      if (delay.count() <= 0) {
        PoolOf(pool).queue.push_back(Task{client, std::move(fn)});
        work_cv_[static_cast<size_t>(pool)].Signal();
        return true;
      }
      const DelayedKey key{std::chrono::steady_clock::now() + delay, delayed_order_++};
      const bool earliest = delayed_.empty() || key < delayed_.begin()->first;
      delayed_.emplace(key, Delayed{pool, Task{client, std::move(fn)}});
      if (earliest) timer_cv_.Signal();
      return true;
    }
  }
  return false;  // fn is destroyed here, without the lock
}

void TaskScheduler::Close(ClientState* client) {
  std::vector<Task> dropped;  // destroyed after the lock is released (declared before it)
  MutexLock l(&mu_);
  client->closed = true;
  for (PoolState& ps : pools_) {
    for (auto it = ps.queue.begin(); it != ps.queue.end();) {
      if (it->client == client) {
        dropped.push_back(std::move(*it));
        it = ps.queue.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto it = delayed_.begin(); it != delayed_.end();) {
    if (it->second.task.client == client) {
      dropped.push_back(std::move(it->second.task));
      it = delayed_.erase(it);
    } else {
      ++it;
    }
  }
  const int self = current_client == client ? 1 : 0;
  while (client->running > self) idle_cv_.Wait();
}

void TaskScheduler::WorkerLoop(Pool pool, int index) {
  const auto p = static_cast<size_t>(pool);
  MutexLock l(&mu_);
  for (;;) {
    PoolState& ps = pools_[p];
    while (!stopping_ && index < ps.desired && ps.queue.empty()) work_cv_[p].Wait();
    if (stopping_ || index >= ps.desired) return;
    Task task = std::move(ps.queue.front());
    ps.queue.pop_front();
    task.client->running++;
    ps.running++;
    l.Unlock();
    current_client = task.client;
    task.fn();
    task.fn = nullptr;  // what it captured goes before the client may be told it is idle
    current_client = nullptr;
    l.Lock();
    pools_[p].running--;
    pools_[p].completed++;
    // After this the client may be destroyed: task.client is not touched again.
    task.client->running--;
    if (task.client->closed) idle_cv_.SignalAll();
  }
}

void TaskScheduler::TimerLoop() {
  MutexLock l(&mu_);
  while (!stopping_) {
    if (delayed_.empty()) {
      timer_cv_.Wait();
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    const auto due = delayed_.begin()->first.first;
    if (due > now) {
      timer_cv_.WaitFor(due - now);
      continue;
    }
    auto node = delayed_.extract(delayed_.begin());
    Delayed& d = node.mapped();
    PoolOf(d.pool).queue.push_back(std::move(d.task));
    work_cv_[static_cast<size_t>(d.pool)].Signal();
  }
}

void TaskScheduler::Client::RunParallel(Pool pool, std::vector<std::function<void()>> tasks) {
  if (tasks.empty()) return;
  // Shared with the queued helpers, which may run (and find their task claimed) after this
  // returns.
  struct Shared {
    explicit Shared(std::vector<std::function<void()>> t)
        : tasks(std::move(t)), claimed(tasks.size()) {}
    std::vector<std::function<void()>> tasks;
    // acq_rel exchange: exactly one thread runs each task.
    std::vector<std::atomic<bool>> claimed;
    Mutex mu;
    CondVar done_cv{&mu};
    size_t remote_done GUARDED_BY(mu) = 0;
  };
  auto shared = std::make_shared<Shared>(std::move(tasks));
  const size_t n = shared->tasks.size();
  for (size_t i = 1; i < n; i++) {
    Schedule(pool, [shared, i] {
      if (shared->claimed[i].exchange(true, std::memory_order_acq_rel)) return;
      shared->tasks[i]();
      MutexLock l(&shared->mu);
      shared->remote_done++;
      shared->done_cv.SignalAll();
    });
  }
  size_t local = 0;
  for (size_t i = 0; i < n; i++) {
    if (shared->claimed[i].exchange(true, std::memory_order_acq_rel)) continue;
    shared->tasks[i]();
    local++;
  }
  MutexLock l(&shared->mu);
  while (shared->remote_done < n - local) shared->done_cv.Wait();
}

}  // namespace sluice
