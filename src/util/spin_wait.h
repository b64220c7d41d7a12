// util/spin_wait.h — the one way sluice waits for another thread's short step (a write being
// inserted, a slot being released, a drain batch finishing): spin with a CPU pause for a few
// rounds, then yield the CPU on every round. Yielding matters when there are more threads than
// cores: the thread waited for may need this core to finish.
//
// No memory ordering is implied: the condition a caller polls must itself use acquire loads
// (or stronger) for whatever it reads after the wait.

#ifndef SLUICE_UTIL_SPIN_WAIT_H_
#define SLUICE_UTIL_SPIN_WAIT_H_

#include <thread>

#include "util/cpu.h"

namespace sluice {

class SpinBackoff {
 public:
  // Rounds of CpuRelax before yielding: about a microsecond, what a short critical step of
  // another thread takes.
  static constexpr int kDefaultSpinRounds = 64;

  explicit SpinBackoff(int spin_rounds = kDefaultSpinRounds) : spin_rounds_(spin_rounds) {}

  // One round of waiting.
  void Pause() {
    if (rounds_ < spin_rounds_) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
    rounds_++;
  }
  // Rounds waited so far.
  int rounds() const { return rounds_; }

 private:
  const int spin_rounds_;
  int rounds_ = 0;
};

// Waits until done() returns true.
template <typename Done>
void SpinWait(Done&& done) {
  SpinBackoff backoff;
  while (!done()) backoff.Pause();
}

}  // namespace sluice

#endif  // SLUICE_UTIL_SPIN_WAIT_H_
