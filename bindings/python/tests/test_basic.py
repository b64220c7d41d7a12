# tests/test_basic.py — the DB's point operations, mapping protocol, options, properties and
# stats, flush and compaction, persistence across close/reopen, every memory component, and the
# module functions destroy_db and repair_db.
import json
import os
import pathlib

import pytest

import sluice
from conftest import MEMTABLES, SMALL


def test_put_get_delete(db):
    assert db.get(b"k") is None
    db.put(b"k", b"v")
    assert db.get(b"k") == b"v"
    db.put(b"k", b"v2")
    assert db.get(b"k") == b"v2"
    db.delete(b"k")
    assert db.get(b"k") is None
    db.delete(b"never-there")  # deleting a missing key is not an error


def test_get_default(db):
    sentinel = object()
    assert db.get(b"missing", sentinel) is sentinel
    assert db.get(b"missing", default=b"d") == b"d"
    db.put(b"present", b"")
    assert db.get(b"present", b"d") == b""  # an empty value is a value


def test_multi_get(db):
    assert db.multi_get([]) == []
    db.put(b"a", b"1")
    db.put(b"b", b"")
    with db.write_batch() as batch:
        batch.put(b"c", b"3")
        batch.delete(b"a")
    # None for missing and deleted keys, b"" for an empty value; any iterable, repeats allowed.
    keys = [b"c", b"a", b"b", b"zz", bytearray(b"c")]
    assert db.multi_get(keys) == [b"3", None, b"", None, b"3"]
    assert db.multi_get(k for k in (b"b", b"c")) == [b"", b"3"]
    db.flush()
    assert db.multi_get(keys) == [db.get(bytes(k)) for k in keys]
    with pytest.raises(TypeError, match="key must be bytes"):
        db.multi_get([b"a", "str"])
    with pytest.raises(TypeError):
        db.multi_get(5)


def test_delete_range(db):
    for k in (b"a", b"b", b"b1", b"c", b"d"):
        db.put(k, b"v")
    db.delete_range(b"b", b"c")  # [b, c): b and b1
    assert db.multi_get([b"a", b"b", b"b1", b"c"]) == [b"v", None, None, b"v"]
    db.flush()
    db.put(b"b", b"again")  # a later write stays
    assert db.get(b"b") == b"again"
    assert [k for k, _ in db] == [b"a", b"b", b"c", b"d"]
    with db.write_batch() as batch:
        batch.put(b"e", b"v")
        batch.delete_range(b"c", b"zz")
    assert [k for k, _ in db] == [b"a", b"b"]
    db.delete_range(b"q", b"q")  # empty: nothing
    with pytest.raises(ValueError, match="begin"):
        db.delete_range(b"z", b"a")
    with pytest.raises(TypeError, match="start must be bytes"):
        db.delete_range("a", b"b")


def test_mapping_protocol(db):
    db[b"a"] = b"1"
    assert db[b"a"] == b"1"
    assert b"a" in db
    assert b"b" not in db
    with pytest.raises(KeyError) as excinfo:
        db[b"b"]
    assert excinfo.value.args == (b"b",)
    del db[b"a"]
    assert b"a" not in db
    del db[b"a"]  # like delete(): no error for a missing key


def test_binary_keys_and_values(db):
    pairs = {b"": b"empty key", b"\x00\x01": b"\x00" * 100, b"\xff" * 3: bytes(range(256))}
    for k, v in pairs.items():
        db[k] = v
    for k, v in pairs.items():
        assert db[k] == v
    assert [k for k, _ in db] == sorted(pairs)


def test_large_value(db):
    value = os.urandom(3 << 20)
    db[b"big"] = value
    db.flush()
    assert db[b"big"] == value


def test_bytearray_and_memoryview_accepted(db):
    db.put(bytearray(b"ba"), memoryview(b"mv"))
    assert db.get(memoryview(b"ba")) == b"mv"
    assert bytearray(b"ba") in db
    assert list(db.iterator(start=bytearray(b"b"), include_value=False)) == [b"ba"]


def test_sync_keyword(db):
    db.put(b"a", b"1", sync=True)
    db.delete(b"a", sync=False)
    assert db.put_if_absent(b"b", b"1", sync=True)
    assert db.increment(b"c", 2, sync=True) == 2
    with db.write_batch(sync=True) as wb:
        wb.put(b"d", b"1")
    assert db[b"d"] == b"1"
    with pytest.raises(TypeError, match="sync must be bool"):
        db.put(b"a", b"1", sync="yes")


def test_context_manager_closes(path):
    with sluice.DB(path) as d:
        d[b"k"] = b"v"
        assert not d.closed
    assert d.closed
    with sluice.DB(path) as d:  # the lock was released
        assert d[b"k"] == b"v"


def test_path_and_repr(tmp_path):
    p = tmp_path / "db"
    with sluice.DB(p) as d:  # os.PathLike
        assert d.path == str(p)
        assert repr(d) == f"<sluice.DB {str(p)!r}>"
    assert repr(d).endswith(" closed>")
    with sluice.DB(os.fsencode(p)) as d:  # bytes path
        assert d.path == str(p)


def test_close_is_idempotent(path):
    d = sluice.DB(path)
    d.close()
    d.close()
    assert d.closed


def test_persistence_across_reopen(path):
    expected = {}
    with sluice.DB(path, **SMALL) as d:
        for i in range(3000):
            k, v = b"key%06d" % i, b"value%d" % (i * 7)
            d[k] = v
            expected[k] = v
        for i in range(0, 3000, 3):
            del d[b"key%06d" % i]
            del expected[b"key%06d" % i]
        d.increment(b"counter", 41)
    expected[b"counter"] = (41).to_bytes(8, "little")
    with sluice.DB(path, create_if_missing=False) as d:
        assert dict(d) == expected
        assert d.increment(b"counter") == 42


def test_persistence_after_flush_and_compaction(path):
    with sluice.DB(path, **SMALL) as d:
        for i in range(2000):
            d[b"k%05d" % i] = b"x" * 100
        d.flush()
        d.compact_range()
        d.compact_range(b"k00100", b"k00200")
        d.compact_range(start=b"k01000")
        d.compact_range(stop=b"k00010")
    with sluice.DB(path) as d:
        assert sum(1 for _ in d) == 2000
        assert d[b"k01999"] == b"x" * 100


@pytest.mark.parametrize("memtable", MEMTABLES)
def test_every_memtable_round_trip(path, memtable):
    with sluice.DB(path, memtable=memtable, **SMALL) as d:
        for i in range(500):
            d[b"k%04d" % i] = b"v%d" % i
        del d[b"k0007"]
        assert d[b"k0001"] == b"v1"
        assert b"k0007" not in d
        assert [k for k, _ in d.iterator(prefix=b"k000")] == [
            b"k%04d" % i for i in range(10) if i != 7
        ]
        assert d.read_modify_write(b"k0002", lambda v: v + b"!") == b"v2!"
        assert d.increment(b"n", 3) == 3
        with d.snapshot() as s:
            d[b"k0003"] = b"changed"
            assert s[b"k0003"] == b"v3"
    with sluice.DB(path, memtable=memtable) as d:
        assert d[b"k0003"] == b"changed"
        assert d[b"k0002"] == b"v2!"
        assert sum(1 for _ in d) == 500  # 499 keys + the counter


def test_unknown_memtable_is_invalid_argument(path):
    with pytest.raises(sluice.InvalidArgument, match="memtable"):
        sluice.DB(path, memtable="btree")


@pytest.mark.parametrize("compression", ["none", "snappy", "zstd", "lz4", None])
def test_compression_options(path, compression):
    with sluice.DB(path, compression=compression, **SMALL) as d:
        for i in range(1000):
            d[b"k%05d" % i] = b"compressible " * 20
        d.flush()
    with sluice.DB(path, compression="zstd") as d:  # files are readable whatever the option
        assert d[b"k00500"] == b"compressible " * 20


def test_compaction_pri_takes_its_names_only(path):
    with sluice.DB(path, compaction_pri="round_robin", **SMALL) as d:
        d[b"k"] = b"v"
    with pytest.raises(sluice.InvalidArgument, match="compaction_pri.*'min_overlapping_ratio'"):
        sluice.DB(path, compaction_pri="oldest_first")
    with pytest.raises(TypeError, match="compaction_pri"):
        sluice.DB(path, compaction_pri=None)


def test_every_option_is_accepted(path):
    # A valid value for every option name the binding maps (the engine validates ranges).
    values = dict(
        create_if_missing=True,
        error_if_exists=False,
        paranoid_checks=True,
        write_buffer_size=1 << 20,
        initial_write_buffer_size=256 << 10,
        memtable="skiplist",
        max_write_buffer_number=3,
        linearizable_snapshots=False,
        prefix_length=4,
        bucket_count=64,
        membuffer_fraction=0.5,
        membuffer_partition_bits=2,
        membuffer_bucket_slots=4,
        flodb_drain_threads=1,
        flodb_scan_max_restarts=2,
        block_size=8192,
        block_restart_interval=8,
        block_cache_size=0,
        block_cache=None,
        write_buffer_manager=None,
        db_write_buffer_size=8 << 20,
        bloom_bits_per_key=0,
        compression="lz4",
        level0_compression="snappy",
        max_open_files=100,
        allow_mmap_reads=True,
        max_background_jobs=2,
        max_subcompactions=2,
        compaction_pri="min_overlapping_ratio",
        num_levels=5,
        level0_file_num_compaction_trigger=2,
        level0_slowdown_writes_trigger=10,
        level0_stop_writes_trigger=20,
        soft_pending_compaction_bytes_limit=1 << 30,
        hard_pending_compaction_bytes_limit=4 << 30,
        delayed_write_rate=8 << 20,
        level0_idle_compaction_ms=500,
        level0_scan_compaction=False,
        level0_backlog_flush_merge=1,
        target_file_size_base=1 << 20,
        max_bytes_for_level_base=4 << 20,
        max_bytes_for_level_multiplier=8,
        max_key_size=1024,
        max_value_size=1 << 20,
        verify_checksums=False,
        fill_cache=False,
        sync=True,
        disable_wal=False,
    )
    assert sorted(values) == sluice._sluice._option_names()
    with sluice.DB(path, **values) as d:
        d[b"k"] = b"v"
        assert d[b"k"] == b"v"
        with pytest.raises(sluice.InvalidArgument):
            d[b"x" * 2000] = b"v"  # max_key_size


def test_error_if_exists(path):
    sluice.DB(path).close()
    with pytest.raises(sluice.InvalidArgument, match="exists"):
        sluice.DB(path, error_if_exists=True)


def test_disable_wal_survives_clean_close(path):
    with sluice.DB(path, disable_wal=True) as d:
        d[b"k"] = b"v"
    with sluice.DB(path) as d:
        assert d[b"k"] == b"v"


def test_property(db):
    db[b"k"] = b"v"
    counters = db.property("sluice.io-counters")
    assert isinstance(counters, str) and "wal_bytes=" in counters
    assert isinstance(db.property("sluice.stats"), str)
    assert db.property("sluice.num-files-at-level0") == "0"
    assert db.property("sluice.no-such-property") is None
    assert json.loads(db.property("sluice.stats-json"))["db"] == db.path
    with pytest.raises(TypeError, match="property name must be str"):
        db.property(b"sluice.stats")


def test_stats(path):
    with sluice.DB(path, **SMALL) as d:
        for i in range(2000):
            d[b"k%05d" % i] = b"v" * 100
        d.flush()
        stats = d.stats()
    assert isinstance(stats, dict)
    for key in ("levels", "memory", "writes", "flushes", "write_amplification", "stalls"):
        assert key in stats, key
    assert stats["flushes"]["count"] >= 1
    assert sum(level["files"] for level in stats["levels"]) >= 1
    assert stats["writes"]["keys"] == 2000


def test_flush_writes_an_sst_file(path):
    with sluice.DB(path) as d:
        d[b"k"] = b"v"
        d.flush()
        assert any(name.endswith(".sst") for name in os.listdir(path))
        assert d[b"k"] == b"v"


def test_destroy_db(path):
    with sluice.DB(path) as d:
        d[b"k"] = b"v"
    sluice.destroy_db(path)
    assert not os.path.exists(path)
    with pytest.raises(sluice.InvalidArgument):
        sluice.DB(path, create_if_missing=False)


def test_destroy_db_of_open_db_is_busy(db, path):
    with pytest.raises(sluice.Busy):
        sluice.destroy_db(path)


def test_repair_db(path):
    with sluice.DB(path, **SMALL) as d:
        for i in range(1000):
            d[b"k%04d" % i] = b"v"
        d.flush()
        d[b"after-flush"] = b"in the WAL"
    manifest = [n for n in os.listdir(path) if n.startswith("MANIFEST")]
    for name in manifest:
        os.remove(os.path.join(path, name))
    sluice.repair_db(pathlib.Path(path))
    with sluice.DB(path, create_if_missing=False) as d:
        assert d[b"k0999"] == b"v"
        assert d[b"after-flush"] == b"in the WAL"


def test_module_exports():
    for name in sluice.__all__:
        assert hasattr(sluice, name), name
    assert issubclass(sluice.IOError, OSError) and issubclass(sluice.IOError, sluice.Error)
    assert issubclass(sluice.InvalidArgument, ValueError)
    for cls in (sluice.NotFound, sluice.Corruption, sluice.Busy, sluice.NotSupported):
        assert issubclass(cls, sluice.Error)
    assert sluice.Error.__module__ == "sluice"
    assert isinstance(sluice.__version__, str)
