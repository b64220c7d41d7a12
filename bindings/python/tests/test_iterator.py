# tests/test_iterator.py — iterators (every combination of start, stop, prefix, reverse and
# include_value checked against a Python dict model, across memory components, SST files and
# fetch batches) and snapshots (they see the state of the moment they were taken).
import itertools
import random

import pytest

import sluice
from conftest import MEMTABLES, SMALL


def expected(model, start=None, stop=None, prefix=None, reverse=False, include_value=True):
    keys = sorted(
        k
        for k in model
        if (start is None or k >= start)
        and (stop is None or k < stop)
        and (prefix is None or k.startswith(prefix))
    )
    if reverse:
        keys.reverse()
    return [(k, model[k]) for k in keys] if include_value else keys


def random_model(seed, n):
    rng = random.Random(seed)
    alphabet = [b"a", b"ab", b"b", b"\x00", b"\xff", b"z"]
    model = {}
    while len(model) < n:
        k = b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4)))
        model[k] = rng.randbytes(rng.randint(0, 20))
    return model


BOUNDS = [None, b"", b"a", b"ab", b"abz", b"b", b"\xff", b"\xff\xff\xff\xff\xff"]
PREFIXES = [None, b"", b"a", b"ab", b"b", b"\xff", b"\xff\xff", b"zz-none"]


def check_all_combinations(source, model):
    for start, stop, prefix in itertools.product(BOUNDS, BOUNDS, PREFIXES):
        for reverse, include_value in itertools.product([False, True], repeat=2):
            args = dict(
                start=start,
                stop=stop,
                prefix=prefix,
                reverse=reverse,
                include_value=include_value,
            )
            got = list(source.iterator(**args))
            assert got == expected(model, **args), args


@pytest.mark.parametrize("state", ["memory", "flushed", "mixed"])
def test_iterator_matches_model(path, state):
    model = random_model(1, 300)
    with sluice.DB(path, **SMALL) as db:
        for k, v in model.items():
            db[k] = v
        if state != "memory":
            db.flush()
        if state == "mixed":  # overwrites and deletions above the SST file
            rng = random.Random(2)
            for k in rng.sample(sorted(model), 100):
                if rng.random() < 0.5:
                    del db[k]
                    del model[k]
                else:
                    model[k] = b"new" + model[k]
                    db[k] = model[k]
        check_all_combinations(db, model)


@pytest.mark.parametrize("memtable", MEMTABLES)
def test_iterator_every_memtable(path, memtable):
    model = random_model(3, 150)
    with sluice.DB(path, memtable=memtable) as db:
        for k, v in model.items():
            db[k] = v
        for args in (
            {},
            dict(reverse=True),
            dict(prefix=b"a"),
            dict(prefix=b"\xff", reverse=True),
            dict(start=b"ab", stop=b"b", include_value=False),
            dict(start=b"a", stop=b"z", reverse=True, include_value=False),
        ):
            assert list(db.iterator(**args)) == expected(model, **args), args


def test_iteration_across_fetch_batches(db):
    # More entries than several fetch batches (16, 32, ... up to 256 per release of the GIL).
    model = {b"k%06d" % i: b"v%d" % i for i in range(5000)}
    with db.write_batch() as wb:
        for k, v in model.items():
            wb.put(k, v)
    assert list(db) == sorted(model.items())
    assert list(db.iterator(reverse=True, include_value=False)) == sorted(model, reverse=True)
    it = db.iterator(start=b"k001000", stop=b"k004000")
    assert sum(1 for _ in it) == 3000


def test_for_loop_over_db_yields_pairs(db):
    db[b"b"] = b"2"
    db[b"a"] = b"1"
    assert [(k, v) for k, v in db] == [(b"a", b"1"), (b"b", b"2")]
    assert dict(db) == {b"a": b"1", b"b": b"2"}


def test_iterator_is_a_consistent_view(db):
    for i in range(1000):
        db[b"k%04d" % i] = b"old"
    it = db.iterator()
    first = next(it)
    for i in range(1000):
        db[b"k%04d" % i] = b"new"
    db[b"k9999"] = b"added"
    rest = list(it)
    assert first == (b"k0000", b"old")
    assert len(rest) == 999 and all(v == b"old" for _, v in rest)


def test_iterator_next_and_stop(db):
    db[b"a"] = b"1"
    it = db.iterator(include_value=False)
    assert iter(it) is it
    assert next(it) == b"a"
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(StopIteration):
        next(it)  # stays exhausted


def test_iterator_close_and_context_manager(db):
    db[b"a"] = b"1"
    db[b"b"] = b"2"
    with db.iterator() as it:
        assert next(it) == (b"a", b"1")
    with pytest.raises(sluice.Error, match="iterator is closed"):
        next(it)
    it.close()  # idempotent


def test_empty_ranges(db):
    db[b"a"] = b"1"
    assert list(db.iterator(start=b"b", stop=b"a")) == []
    assert list(db.iterator(start=b"a", stop=b"a")) == []
    assert list(db.iterator(prefix=b"a", start=b"b")) == []
    assert list(db.iterator(prefix=b"nothing")) == []


def test_iterator_argument_types(db):
    with pytest.raises(TypeError, match="start must be bytes, not str"):
        db.iterator(start="a")
    with pytest.raises(TypeError, match="stop must be bytes, not int"):
        db.iterator(stop=1)
    with pytest.raises(TypeError, match="prefix must be bytes, not str"):
        db.iterator(prefix="p")
    with pytest.raises(TypeError):
        db.iterator(b"positional")  # the arguments are keyword-only


# --- snapshots ---------------------------------------------------------------------------------


def test_snapshot_sees_old_state(db):
    db[b"a"] = b"1"
    db[b"b"] = b"2"
    with db.snapshot() as snap:
        db[b"a"] = b"changed"
        del db[b"b"]
        db[b"c"] = b"3"
        assert snap.get(b"a") == b"1"
        assert snap[b"b"] == b"2"
        assert snap.get(b"c") is None
        assert snap.get(b"c", b"default") == b"default"
        assert b"c" not in snap and b"b" in snap
        with pytest.raises(KeyError):
            snap[b"c"]
        assert list(snap.iterator()) == [(b"a", b"1"), (b"b", b"2")]
        assert list(snap) == [(b"a", b"1"), (b"b", b"2")]
        assert list(snap.iterator(reverse=True, include_value=False)) == [b"b", b"a"]
        assert list(snap.iterator(prefix=b"b")) == [(b"b", b"2")]
    assert db[b"a"] == b"changed"


def test_snapshot_survives_flush_and_compaction(path):
    with sluice.DB(path, **SMALL) as db:
        for i in range(2000):
            db[b"k%05d" % i] = b"old"
        snap = db.snapshot()
        for i in range(2000):
            db[b"k%05d" % i] = b"new"
        db.flush()
        db.compact_range()
        assert snap[b"k01000"] == b"old"
        assert all(v == b"old" for _, v in snap.iterator())
        assert db[b"k01000"] == b"new"
        snap.close()


def test_snapshot_iterator_model(path):
    model = random_model(4, 200)
    with sluice.DB(path) as db:
        for k, v in model.items():
            db[k] = v
        snap = db.snapshot()
        for k in list(model)[:50]:
            db[k] = b"after"
        del db[list(model)[60]]
        check_all_combinations(snap, model)
        snap.close()


def test_snapshot_close(db):
    db[b"a"] = b"1"
    snap = db.snapshot()
    it = snap.iterator()
    snap.close()
    snap.close()  # idempotent
    with pytest.raises(sluice.Error, match="snapshot is closed"):
        snap.get(b"a")
    with pytest.raises(sluice.Error, match="snapshot is closed"):
        snap.iterator()
    with pytest.raises(sluice.Error, match="snapshot is closed"):
        b"a" in snap
    # An iterator made before close keeps reading at the snapshot.
    db[b"a"] = b"2"
    assert list(it) == [(b"a", b"1")]


def test_many_snapshots_and_iterators_released_by_gc(db):
    for i in range(100):
        db[b"k%d" % i] = b"v"
        s = db.snapshot()
        it = s.iterator()
        next(it)
        del s, it
    assert db.stats()["snapshots_live"] == 0
