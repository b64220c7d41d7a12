"""pytest glue for the crash tests: totals over every cycle, printed at the end of the run and,
if CRASH_SUMMARY names a file, written there as JSON (docs/reliability.md quotes them)."""

import json
import os

import pytest

TOTALS = {
    "cycles": 0,  # runs of sluice_stress that were killed or that ran to their end
    "kills": 0,  # of them, killed (kill -9 from outside, or a kill point that fired)
    "operations": 0,  # operations the killed/finished runs completed
    "writes": 0,  # acknowledged writes among them
    "read_checks": 0,  # reads checked against the expected state while running
    "verifications": 0,  # full verifications of the key space after a restart
    "keys_verified": 0,
    "in_flight_at_kill": 0,
    "lost_unsynced": 0,  # acknowledged sync=false writes lost to a simulated power loss
    "trivial_moves": 0,  # files compactions moved down a level whole, as last reported by a run
    "failures": 0,
}


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    t = TOTALS
    terminalreporter.write_line(
        "crash-test totals: {cycles} cycles, {kills} kills, {operations} operations, "
        "{writes} acknowledged writes, {read_checks} reads checked while running, "
        "{verifications} full verifications ({keys_verified} keys), {in_flight_at_kill} writes "
        "in flight at a kill, {lost_unsynced} unsynced writes lost to simulated power loss, "
        "{trivial_moves} files moved down a level whole, {failures} failures".format(**t))
    path = os.environ.get("CRASH_SUMMARY")
    if path:
        with open(path, "w") as f:
            json.dump(t, f, indent=2)
