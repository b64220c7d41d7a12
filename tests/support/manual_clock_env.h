// tests/support/manual_clock_env.h — an Env whose clock (NowMicros) moves only when the test
// advances it, so which side of a time threshold a check falls on is the test's choice, never
// the machine's speed. Everything else is Env::Default()'s.

#ifndef SLUICE_TESTS_SUPPORT_MANUAL_CLOCK_ENV_H_
#define SLUICE_TESTS_SUPPORT_MANUAL_CLOCK_ENV_H_

#include <atomic>
#include <cstdint>

#include "sluice/env.h"

namespace sluice::test {

class ManualClockEnv final : public EnvWrapper {
 public:
  ManualClockEnv() : EnvWrapper(Env::Default()) {}
  uint64_t NowMicros() override { return now_.load(std::memory_order_relaxed); }
  void AdvanceMillis(uint64_t ms) { now_.fetch_add(ms * 1000, std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> now_{uint64_t{1} << 40};
};

}  // namespace sluice::test

#endif  // SLUICE_TESTS_SUPPORT_MANUAL_CLOCK_ENV_H_
