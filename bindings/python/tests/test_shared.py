# tests/test_shared.py — objects several databases of one process share: a block cache
# (sluice.Cache), a memory budget (sluice.WriteBufferManager) and the background pools
# (set_background_threads / get_background_threads), with their argument checks.
import pytest

import sluice


def test_cache_shared_by_two_databases(tmp_path):
    cache = sluice.Cache(4 << 20)
    assert cache.capacity == 4 << 20 and cache.usage == 0
    dbs = [sluice.DB(str(tmp_path / f"db{i}"), block_cache=cache) for i in range(2)]
    for d in dbs:
        for i in range(2000):
            d[b"k%05d" % i] = b"v" * 100
        d.flush()
    del cache  # the databases keep it alive
    for d in dbs:
        assert d[b"k00042"] == b"v" * 100
        d.compact_range()
        assert all(d[b"k%05d" % i] == b"v" * 100 for i in range(0, 2000, 97))
    for d in dbs:
        d.close()


def test_cache_counts_blocks_of_every_database(tmp_path):
    cache = sluice.Cache(8 << 20)
    dbs = [sluice.DB(str(tmp_path / f"db{i}"), block_cache=cache) for i in range(2)]
    for d in dbs:
        for i in range(3000):
            d[b"k%05d" % i] = b"v" * 100
        d.flush()
    misses = cache.misses
    dbs[0][b"k00001"]
    after_first = cache.usage
    assert after_first > 0 and cache.misses > misses
    dbs[1][b"k00001"]
    assert cache.usage > after_first  # the second database's block joins the same cache
    hits = cache.hits
    dbs[1][b"k00001"]
    assert cache.hits > hits
    for d in dbs:
        d.close()


def test_write_buffer_manager_caps_ten_databases(tmp_path):
    budget = sluice.WriteBufferManager(2 << 20, allow_stall=True)
    assert budget.buffer_size == 2 << 20 and budget.allow_stall and budget.memory_usage == 0
    dbs = [sluice.DB(str(tmp_path / f"db{i}"), write_buffer_manager=budget) for i in range(10)]
    peak = 0
    for i in range(6000):
        dbs[i % 10][b"k%06d" % i] = b"v" * 200
        peak = max(peak, budget.memory_usage)
    assert budget.flushes_requested > 0
    assert peak <= 2 << 20, peak  # the soft limit keeps the components' headroom free
    assert 0 < budget.memory_usage
    assert budget.mutable_memtable_memory_usage <= budget.memory_usage
    assert budget.stalled_writes >= 0 and budget.stall_micros >= 0
    for i in range(0, 6000, 111):
        assert dbs[i % 10][b"k%06d" % i] == b"v" * 200
    for d in dbs:
        d.close()
    assert budget.memory_usage == 0  # closed databases give their bytes back


def test_db_write_buffer_size(path):
    with sluice.DB(path, db_write_buffer_size=1 << 20) as d:
        for i in range(5000):
            d[b"k%06d" % i] = b"v" * 200
        assert d[b"k004999"] == b"v" * 200
        stats = d.property("sluice.stats")
        assert "Memory budget" in stats


def test_shared_object_options_are_checked(path):
    with pytest.raises(TypeError, match="block_cache.*sluice.Cache"):
        sluice.DB(path, block_cache=1 << 20)
    with pytest.raises(TypeError, match="write_buffer_manager.*sluice.WriteBufferManager"):
        sluice.DB(path, write_buffer_manager=sluice.Cache(1 << 20))
    with pytest.raises(sluice.InvalidArgument, match="capacity"):
        sluice.Cache(-1)
    with pytest.raises(sluice.InvalidArgument, match="buffer_size"):
        sluice.WriteBufferManager(-5)
    with sluice.DB(path, block_cache=None, write_buffer_manager=None) as d:
        d[b"k"] = b"v"


def test_background_threads():
    before = {p: sluice.get_background_threads(p) for p in ("low", "high", "drain")}
    assert all(n >= 1 for n in before.values())
    assert sluice.get_background_threads() == before["low"]
    try:
        sluice.set_background_threads(before["low"] + 1)
        assert sluice.get_background_threads("low") == before["low"] + 1
        sluice.set_background_threads(3, pool="drain")
        assert sluice.get_background_threads("drain") == 3
    finally:
        sluice.set_background_threads(before["low"], "low")
        sluice.set_background_threads(before["drain"], "drain")
    assert sluice.get_background_threads("low") == before["low"]
    with pytest.raises(sluice.InvalidArgument, match="pool 'medium'"):
        sluice.get_background_threads("medium")
    with pytest.raises(sluice.InvalidArgument, match="number = 0"):
        sluice.set_background_threads(0)
