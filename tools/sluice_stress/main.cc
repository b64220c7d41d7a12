// sluice_stress — a db_stress-like driver for sluice: many threads of puts, deletes, batches,
// read-modify-writes, gets, snapshot reads and iteration over a bounded key space, every read
// checked against an expected-state directory that survives kill -9 (expected_state.h). The
// crash tests (tests/crash/crash_test.py) kill it at random moments or at kill points compiled
// into the engine (SLUICE_KILL_POINT=<point>, see --list_kill_points) and rerun it: each run
// first verifies what the previous one left.
//
//   sluice_stress --db=/tmp/s --expected_state=/tmp/s.exp --threads=4 --duration=10
//   sluice_stress --db=/tmp/s --expected_state=/tmp/s.exp --verify_only
//
// --databases=N runs N such drivers at once in the one process, each on its own database and
// expected state (<db>-<i>, <expected_state>-<i>, seed + i, --threads each), so that a kill
// finds several databases mid-work on the process's shared background pools.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "stress_runner.h"
#include "util/kill_point.h"

int main(int argc, char** argv) {
  sluice::stress::StressOptions o;
  bool list_kill_points = false;
  int databases = 1;
  CLI::App app{"sluice_stress: concurrent operations checked against an expected state"};
  app.add_option("--db", o.db, "Database directory")->required();
  app.add_option("--expected_state", o.expected_state,
                 "Expected-state directory (default: <db>.expected)");
  app.add_option("--threads", o.threads, "Worker threads")->check(CLI::Range(1, 1024));
  app.add_option("--duration", o.duration, "Seconds of operations (0: use --ops_per_thread)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--ops_per_thread", o.ops_per_thread, "Operations per thread (0: no limit)");
  app.add_option("--max_key", o.max_key, "Keys are 0..max_key-1")
      ->check(CLI::Range(1u, 100000000u));
  app.add_option("--memtable", o.memtable, "Memory component (as Options::memtable)");
  app.add_option("--sync", o.sync, "WriteOptions::sync for every write");
  app.add_option("--simulate_power_loss", o.simulate_power_loss,
                 "Keep unsynced file data in memory, so a kill loses it as a power loss would");
  app.add_option("--write_buffer_size", o.write_buffer_size, "Memory component budget (bytes)")
      ->check(CLI::Range(size_t{4096}, size_t{1} << 34));
  app.add_option("--seed", o.seed, "Random seed (0: from the clock)");
  app.add_flag("--verify_only", o.verify_only,
               "Open, verify the whole key space against the expected state, and exit");
  app.add_flag("--destroy", o.destroy, "Start from an empty database and expected state");
  app.add_option("--max_batch", o.max_batch, "Keys in a multi-key batch (2..N)")
      ->check(CLI::Range(2, 1000));
  app.add_option("--put_percent", o.put_percent)->check(CLI::Range(0, 100));
  app.add_option("--delete_percent", o.delete_percent)->check(CLI::Range(0, 100));
  app.add_option("--batch_percent", o.batch_percent)->check(CLI::Range(0, 100));
  app.add_option("--rmw_percent", o.rmw_percent)->check(CLI::Range(0, 100));
  app.add_option("--snapshot_percent", o.snapshot_percent)->check(CLI::Range(0, 100));
  app.add_option("--iterate_percent", o.iterate_percent)->check(CLI::Range(0, 100));
  app.add_option("--delete_range_percent", o.delete_range_percent)->check(CLI::Range(0, 100));
  app.add_option("--column_families", o.column_families,
                 "Column families the keys are spread over (key k in family k % N)")
      ->check(CLI::Range(1, 16));
  app.add_option("--sequential_writes", o.sequential_writes,
                 "Write keys in ascending order from a shared cursor, as a bulk load does "
                 "(flushed files then move down levels whole); reads stay uniform");
  app.add_option("--databases", databases,
                 "Databases driven at once in this process (<db>-<i>, <expected_state>-<i>)")
      ->check(CLI::Range(1, 16));
  app.add_flag("--list_kill_points", list_kill_points, "Print the engine's kill points and exit");
  // --list_kill_points needs no database.
  for (int i = 1; i < argc; i++) {
    if (std::string_view(argv[i]) == "--list_kill_points") {
      for (std::string_view p : sluice::kill_point::kAllKillPoints) {
        std::printf("%.*s\n", static_cast<int>(p.size()), p.data());
      }
      return 0;
    }
  }
  CLI11_PARSE(app, argc, argv);
  if (o.expected_state.empty()) o.expected_state = o.db + ".expected";
  if (o.put_percent + o.delete_percent + o.batch_percent + o.rmw_percent + o.snapshot_percent +
          o.iterate_percent + o.delete_range_percent >
      100) {
    std::fprintf(stderr, "error: the operation percentages add up to more than 100\n");
    return 2;
  }
  if (o.duration == 0 && o.ops_per_thread == 0 && !o.verify_only) {
    std::fprintf(stderr, "error: give --duration or --ops_per_thread\n");
    return 2;
  }
  if (databases == 1) return sluice::stress::RunStress(o);
  std::vector<int> codes(static_cast<size_t>(databases), 0);
  std::vector<std::thread> drivers;
  for (int i = 0; i < databases; i++) {
    sluice::stress::StressOptions each = o;
    each.db = o.db + "-" + std::to_string(i);
    each.expected_state = o.expected_state + "-" + std::to_string(i);
    if (o.seed != 0) each.seed = o.seed + static_cast<uint64_t>(i);
    drivers.emplace_back(
        [each, code = &codes[static_cast<size_t>(i)]] { *code = sluice::stress::RunStress(each); });
  }
  for (auto& t : drivers) t.join();
  // A failed check (1) first, else an error (2), else 0.
  if (std::count(codes.begin(), codes.end(), 1) > 0) return 1;
  return *std::max_element(codes.begin(), codes.end());
}
