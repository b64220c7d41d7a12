"""Crash tests: sluice_stress is killed with SIGKILL over and over, and every restart verifies
that the database kept what it promised (tools/sluice_stress/expected_state.h).

* blackbox: kill -9 from outside at a random moment;
* whitebox: a kill point inside the engine (SLUICE_KILL_POINT, src/util/kill_point.h) fires —
  in the WAL append, a flush, a MANIFEST or CURRENT install, a compaction install, file deletion;
* power loss: the same with --simulate_power_loss, where unsynced file data dies with the
  process.
Each over every memory component and sync=true/false, and each again with the keys spread over
three column families (one per memory component kind), so that batches and range deletions
span families and recovery must restore each one whole from the WAL they share; with three
databases in one process (--databases=3), killed together; and with keys
written in ascending order (--sequential_writes), so that compactions move files down a level
whole. Every restart verifies, then flushes, reopens and verifies again. A process crash may lose no acknowledged
write in either sync mode (sluice hands every acknowledged write to the OS); a power loss may
lose only a tail of the sync=false writes (the recovered state is a prefix in sequence order).

CRASH_CYCLES (default 1) is the number of kill cycles per test: `make test` runs 1,
`make crash-test` enough for >= 200 in all. SLUICE_STRESS names the sluice_stress binary.
"""

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import TOTALS

ROOT = Path(__file__).resolve().parents[2]
STRESS = os.environ.get("SLUICE_STRESS", str(ROOT / "build/dev/tools/sluice_stress"))
CYCLES = int(os.environ.get("CRASH_CYCLES", "1"))
SEED = int(os.environ.get("CRASH_SEED", str(int(time.time()))))
COMPONENTS = ["flodb", "skiplist", "vector", "vector-prealloc", "hash-skiplist",
              "hash-linklist", "adaptive"]
SYNC = [False, True]

# How often a kill point fires when reached (1 in N): points reached on every write get long
# odds, so runs get somewhere before dying; points reached once per flush fire soon.
KILL_ODDS = {"wal.": 3000, "manifest.": 3, "table.": 3, "flush.": 2, "compaction.": 2,
             "current.": 1, "obsolete.": 2}


def kill_points():
    out = subprocess.run([STRESS, "--list_kill_points"], check=True, capture_output=True,
                         text=True).stdout
    return out.split()


def parse(output):
    """Numbers from a run's output: its opening verification and its last progress line."""
    stats = {}
    v = re.search(r"^verify: keys=(\d+) history_writes=\d+ acknowledged=\d+ in_flight=(\d+) "
                  r"lost_unsynced=(\d+) .*result=(\w+)", output, re.M)
    if v:
        stats.update(keys=int(v[1]), in_flight=int(v[2]), lost=int(v[3]), result=v[4])
    progress = re.findall(r"^(?:progress|done): .*?ops=(\d+) writes=(\d+) verifications=(\d+) "
                          r"trivial_moves=(\d+)", output, re.M)
    if progress:
        ops, writes, checks, moves = progress[-1]
        stats.update(ops=int(ops), writes=int(writes), checks=int(checks), moves=int(moves))
    return stats


class Driver:
    """One database and its expected state, run and killed cycle after cycle."""

    def __init__(self, tmp_path, component, sync, power_loss=False, families=1, extra=()):
        self.base = [STRESS, f"--db={tmp_path}/db", f"--expected_state={tmp_path}/expected",
                     f"--memtable={component}", f"--sync={int(sync)}",
                     f"--simulate_power_loss={int(power_loss)}", "--threads=4",
                     f"--column_families={families}", *extra]
        self.log = tmp_path / "runs.log"
        self.trivial_moves = 0
        self.rng = random.Random(f"{SEED}/{component}/{sync}/{power_loss}/{families}")
        self.run(["--destroy", "--verify_only"])

    def run(self, extra, kill_after=None, env=None, timeout=120):
        cmd = self.base + extra
        with open(self.log, "a") as log:
            log.write(f"$ {' '.join(cmd)}  (kill after {kill_after}, env {env})\n")
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=dict(os.environ, **(env or {})))
        killed_by_us = False
        if kill_after is not None:
            try:
                proc.wait(timeout=kill_after)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGKILL)
                killed_by_us = True
        output, _ = proc.communicate(timeout=timeout)
        with open(self.log, "a") as log:
            log.write(output)
        stats = parse(output)
        # A run killed before its opening verification (a kill point at open) is no failure:
        # the next run verifies what it left.
        failed = "FAILURE" in output or (proc.returncode not in (0, -signal.SIGKILL))
        killed = proc.returncode == -signal.SIGKILL
        TOTALS["cycles"] += 1 if (killed or "done:" in output) else 0
        TOTALS["kills"] += 1 if killed else 0
        TOTALS["operations"] += stats.get("ops", 0)
        TOTALS["writes"] += stats.get("writes", 0)
        TOTALS["read_checks"] += stats.get("checks", 0)
        TOTALS["trivial_moves"] += stats.get("moves", 0)
        self.trivial_moves += stats.get("moves", 0)
        if stats.get("result") == "ok":
            TOTALS["verifications"] += 1
            TOTALS["keys_verified"] += stats["keys"]
            TOTALS["in_flight_at_kill"] += stats["in_flight"]
            TOTALS["lost_unsynced"] += stats["lost"]
        if failed:
            TOTALS["failures"] += 1
            pytest.fail(f"sluice_stress failed (exit {proc.returncode}, killed by us: "
                        f"{killed_by_us}); its output:\n{output[-4000:]}\nall runs: {self.log}")
        return output

    def final_verify(self):
        out = self.run(["--verify_only"])
        assert "result=ok" in out, out


@pytest.mark.parametrize("sync", SYNC, ids=["sync0", "sync1"])
@pytest.mark.parametrize("component", COMPONENTS)
def test_blackbox_kill(tmp_path, component, sync):
    d = Driver(tmp_path, component, sync)
    for _ in range(CYCLES):
        d.run(["--duration=60", f"--seed={d.rng.randrange(1, 2**31)}"],
              kill_after=d.rng.uniform(0.3, 2.0))
    d.final_verify()


@pytest.mark.parametrize("sync", SYNC, ids=["sync0", "sync1"])
@pytest.mark.parametrize("component", COMPONENTS)
def test_whitebox_kill_points(tmp_path, component, sync):
    d = Driver(tmp_path, component, sync)
    points = kill_points()
    for _ in range(CYCLES):
        point = d.rng.choice(points)
        odds = next(v for k, v in KILL_ODDS.items() if point.startswith(k))
        # Runs end by themselves after 3 s if the point is never reached.
        d.run(["--duration=3", f"--seed={d.rng.randrange(1, 2**31)}"],
              env={"SLUICE_KILL_POINT": point, "SLUICE_KILL_ODDS": str(odds)})
    d.final_verify()


@pytest.mark.parametrize("sync", SYNC, ids=["sync0", "sync1"])
@pytest.mark.parametrize("component", COMPONENTS)
def test_power_loss(tmp_path, component, sync):
    d = Driver(tmp_path, component, sync, power_loss=True)
    for _ in range(CYCLES):
        d.run(["--duration=60", f"--seed={d.rng.randrange(1, 2**31)}"],
              kill_after=d.rng.uniform(0.3, 2.0))
    d.final_verify()


def kill_cycles(d, mode):
    """CYCLES runs of d, each killed: at a random kill point (whitebox), or from outside at a
    random moment (blackbox, power_loss)."""
    points = kill_points()
    for _ in range(CYCLES):
        seed = f"--seed={d.rng.randrange(1, 2**31)}"
        if mode == "whitebox":
            point = d.rng.choice(points)
            odds = next(v for k, v in KILL_ODDS.items() if point.startswith(k))
            d.run(["--duration=3", seed],
                  env={"SLUICE_KILL_POINT": point, "SLUICE_KILL_ODDS": str(odds)})
        else:
            d.run(["--duration=60", seed], kill_after=d.rng.uniform(0.3, 2.0))


@pytest.mark.parametrize("sync", SYNC, ids=["sync0", "sync1"])
@pytest.mark.parametrize("mode", ["blackbox", "whitebox", "power_loss"])
def test_column_families(tmp_path, mode, sync):
    """Three families (flodb, hash-linklist, skiplist), key k in family k % 3: a multi-key
    batch or a range deletion spans families, and the verifier's prefix check fails if
    recovery restores one family's part of a batch without another's."""
    d = Driver(tmp_path, "flodb", sync, power_loss=mode == "power_loss", families=3)
    kill_cycles(d, mode)
    d.final_verify()


@pytest.mark.parametrize("mode", ["blackbox", "whitebox", "power_loss"])
def test_several_databases_in_one_process(tmp_path, mode):
    """Three databases in one process (--databases=3: flodb, each with its own expected
    state), killed together: their flushes, compactions and drains share the process's
    background pools, and each must recover what it acknowledged."""
    d = Driver(tmp_path, "flodb", False, power_loss=mode == "power_loss",
               extra=["--databases=3"])
    kill_cycles(d, mode)
    out = d.run(["--verify_only"])
    assert len(re.findall(r"^verify: .*result=ok", out, re.M)) == 3, out


# The load that must move files: operations per thread of one run from an empty database
# (a fixed amount of work, not of time, so a slow or busy machine does the same), and how many
# such runs may go by without a move before the test fails.
SEQUENTIAL_LOAD_OPS = 20000
SEQUENTIAL_LOAD_ATTEMPTS = 5


def load_until_a_file_moves(d):
    """Runs the sequential load to its end from an empty database until a run reports a file
    moved down a level whole. A killed run may die before it reports its moves, and how many
    moves a time-bounded run makes depends on the machine's speed, so the kill cycles alone
    cannot be relied on to see one."""
    for _ in range(SEQUENTIAL_LOAD_ATTEMPTS):
        d.run(["--destroy", "--duration=0", f"--ops_per_thread={SEQUENTIAL_LOAD_OPS}",
               f"--seed={d.rng.randrange(1, 2**31)}"])
        if d.trivial_moves > 0:
            return
    pytest.fail(f"{SEQUENTIAL_LOAD_ATTEMPTS} sequential loads of {SEQUENTIAL_LOAD_OPS} "
                f"operations per thread moved no file down a level; runs: {d.log}")


@pytest.mark.parametrize("mode", ["blackbox", "whitebox", "power_loss"])
@pytest.mark.parametrize("component", ["flodb", "skiplist"])
def test_sequential_writes_move_files(tmp_path, component, mode):
    """Keys written in ascending order, as a bulk load writes them: flushed files cover
    disjoint ranges and compactions move them down a level whole (trivial moves), which
    uniform keys never cause. A load that runs to its end first leaves moved files; then the
    kill cycles. Every restart verifies, flushes, reopens and verifies again, so a moved file
    that recovery takes for obsolete (the bug 322b58f fixed: the first deletion pass after open
    removed it) fails the run."""
    d = Driver(tmp_path, component, False, power_loss=mode == "power_loss",
               extra=["--sequential_writes=1", "--max_key=100000"])
    points = kill_points()
    load_until_a_file_moves(d)
    for _ in range(CYCLES):
        seed = f"--seed={d.rng.randrange(1, 2**31)}"
        if mode == "whitebox":
            point = d.rng.choice([p for p in points if p.startswith(("compaction.", "manifest."))])
            d.run(["--duration=3", seed],
                  env={"SLUICE_KILL_POINT": point, "SLUICE_KILL_ODDS": "3"})
        else:
            d.run(["--duration=60", seed], kill_after=d.rng.uniform(1.0, 2.5))
    d.final_verify()


def test_every_kill_point_in_the_engine_is_listed():
    listed = set(kill_points())
    used = set()
    for f in (ROOT / "src").rglob("*.cc"):
        text = f.read_text()
        used |= set(re.findall(r'SLUICE_KILL_POINT\("([a-z_.]+)"\)', text))
        for event in re.findall(r'KillPointName\("([a-z_]+)"\)', text):
            used |= {"wal." + event, "manifest." + event}
    assert used, "no kill point found in src/"
    assert used <= listed, f"kill points missing from kAllKillPoints: {used - listed}"
    assert listed <= used, f"listed kill points the engine never reaches: {listed - used}"


def test_a_lost_acknowledged_write_is_caught(tmp_path):
    """The check can fail: cut the WAL after a kill and the next verification must say so."""
    d = Driver(tmp_path, "skiplist", False)
    # A large memory component: everything stays in the WAL, nothing is flushed. The cut must
    # lose acknowledged writes, so the WAL must hold some beyond the few in flight at the kill:
    # a run that a busy machine left with a short WAL is repeated, killed later each time (each
    # run starts a new WAL, the newest).
    for kill_after in (1.0, 2.0, 4.0, 8.0, 16.0):
        d.run(["--duration=60", "--write_buffer_size=268435456", "--seed=7"],
              kill_after=kill_after)
        logs = sorted((tmp_path / "db").glob("*.log"))
        if logs and logs[-1].stat().st_size >= 64 << 10:
            break
    assert logs, "no WAL file"
    newest = logs[-1]
    os.truncate(newest, newest.stat().st_size // 2)
    proc = subprocess.run(d.base + ["--verify_only"], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAILURE" in proc.stdout and "expected" in proc.stdout, proc.stdout


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"] + sys.argv[1:]))
