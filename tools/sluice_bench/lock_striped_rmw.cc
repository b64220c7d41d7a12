// sluice_bench/lock_striped_rmw.cc — see lock_striped_rmw.h.

#include "sluice_bench/lock_striped_rmw.h"

#include <cstring>
#include <functional>
#include <string>

namespace sluice_bench {

LockStripedRmw::LockStripedRmw(KVEngine* engine, size_t stripes)
    : engine_(engine), count_(stripes), stripes_(std::make_unique<Stripe[]>(stripes)) {}

std::mutex& LockStripedRmw::StripeFor(std::string_view key) {
  return stripes_[std::hash<std::string_view>{}(key) % count_].mu;
}

EngineStatus LockStripedRmw::PutIfAbsent(std::string_view key, std::string_view value,
                                         const WriteMode& mode, bool* inserted) {
  std::lock_guard<std::mutex> l(StripeFor(key));
  std::string current;
  EngineStatus s = engine_->Get(key, &current);
  *inserted = false;
  if (s.ok()) return s;
  if (!s.IsNotFound()) return s;
  s = engine_->Put(key, value, mode);
  *inserted = s.ok();
  return s;
}

EngineStatus LockStripedRmw::Increment(std::string_view key, int64_t delta, const WriteMode& mode,
                                       int64_t* result) {
  std::lock_guard<std::mutex> l(StripeFor(key));
  std::string current;
  EngineStatus s = engine_->Get(key, &current);
  uint64_t base = 0;
  if (s.ok()) {
    if (current.size() != sizeof(base)) {
      return EngineStatus::Error("Increment: the value of the key is not an 8-byte counter");
    }
    std::memcpy(&base, current.data(), sizeof(base));  // little-endian hosts only, as sluice
  } else if (!s.IsNotFound()) {
    return s;
  }
  const uint64_t sum = base + static_cast<uint64_t>(delta);
  char encoded[sizeof(sum)];
  std::memcpy(encoded, &sum, sizeof(sum));
  s = engine_->Put(key, std::string_view(encoded, sizeof(encoded)), mode);
  if (s.ok()) *result = static_cast<int64_t>(sum);
  return s;
}

}  // namespace sluice_bench
