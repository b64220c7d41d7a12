# tests/test_misuse.py — misuse and errors: every call on a closed database (and on its
# iterators, snapshots and batches) raises sluice.Error, wrong argument types raise TypeError,
# bad options raise TypeError / InvalidArgument naming the option, a locked database is Busy, a
# missing one InvalidArgument, a damaged one Corruption.
import os

import pytest

import sluice

DB_CALLS = {
    "put": lambda db: db.put(b"k", b"v"),
    "get": lambda db: db.get(b"k"),
    "get_default": lambda db: db.get(b"k", b"d"),
    "delete": lambda db: db.delete(b"k"),
    "getitem": lambda db: db[b"k"],
    "setitem": lambda db: db.__setitem__(b"k", b"v"),
    "delitem": lambda db: db.__delitem__(b"k"),
    "contains": lambda db: b"k" in db,
    "multi_get": lambda db: db.multi_get([b"k"]),
    "read_modify_write": lambda db: db.read_modify_write(b"k", lambda v: b"x"),
    "put_if_absent": lambda db: db.put_if_absent(b"k", b"v"),
    "compare_and_swap": lambda db: db.compare_and_swap(b"k", None, b"v"),
    "increment": lambda db: db.increment(b"n"),
    "write_batch": lambda db: db.write_batch(),
    "snapshot": lambda db: db.snapshot(),
    "iterator": lambda db: db.iterator(),
    "iter": lambda db: iter(db),
    "property": lambda db: db.property("sluice.stats"),
    "stats": lambda db: db.stats(),
    "flush": lambda db: db.flush(),
    "compact_range": lambda db: db.compact_range(),
}


@pytest.mark.parametrize("call", DB_CALLS.values(), ids=DB_CALLS.keys())
def test_every_db_call_on_closed_db_raises(path, call):
    db = sluice.DB(path)
    db.close()
    with pytest.raises(sluice.Error, match="closed"):
        call(db)


def test_objects_of_a_closed_db_raise(path):
    db = sluice.DB(path)
    db[b"a"] = b"1"
    db[b"b"] = b"2"
    it = db.iterator()
    assert next(it) == (b"a", b"1")  # the next entry is already fetched
    snap = db.snapshot()
    wb = db.write_batch()
    wb.put(b"c", b"3")
    db.close()
    with pytest.raises(sluice.Error, match="closed"):
        next(it)
    for call in (
        lambda: snap.get(b"a"),
        lambda: snap[b"a"],
        lambda: b"a" in snap,
        lambda: snap.iterator(),
        lambda: iter(snap),
        lambda: wb.put(b"k", b"v"),
        lambda: wb.delete(b"k"),
        lambda: wb.clear(),
        lambda: len(wb),
        lambda: wb.write(),
    ):
        with pytest.raises(sluice.Error, match="closed"):
            call()
    with pytest.raises(sluice.Error, match="closed"):
        with wb:  # committing at the end of the block fails
            pass
    # Closing is always allowed.
    it.close()
    snap.close()
    with snap:
        pass
    db.close()


def test_closed_error_is_the_base_class(path):
    db = sluice.DB(path)
    db.close()
    with pytest.raises(sluice.Error) as excinfo:
        db.get(b"k")
    assert type(excinfo.value) is sluice.Error
    assert path in str(excinfo.value)


KEY_CALLS = {
    "put_key": lambda db, bad: db.put(bad, b"v"),
    "get": lambda db, bad: db.get(bad),
    "delete": lambda db, bad: db.delete(bad),
    "getitem": lambda db, bad: db[bad],
    "setitem": lambda db, bad: db.__setitem__(bad, b"v"),
    "delitem": lambda db, bad: db.__delitem__(bad),
    "contains": lambda db, bad: bad in db,
    "read_modify_write": lambda db, bad: db.read_modify_write(bad, lambda v: v),
    "put_if_absent": lambda db, bad: db.put_if_absent(bad, b"v"),
    "compare_and_swap": lambda db, bad: db.compare_and_swap(bad, None, b"v"),
    "increment": lambda db, bad: db.increment(bad),
    "snapshot_get": lambda db, bad: db.snapshot().get(bad),
}


@pytest.mark.parametrize("call", KEY_CALLS.values(), ids=KEY_CALLS.keys())
@pytest.mark.parametrize("bad", ["text", 42, None, [b"a"]], ids=["str", "int", "None", "list"])
def test_key_must_be_bytes(db, call, bad):
    with pytest.raises(TypeError, match=f"key must be bytes, not {type(bad).__name__}"):
        call(db, bad)


def test_value_must_be_bytes(db):
    with pytest.raises(TypeError, match="value must be bytes, not str"):
        db.put(b"k", "v")
    with pytest.raises(TypeError, match="value must be bytes, not NoneType"):
        db[b"k"] = None
    with pytest.raises(TypeError, match="value must be bytes, not int"):
        db.put_if_absent(b"k", 1)
    with pytest.raises(TypeError, match="start must be bytes, not str"):
        db.compact_range("a")
    assert b"k" not in db


def test_unknown_option_is_type_error(path):
    with pytest.raises(TypeError, match="unknown option 'block_sise'; did you mean 'block_size'"):
        sluice.DB(path, block_sise=4096)
    with pytest.raises(TypeError, match="unknown option 'frobnicate'"):
        sluice.DB(path, frobnicate=True)
    with pytest.raises(TypeError, match="unknown option"):
        sluice.destroy_db(path, nope=1)
    assert not os.path.exists(path)  # nothing was created


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("paranoid_checks", 1, "option 'paranoid_checks' must be bool, not int"),
        ("block_size", "4096", "option 'block_size' must be int, not str"),
        ("block_size", 4096.0, "option 'block_size' must be int, not float"),
        ("num_levels", True, "option 'num_levels' must be int, not bool"),
        ("membuffer_fraction", "0.5", "option 'membuffer_fraction' must be float, not str"),
        ("memtable", 3, "option 'memtable' must be str, not int"),
        ("compression", 1, "option 'compression' must be str or None, not int"),
        ("sync", "yes", "option 'sync' must be bool, not str"),
        ("create_if_missing", None, "option 'create_if_missing' must be bool, not NoneType"),
    ],
)
def test_option_of_wrong_type_is_type_error(path, option, value, message):
    with pytest.raises(TypeError, match=message):
        sluice.DB(path, **{option: value})


@pytest.mark.parametrize(
    "option, value",
    [
        ("block_size", -1),
        ("write_buffer_size", 2**64),
        ("num_levels", 2**31),
        ("max_open_files", -(2**40)),
        ("compression", "gzip"),
    ],
)
def test_option_out_of_range_is_invalid_argument(path, option, value):
    with pytest.raises(sluice.InvalidArgument, match=f"option '{option}'"):
        sluice.DB(path, **{option: value})


def test_option_rejected_by_engine_is_invalid_argument(path):
    with pytest.raises(sluice.InvalidArgument, match="num_levels"):
        sluice.DB(path, num_levels=0)


def test_opening_twice_is_busy(db, path):
    with pytest.raises(sluice.Busy):
        sluice.DB(path)
    db[b"still"] = b"works"
    assert db[b"still"] == b"works"


def test_missing_db_without_create_is_invalid_argument(path):
    with pytest.raises(sluice.InvalidArgument, match="does not exist"):
        sluice.DB(path, create_if_missing=False)
    with pytest.raises(ValueError):
        sluice.DB(path, create_if_missing=False)
    assert not os.path.exists(path)


def test_bad_path_type(tmp_path):
    with pytest.raises(TypeError):
        sluice.DB(42)


def test_corrupt_current_file_is_corruption(path):
    sluice.DB(path).close()
    with open(os.path.join(path, "CURRENT"), "wb") as f:
        f.write(b"garbage\n")
    with pytest.raises(sluice.Corruption, match="CURRENT"):
        sluice.DB(path)


def test_corrupt_sst_block_is_corruption(path):
    with sluice.DB(path, compression="none") as db:
        for i in range(2000):
            db[b"k%05d" % i] = b"value-%05d" % i * 10
        db.flush()
    (sst,) = [n for n in os.listdir(path) if n.endswith(".sst")]
    sst_path = os.path.join(path, sst)
    data = bytearray(open(sst_path, "rb").read())
    for offset in range(100, 120):  # inside the first data block
        data[offset] ^= 0xFF
    with open(sst_path, "wb") as f:
        f.write(data)
    with sluice.DB(path) as db:
        with pytest.raises(sluice.Corruption):
            db.get(b"k00000")
        with pytest.raises(sluice.Corruption):
            list(db.iterator())


def test_io_error_is_oserror(path):
    # A directory where the database directory should be created is a file: an I/O error.
    with open(path, "wb") as f:
        f.write(b"not a directory")
    with pytest.raises(OSError) as excinfo:
        sluice.DB(os.path.join(path, "db"))
    assert isinstance(excinfo.value, sluice.IOError)


def test_close_inside_read_modify_write_raises(db):
    def fn(current):
        db.close()
        return b"never"

    with pytest.raises(sluice.Error, match="inside a read_modify_write"):
        db.read_modify_write(b"k", fn)
    assert b"k" not in db
    assert not db.closed
