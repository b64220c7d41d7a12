# sluice/_sluice.pyi — type stub of the _sluice extension module (src/module.cc): every class,
# method, option and exception of the sluice package, with short docstrings.
import builtins
import os
from types import TracebackType
from typing import Any, Callable, Iterable, Iterator as _Iterator, List, Literal, Optional, Tuple, TypeVar, Union, overload

_Bytes = Union[bytes, bytearray, memoryview]
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
_T = TypeVar("_T")

__version__: str

class Error(Exception):
    """Base class of every error sluice raises; the message is the engine's."""

class NotFound(Error): ...
class Corruption(Error):
    """Damaged data was detected (a checksum or format check failed)."""
class IOError(Error, builtins.OSError):
    """An operating-system I/O error (also an OSError)."""
class InvalidArgument(Error, ValueError):
    """A bad argument or option value (also a ValueError)."""
class Busy(Error):
    """The database is locked (open in this or another process)."""
class NotSupported(Error): ...

class Iterator:
    """Yields (key, value) tuples, or keys with include_value=False; see DB.iterator()."""
    def __iter__(self) -> "Iterator": ...
    def __next__(self) -> Any: ...  # bytes or Tuple[bytes, bytes]
    def close(self) -> None: ...
    def __enter__(self) -> "Iterator": ...
    def __exit__(self, *exc: object) -> Literal[False]: ...

class Snapshot:
    """A consistent, read-only view of the database at the moment DB.snapshot() was called."""
    @overload
    def get(self, key: _Bytes) -> Optional[bytes]: ...
    @overload
    def get(self, key: _Bytes, default: _T) -> Union[bytes, _T]: ...
    def __getitem__(self, key: _Bytes) -> bytes: ...
    def __contains__(self, key: _Bytes) -> bool: ...
    def iterator(
        self,
        *,
        start: Optional[_Bytes] = None,
        stop: Optional[_Bytes] = None,
        prefix: Optional[_Bytes] = None,
        reverse: bool = False,
        include_value: bool = True,
    ) -> Iterator: ...
    def __iter__(self) -> _Iterator[Tuple[bytes, bytes]]: ...
    def close(self) -> None: ...
    def __enter__(self) -> "Snapshot": ...
    def __exit__(self, *exc: object) -> Literal[False]: ...

class WriteBatch:
    """Updates applied atomically by write(), or when a with block ends without an exception
    (an exception discards them)."""
    def put(self, key: _Bytes, value: _Bytes, *, column_family: Optional["DB"] = None) -> None:
        """column_family: a column family object of the database (default: the one the batch
        was made from); a batch may span families and stays atomic."""
    def delete(self, key: _Bytes, *, column_family: Optional["DB"] = None) -> None: ...
    def delete_range(
        self, start: _Bytes, stop: _Bytes, *, column_family: Optional["DB"] = None
    ) -> None:
        """Deletes every key k with start <= k < stop when the batch is written."""
    def clear(self) -> None: ...
    def write(self) -> None:
        """Applies every update atomically, then empties the batch."""
    def __len__(self) -> int: ...
    def __enter__(self) -> "WriteBatch": ...
    def __exit__(
        self,
        exc_type: Optional[type],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> Literal[False]: ...

class DB:
    """An open sluice database. Every call raises sluice.Error once it is closed.

    Options (keyword arguments, see include/sluice/options.h): error_if_exists, paranoid_checks,
    write_buffer_size, max_write_buffer_number, linearizable_snapshots, prefix_length,
    bucket_count, membuffer_fraction, membuffer_partition_bits, membuffer_bucket_slots,
    flodb_drain_threads, flodb_scan_max_restarts, block_size, block_restart_interval,
    block_cache_size, bloom_bits_per_key, compression
    ("none", "snappy", "zstd", "lz4"), max_open_files, allow_mmap_reads, max_background_jobs,
    max_subcompactions, num_levels, level0_idle_compaction_ms, level0_scan_compaction,
    level0_file_num_compaction_trigger, level0_slowdown_writes_trigger,
    level0_stop_writes_trigger, target_file_size_base, max_bytes_for_level_base,
    max_bytes_for_level_multiplier, max_key_size, max_value_size; read defaults
    verify_checksums, fill_cache; write defaults sync, disable_wal.

    Every column family of the database is opened. column_families={"name": {options} or None}
    gives families their own options (others get the database's) and creates those missing.
    """
    def __init__(
        self,
        path: _Path,
        create_if_missing: bool = True,
        memtable: str = "flodb",
        *,
        column_families: Optional[dict[str, Optional[dict[str, Any]]]] = None,
        **options: Any,
    ) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def name(self) -> str:
        """The column family this object reads and writes ("default" for the DB itself)."""
    @property
    def column_families(self) -> list[str]:
        """The names of the database's column families, sorted."""
    def column_family(self, name: str) -> "DB":
        """The column family `name`, an object with the DB's read and write methods (sharing
        the database: closing either closes it). KeyError if there is none."""
    def create_column_family(self, name: str, **options: Any) -> "DB":
        """Creates column family `name` with its own options and returns it."""
    def drop_column_family(self, column_family: Union[str, "DB"]) -> None:
        """Drops a column family and its data; its objects then raise InvalidArgument."""
    @property
    def closed(self) -> bool: ...
    def put(self, key: _Bytes, value: _Bytes, *, sync: Optional[bool] = None) -> None: ...
    @overload
    def get(self, key: _Bytes) -> Optional[bytes]: ...
    @overload
    def get(self, key: _Bytes, default: _T) -> Union[bytes, _T]: ...
    def delete(self, key: _Bytes, *, sync: Optional[bool] = None) -> None: ...
    def delete_range(self, start: _Bytes, stop: _Bytes, *, sync: Optional[bool] = None) -> None:
        """Deletes every key k with start <= k < stop (bytewise) with one range tombstone;
        start > stop raises ValueError."""
    def __getitem__(self, key: _Bytes) -> bytes: ...
    def __setitem__(self, key: _Bytes, value: _Bytes) -> None: ...
    def __delitem__(self, key: _Bytes) -> None: ...
    def __contains__(self, key: _Bytes) -> bool: ...
    def multi_get(self, keys: Iterable[_Bytes]) -> List[Optional[bytes]]: ...
    def read_modify_write(
        self,
        key: _Bytes,
        fn: Callable[[Optional[bytes]], Optional[_Bytes]],
        *,
        sync: Optional[bool] = None,
    ) -> Optional[bytes]:
        """Atomically replaces the key's value by fn(current) (None: no value; returning None
        deletes the key) and returns the new value. fn may run more than once (on a conflict
        with another write to the key): it must have no side effects and must not call the
        database. If fn raises, the key is left unchanged and the exception propagates."""
    def put_if_absent(self, key: _Bytes, value: _Bytes, *, sync: Optional[bool] = None) -> bool: ...
    def compare_and_swap(
        self,
        key: _Bytes,
        expected: Optional[_Bytes],
        desired: _Bytes,
        *,
        sync: Optional[bool] = None,
    ) -> bool: ...
    def increment(self, key: _Bytes, delta: int = 1, *, sync: Optional[bool] = None) -> int: ...
    def write_batch(self, *, sync: Optional[bool] = None) -> WriteBatch: ...
    def snapshot(self) -> Snapshot: ...
    def iterator(
        self,
        *,
        start: Optional[_Bytes] = None,
        stop: Optional[_Bytes] = None,
        prefix: Optional[_Bytes] = None,
        reverse: bool = False,
        include_value: bool = True,
    ) -> Iterator: ...
    def __iter__(self) -> _Iterator[Tuple[bytes, bytes]]: ...
    def property(self, name: str) -> Optional[str]: ...
    def stats(self) -> dict[str, Any]: ...
    def flush(self) -> None: ...
    def compact_range(self, start: Optional[_Bytes] = None, stop: Optional[_Bytes] = None) -> None: ...
    def close(self) -> None: ...
    def __enter__(self) -> "DB": ...
    def __exit__(self, *exc: object) -> Literal[False]: ...

def destroy_db(path: _Path, **options: Any) -> None: ...
def repair_db(path: _Path, **options: Any) -> None: ...
def list_column_families(path: _Path) -> list[str]: ...
def _option_names() -> list[str]: ...
