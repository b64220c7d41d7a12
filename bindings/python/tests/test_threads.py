# tests/test_threads.py — several Python threads using one database (correct final contents),
# proof that engine calls release the GIL (deterministic: each test can only finish if the
# main thread runs Python code while another thread is blocked inside an engine call; each runs
# in a subprocess with a timeout, so a regression fails instead of hanging), and close() while
# other threads are inside calls or iterating.
import os
import subprocess
import sys
import textwrap
import threading

import pytest

import sluice
from conftest import SMALL


def test_concurrent_writers_and_readers(path):
    n_threads, per_thread = 4, 1500
    errors = []
    with sluice.DB(path, **SMALL) as db:

        def writer(t):
            try:
                for i in range(per_thread):
                    k = b"t%d-%05d" % (t, i)
                    db[k] = k * 3
                    if i % 5 == 0:
                        del db[k]
                    if i % 100 == 0:
                        with db.write_batch() as wb:
                            wb.put(b"batch-t%d-%d" % (t, i), b"b")
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        def reader(t):
            try:
                for i in range(per_thread):
                    k = b"t%d-%05d" % (t, i)
                    v = db.get(k)
                    assert v is None or v == k * 3
                    if i % 300 == 0:
                        for key, value in db.iterator(prefix=b"t%d-" % t):
                            assert value == key * 3
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=writer, args=(t,)) for t in range(n_threads)]
        threads += [threading.Thread(target=reader, args=(t,)) for t in range(n_threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        expected = {}
        for t in range(n_threads):
            for i in range(per_thread):
                k = b"t%d-%05d" % (t, i)
                if i % 5 != 0:
                    expected[k] = k * 3
                if i % 100 == 0:
                    expected[b"batch-t%d-%d" % (t, i)] = b"b"
        assert dict(db) == expected
    with sluice.DB(path) as db:
        assert dict(db) == expected


def run_isolated(script, timeout=30):
    """Runs `script` in a fresh interpreter; a deadlock there is a timeout here, not a hang."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(script)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("deadlock: the GIL was held during a blocking engine call")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_gil_released_while_open_blocks(tmp_path):
    # The engine reads the CURRENT file when it opens a database. Replaced by a FIFO, that read
    # blocks until the main thread writes the contents: possible only if DB() released the GIL.
    script = f"""
    import os, threading, sluice
    path = {str(tmp_path / "db")!r}
    sluice.DB(path).close()
    current = os.path.join(path, "CURRENT")
    contents = open(current, "rb").read()
    os.remove(current)
    os.mkfifo(current)
    result = {{}}
    def opener():
        db = sluice.DB(path, create_if_missing=False)
        result["ran_python_meanwhile"] = ran_python_meanwhile
        db.close()
    ran_python_meanwhile = False
    t = threading.Thread(target=opener)
    t.start()
    fd = os.open(current, os.O_WRONLY)  # waits for the opener to open the FIFO
    ran_python_meanwhile = True         # Python code while the opener is inside DB()
    os.write(fd, contents)
    os.close(fd)
    t.join()
    assert result["ran_python_meanwhile"], result
    print("ok")
    """
    assert run_isolated(script).strip() == "ok"


def test_gil_released_while_close_waits(tmp_path):
    # Thread A sits in a read_modify_write function (the call holds the database shared);
    # thread B calls close(), which waits inside the engine wrapper until A is done. The main
    # thread must run Python code while B is blocked in close(), and only then lets A finish.
    script = f"""
    import threading, time, sluice
    db = sluice.DB({str(tmp_path / "db")!r})
    in_fn, release_fn = threading.Event(), threading.Event()
    def fn(current):
        in_fn.set()
        release_fn.wait()
        return b"from-a"
    def a():
        a_result.append(db.read_modify_write(b"k", fn))
    def b():
        db.close()
        b_done.append(True)
    a_result, b_done = [], []
    ta = threading.Thread(target=a); ta.start()
    in_fn.wait()
    tb = threading.Thread(target=b); tb.start()
    # db.closed turns True inside close(), before it waits for A's call to end.
    while not db.closed:
        time.sleep(0.001)
    ran_python = sum(i for i in range(1000))  # B is blocked in close() meanwhile
    assert not b_done, "close() returned while a call was in progress"
    release_fn.set()
    ta.join(); tb.join()
    assert a_result == [b"from-a"] and b_done == [True] and db.closed
    with sluice.DB({str(tmp_path / "db")!r}) as d:
        assert d[b"k"] == b"from-a"
    print("ok")
    """
    assert run_isolated(script).strip() == "ok"


def test_python_threads_run_during_rmw_callback_waits(db):
    # read_modify_write takes the GIL only inside fn: other threads' calls proceed meanwhile.
    in_fn, release = threading.Event(), threading.Event()

    def fn(current):
        in_fn.set()
        release.wait()
        return b"v"

    t = threading.Thread(target=db.read_modify_write, args=(b"rmw", fn))
    t.start()
    in_fn.wait()
    db[b"other"] = b"written meanwhile"  # a write to another key does not wait for fn
    assert db[b"other"] == b"written meanwhile"
    release.set()
    t.join()
    assert db[b"rmw"] == b"v"


def test_close_while_threads_are_busy(path):
    db = sluice.DB(path, **SMALL)
    for i in range(3000):
        db[b"k%05d" % i] = b"v" * 50
    started = threading.Barrier(5)
    outcomes = []

    def worker(kind):
        started.wait()
        try:
            while True:
                if kind == "put":
                    db[os.urandom(8)] = b"x"
                elif kind == "get":
                    db.get(b"k00001")
                elif kind == "iterate":
                    for _ in db.iterator():
                        pass
                else:
                    with db.snapshot() as s:
                        s.get(b"k00002")
        except sluice.Error as e:
            outcomes.append((kind, str(e)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in ("put", "get", "iterate", "snap")]
    for t in threads:
        t.start()
    started.wait()
    db.close()
    for t in threads:
        t.join(timeout=60)
        assert not t.is_alive()
    assert len(outcomes) == 4
    assert all("closed" in message for _, message in outcomes), outcomes
    with sluice.DB(path) as d:  # closed cleanly: the lock is free and the data intact
        assert d[b"k02999"] == b"v" * 50


def test_close_releases_live_iterators_and_snapshots(path):
    db = sluice.DB(path)
    for i in range(1000):
        db[b"k%04d" % i] = b"v"
    its = [db.iterator() for _ in range(5)]
    next(its[0])
    snaps = [db.snapshot() for _ in range(3)]
    snap_it = snaps[0].iterator()
    db.close()  # must not wait for, or crash on, the live objects
    for it in its + [snap_it]:
        with pytest.raises(sluice.Error, match="closed"):
            next(it)
    for s in snaps:
        with pytest.raises(sluice.Error, match="closed"):
            s.get(b"k0001")
    del its, snaps, snap_it  # destroying them after close is safe
    with sluice.DB(path) as d:
        assert d[b"k0999"] == b"v"


def test_dropping_the_db_object_keeps_iterators_usable(path):
    db = sluice.DB(path)
    db[b"a"] = b"1"
    it = db.iterator()
    del db  # the iterator keeps the database open
    assert list(it) == [(b"a", b"1")]
    del it  # the last user gone: the database closes
    with sluice.DB(path) as d:
        assert d[b"a"] == b"1"


def test_shared_iterator_between_threads(db):
    for i in range(3000):
        db[b"k%05d" % i] = b"v"
    it = db.iterator(include_value=False)
    seen = [[] for _ in range(3)]

    def consume(n):
        for k in it:
            seen[n].append(k)

    threads = [threading.Thread(target=consume, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    merged = sorted(k for part in seen for k in part)
    assert merged == [b"k%05d" % i for i in range(3000)]


def test_interpreter_exit_with_daemon_threads_inside_calls(tmp_path):
    # Daemon threads still inside engine calls (gets, puts, scans, read_modify_write) when the
    # interpreter exits must not crash it: they park instead of taking the GIL back. The exit
    # races with the threads: before the exit gate (common.h) about one run in 40 aborted in an
    # iterator's destructor ("terminate called without an active exception"), so it runs 8 times.
    script = f"""
    import os, sys, threading, time, sluice
    db = sluice.DB({str(tmp_path / "db")!r})
    for i in range(2000):
        db[b"k%d" % i] = b"v" * 100
    it = db.iterator(); next(it)
    snap = db.snapshot(); snap_it = snap.iterator()
    def loop(kind):
        while True:
            if kind == 0:
                db.get(b"k1"); db[os.urandom(4)] = b"x"
            elif kind == 1:
                for _ in db.iterator(prefix=b"k1"): pass
            else:
                db.read_modify_write(b"n", lambda v: b"%d" % (int(v or b"0") + 1))
    for kind in (0, 1, 1, 2, 2):
        threading.Thread(target=loop, args=(kind,), daemon=True).start()
    time.sleep(0.2)
    print("ok")
    """
    for _ in range(8):
        assert run_isolated(script).strip() == "ok"
