// sluice_bench/lock_striped_rmw.h — the textbook read-modify-write baseline of cLSM's
// evaluation (EuroSys'15, section 5): each RMW takes an exclusive lock on its key's stripe
// (one mutex of a fixed array, chosen by hashing the key), then Gets and Puts through the
// engine's ordinary calls. Works over any engine, so --rmw=striped compares sluice's lock-free
// RMW with this one on the same engine, and gives RocksDB and LevelDB an RMW at all.
//
// Only atomic with respect to other RMWs through the same object: a benchmark that mixes RMWs
// with plain writes to the same keys would have to lock those too (the RMW benchmarks do only
// RMWs).

#ifndef SLUICE_BENCH_LOCK_STRIPED_RMW_H_
#define SLUICE_BENCH_LOCK_STRIPED_RMW_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>

#include "sluice_bench/kv_engine.h"

namespace sluice_bench {

class LockStripedRmw {
 public:
  static constexpr size_t kDefaultStripes = 1024;

  LockStripedRmw(KVEngine* engine, size_t stripes = kDefaultStripes);

  EngineStatus PutIfAbsent(std::string_view key, std::string_view value, const WriteMode& mode,
                           bool* inserted);
  EngineStatus Increment(std::string_view key, int64_t delta, const WriteMode& mode,
                         int64_t* result);

 private:
  // One cache line per stripe, so neighbouring stripes do not share one.
  struct alignas(64) Stripe {
    std::mutex mu;
  };
  std::mutex& StripeFor(std::string_view key);

  KVEngine* const engine_;
  const size_t count_;
  std::unique_ptr<Stripe[]> stripes_;
};

}  // namespace sluice_bench

#endif  // SLUICE_BENCH_LOCK_STRIPED_RMW_H_
