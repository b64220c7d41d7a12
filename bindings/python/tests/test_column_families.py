# tests/test_column_families.py — column families from Python: db.column_family(name) objects
# with the DB's methods, create/drop, reopening (every family is opened; column_families= gives
# families their own options), batches across families, snapshots and iterators per family,
# list_column_families, and the errors for unknown names and dropped families.
import pytest

import sluice
from conftest import SMALL


def test_families_are_separate_keyspaces(path):
    with sluice.DB(path, **SMALL) as db:
        users = db.create_column_family("users", memtable="hash-linklist")
        assert users.name == "users"
        assert db.name == "default"
        assert db.column_families == ["default", "users"]
        db[b"k"] = b"default"
        users[b"k"] = b"users"
        users.put(b"u", b"1")
        assert db[b"k"] == b"default"
        assert users[b"k"] == b"users"
        assert b"u" not in db
        assert users.multi_get([b"k", b"u", b"x"]) == [b"users", b"1", None]
        assert list(users.iterator()) == [(b"k", b"users"), (b"u", b"1")]
        assert users.increment(b"n", 2) == 2
        users.delete_range(b"a", b"l")
        assert users.get(b"k") is None
        users.flush()
        assert users.property("sluice.num-files-at-level0") == "1"
        assert db.property("sluice.num-files-at-level0") == "0"
        assert users.stats()["column_family"] == "users"
        assert "users" in repr(users)
    assert sluice.list_column_families(path) == ["default", "users"]
    # Reopened with every family, without naming them.
    with sluice.DB(path, **SMALL) as db:
        users = db.column_family("users")
        assert users[b"u"] == b"1"
        assert db.column_family("default")[b"k"] == b"default"


def test_batch_across_families_and_snapshots(path):
    with sluice.DB(path, **SMALL) as db:
        a = db.create_column_family("a")
        b = db.create_column_family("b", memtable="skiplist")
        snap = a.snapshot()
        with db.write_batch() as batch:
            batch.put(b"x", b"in-a", column_family=a)
            batch.put(b"x", b"in-b", column_family=b)
            batch.put(b"x", b"in-default")
        assert snap.get(b"x") is None
        assert a[b"x"] == b"in-a" and b[b"x"] == b"in-b" and db[b"x"] == b"in-default"
        snap.close()
        with a.write_batch() as batch:  # a family's batch writes to it by default
            batch.delete(b"x")
            batch.put(b"y", b"1", column_family=b)
        assert a.get(b"x") is None and b[b"y"] == b"1"
        with pytest.raises(TypeError):
            db.write_batch().put(b"k", b"v", column_family="a")


def test_family_options_on_reopen_and_create_missing(path):
    with sluice.DB(path, column_families={"logs": {"memtable": "vector"}, "meta": None}) as db:
        assert db.column_families == ["default", "logs", "meta"]
        db.column_family("logs")[b"k"] = b"v"
    with sluice.DB(path, column_families={"logs": {"memtable": "skiplist"}}) as db:
        assert db.column_family("logs")[b"k"] == b"v"
        assert db.column_families == ["default", "logs", "meta"]
    with pytest.raises(TypeError):
        sluice.DB(path, column_families=["logs"])


def test_drop_and_errors(path):
    with sluice.DB(path) as db:
        doomed = db.create_column_family("doomed")
        doomed[b"k"] = b"v"
        with pytest.raises(sluice.InvalidArgument, match="already exists"):
            db.create_column_family("doomed")
        with pytest.raises(KeyError, match="no column family named nope"):
            db.column_family("nope")
        db.drop_column_family("doomed")
        with pytest.raises(sluice.InvalidArgument, match="dropped"):
            doomed.get(b"k")
        with pytest.raises(KeyError):
            db.column_family("doomed")
        with pytest.raises(sluice.InvalidArgument):
            db.drop_column_family("doomed")
        with pytest.raises(sluice.InvalidArgument, match="cannot be dropped"):
            db.drop_column_family(db)
        again = db.create_column_family("doomed")
        assert again.get(b"k") is None
    assert sluice.list_column_families(path) == ["default", "doomed"]
