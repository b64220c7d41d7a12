# sluice/__init__.py — the sluice package: re-exports the extension module _sluice (the C++
# engine bound with pybind11). Documentation: docs/python.md; signatures: _sluice.pyi.
"""sluice: an embeddable, persistent, ordered key-value store (LSM tree).

    import sluice

    with sluice.DB("/tmp/mydb") as db:
        db[b"key"] = b"value"
        with db.write_batch() as batch:       # atomic
            batch.put(b"a", b"1")
            batch.delete(b"key")
        for key, value in db.iterator(prefix=b"a"):
            print(key, value)
        users = db.create_column_family("users")  # a keyspace of its own
        users[b"alice"] = b"1"

Keys and values are bytes. Errors are sluice.Error and its subclasses (NotFound, Corruption,
IOError, InvalidArgument, Busy, NotSupported). Engine calls release the GIL.
"""

from ._sluice import (
    DB,
    Busy,
    Cache,
    Corruption,
    Error,
    InvalidArgument,
    IOError,
    Iterator,
    NotFound,
    NotSupported,
    Snapshot,
    WriteBatch,
    WriteBufferManager,
    __version__,
    destroy_db,
    get_background_threads,
    list_column_families,
    repair_db,
    set_background_threads,
)

__all__ = [
    "DB",
    "Busy",
    "Cache",
    "Corruption",
    "Error",
    "InvalidArgument",
    "IOError",
    "Iterator",
    "NotFound",
    "NotSupported",
    "Snapshot",
    "WriteBatch",
    "WriteBufferManager",
    "__version__",
    "destroy_db",
    "get_background_threads",
    "list_column_families",
    "repair_db",
    "set_background_threads",
]
