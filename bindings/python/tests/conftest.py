# tests/conftest.py — fixtures shared by the sluice Python package's tests: a fresh database
# path per test and an open database that is closed afterwards.
import pytest

import sluice

# Every memory component the engine accepts (include/sluice/options.h, src/memory/factory.cc).
MEMTABLES = [
    "flodb",
    "skiplist",
    "vector",
    "vector-prealloc",
    "hash-skiplist",
    "hash-linklist",
    "adaptive",
]

# Small buffers so that tests reach flushes and SST files quickly.
SMALL = dict(write_buffer_size=256 << 10, block_cache_size=1 << 20)


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "db")


@pytest.fixture
def db(path):
    d = sluice.DB(path)
    yield d
    d.close()
