// util/kill_point.cc — see kill_point.h. Reads SLUICE_KILL_POINT and SLUICE_KILL_ODDS once,
// during static initialisation, and kills the process with SIGKILL when a point fires.

#include "util/kill_point.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace sluice::kill_point {

namespace {

struct Config {
  std::string pattern;  // a point name, "prefix*" or "*"
  unsigned long odds = 1;

  Config() {
    const char* p = std::getenv("SLUICE_KILL_POINT");
    if (p == nullptr || *p == '\0') return;
    pattern = p;
    if (const char* o = std::getenv("SLUICE_KILL_ODDS"); o != nullptr && *o != '\0') {
      char* end = nullptr;
      odds = std::strtoul(o, &end, 10);
      if (end == o || *end != '\0' || odds == 0) {
        std::fprintf(stderr, "SLUICE_KILL_ODDS must be a positive integer, not '%s'\n", o);
        std::_Exit(2);
      }
    }
    g_armed.store(true, std::memory_order_relaxed);
  }

  bool Matches(std::string_view name) const {
    if (!pattern.empty() && pattern.back() == '*') {
      return name.substr(0, pattern.size() - 1) ==
             std::string_view(pattern).substr(0, pattern.size() - 1);
    }
    return name == pattern;
  }
};

const Config& GetConfig() {
  static const Config config;
  return config;
}
// Reads the environment before main, so g_armed is set before any engine code runs.
[[maybe_unused]] const Config& g_init = GetConfig();

bool Roll(unsigned long odds) {
  if (odds <= 1) return true;
  // Seeded per thread from the clock and the thread, so runs differ.
  thread_local std::minstd_rand rng(
      static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count() ^
                            reinterpret_cast<uintptr_t>(&odds)));
  return rng() % odds == 0;
}

}  // namespace

bool ShouldKill(std::string_view name) {
  if (!g_armed.load(std::memory_order_relaxed)) return false;
  const Config& config = GetConfig();
  return config.Matches(name) && Roll(config.odds);
}

void KillNow(std::string_view name) {
  // One write(2): no stdio buffering that could be lost or interleaved.
  const std::string line = "sluice: kill point " + std::string(name) + " fired\n";
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
  ::kill(::getpid(), SIGKILL);
  std::_Exit(137);  // not reached
}

void MaybeKill(std::string_view name) {
  if (ShouldKill(name)) KillNow(name);
}

}  // namespace sluice::kill_point
