# tests/test_writes.py — write batches (atomic commit, discard on exception, explicit write,
# reuse) and the atomic read-modify-writes: read_modify_write, put_if_absent, compare_and_swap
# and increment, including fn raising (the key is left unchanged) and fn running again on a
# conflict.
import struct
import threading

import pytest

import sluice

# --- write_batch -------------------------------------------------------------------------------


def test_batch_commits_on_success(db):
    db[b"gone"] = b"x"
    with db.write_batch() as wb:
        wb.put(b"a", b"1")
        wb.put(b"b", b"2")
        wb.delete(b"gone")
        wb.put(b"a", b"1-again")  # a later update to a key replaces an earlier one
        assert len(wb) == 4
        assert b"a" not in db  # nothing is visible before the commit
    assert len(wb) == 0
    assert dict(db) == {b"a": b"1-again", b"b": b"2"}


def test_batch_discarded_on_exception(db):
    db[b"a"] = b"old"
    with pytest.raises(RuntimeError, match="boom"):
        with db.write_batch() as wb:
            wb.put(b"a", b"new")
            wb.put(b"b", b"2")
            raise RuntimeError("boom")
    assert dict(db) == {b"a": b"old"}
    assert len(wb) == 0


def test_batch_explicit_write_and_reuse(db):
    wb = db.write_batch()
    wb.put(b"a", b"1")
    wb.write()
    assert db[b"a"] == b"1"
    assert len(wb) == 0  # write() empties the batch
    wb.put(b"b", b"2")
    wb.clear()
    wb.write()  # an empty batch writes nothing
    assert b"b" not in db
    wb.delete(b"a")
    wb.write()
    assert b"a" not in db


def test_batch_write_inside_with_block(db):
    with db.write_batch() as wb:
        wb.put(b"a", b"1")
        wb.write()
        assert db[b"a"] == b"1"
        wb.put(b"b", b"2")
    assert db[b"b"] == b"2"


def test_batch_is_atomic_for_readers(db):
    # A reader sees all of a batch or none of it.
    keys = [b"k%03d" % i for i in range(50)]
    stop = threading.Event()
    torn = []

    def reader():
        while not stop.is_set():
            with db.snapshot() as s:
                values = {s.get(k) for k in keys}
            if len(values) != 1:
                torn.append(values)

    with db.write_batch() as wb:
        for k in keys:
            wb.put(k, b"0")
    t = threading.Thread(target=reader)
    t.start()
    for round_ in range(1, 200):
        with db.write_batch() as wb:
            for k in keys:
                wb.put(k, b"%d" % round_)
    stop.set()
    t.join()
    assert torn == []


def test_batch_types(db):
    wb = db.write_batch()
    with pytest.raises(TypeError, match="key must be bytes, not str"):
        wb.put("a", b"1")
    with pytest.raises(TypeError, match="value must be bytes, not int"):
        wb.put(b"a", 1)
    with pytest.raises(TypeError, match="key must be bytes, not NoneType"):
        wb.delete(None)
    assert len(wb) == 0


# --- read_modify_write -------------------------------------------------------------------------


def test_rmw_sets_updates_and_deletes(db):
    seen = []

    def append(current):
        seen.append(current)
        return (current or b"") + b"x"

    assert db.read_modify_write(b"k", append) == b"x"
    assert db.read_modify_write(b"k", append) == b"xx"
    assert seen == [None, b"x"]
    assert db.read_modify_write(b"k", lambda current: None) is None
    assert b"k" not in db
    assert db.read_modify_write(b"missing", lambda current: None) is None
    assert db.read_modify_write(b"k", lambda current: bytearray(b"ba")) == b"ba"


def test_rmw_fn_raising_leaves_key_unchanged(db):
    db[b"k"] = b"before"

    def fail(current):
        raise ValueError("nope")

    with pytest.raises(ValueError, match="nope"):
        db.read_modify_write(b"k", fail)
    assert db[b"k"] == b"before"
    with pytest.raises(ValueError, match="nope"):
        db.read_modify_write(b"absent", fail)
    assert b"absent" not in db


def test_rmw_bad_result_type(db):
    db[b"k"] = b"before"
    with pytest.raises(TypeError, match="result must be bytes, not str"):
        db.read_modify_write(b"k", lambda current: "text")
    assert db[b"k"] == b"before"
    with pytest.raises(TypeError, match="fn must be callable"):
        db.read_modify_write(b"k", b"not callable")


def test_rmw_fn_runs_again_on_conflict(db):
    # The first run of fn writes the key itself from another thread, which makes the engine's
    # optimistic attempt conflict: fn runs again, on the newer value.
    db[b"k"] = b"0"
    calls = []

    def fn(current):
        calls.append(current)
        if len(calls) == 1:
            t = threading.Thread(target=db.put, args=(b"k", b"other"))
            t.start()
            t.join()
        return current + b"+1"

    assert db.read_modify_write(b"k", fn) == b"other+1"
    assert calls == [b"0", b"other"]
    assert db[b"k"] == b"other+1"


def test_rmw_raising_after_conflict_leaves_the_other_write(db):
    db[b"k"] = b"0"
    calls = []

    def fn(current):
        calls.append(current)
        t = threading.Thread(target=db.put, args=(b"k", b"other"))
        t.start()
        t.join()
        raise KeyError("stop")

    with pytest.raises(KeyError):
        db.read_modify_write(b"k", fn)
    assert len(calls) == 1  # fn is not called again once it raised
    assert db[b"k"] == b"other"


def test_rmw_concurrent_counters(db):
    def add_one(current):
        return b"%d" % (int(current or b"0") + 1)

    def worker():
        for _ in range(300):
            db.read_modify_write(b"n", add_one)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert db[b"n"] == b"1200"


# --- put_if_absent, compare_and_swap, increment -------------------------------------------------


def test_put_if_absent(db):
    assert db.put_if_absent(b"k", b"first") is True
    assert db.put_if_absent(b"k", b"second") is False
    assert db[b"k"] == b"first"
    del db[b"k"]
    assert db.put_if_absent(b"k", b"third") is True


def test_compare_and_swap(db):
    assert db.compare_and_swap(b"k", None, b"v1") is True  # None: the key has no value
    assert db.compare_and_swap(b"k", None, b"v2") is False
    assert db.compare_and_swap(b"k", b"wrong", b"v2") is False
    assert db[b"k"] == b"v1"
    assert db.compare_and_swap(b"k", b"v1", b"v2") is True
    assert db[b"k"] == b"v2"
    with pytest.raises(TypeError, match="expected must be bytes, not str"):
        db.compare_and_swap(b"k", "v2", b"v3")
    with pytest.raises(TypeError, match="desired must be bytes, not NoneType"):
        db.compare_and_swap(b"k", b"v2", None)


def test_increment(db):
    assert db.increment(b"n") == 1
    assert db.increment(b"n", 10) == 11
    assert db.increment(b"n", delta=-20) == -9
    assert db[b"n"] == struct.pack("<q", -9)  # 8-byte little-endian two's complement
    db[b"m"] = struct.pack("<q", 2**63 - 1)
    assert db.increment(b"m") == -(2**63)  # wraps around


def test_increment_errors(db):
    db[b"text"] = b"12"
    with pytest.raises(sluice.InvalidArgument):
        db.increment(b"text")
    with pytest.raises(ValueError):  # InvalidArgument is a ValueError
        db.increment(b"text")
    assert db[b"text"] == b"12"
    with pytest.raises(TypeError, match="delta must be int, not float"):
        db.increment(b"n", 1.5)
    with pytest.raises(OverflowError):
        db.increment(b"n", 2**63)


def test_concurrent_increments_and_put_if_absent(db):
    winners = []

    def worker(i):
        if db.put_if_absent(b"owner", b"%d" % i):
            winners.append(i)
        for _ in range(500):
            db.increment(b"hits")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(winners) == 1
    assert db[b"owner"] == b"%d" % winners[0]
    assert db.increment(b"hits", 0) == 2000
