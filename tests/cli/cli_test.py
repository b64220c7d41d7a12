"""End-to-end tests of the `sluice` command-line tool (tools/sluice): every subcommand, the text
formats round-tripping arbitrary bytes, exit codes of each failure kind, and clean piping.

Run by ctest as CliTest (SLUICE_CLI names the binary); by hand:
    SLUICE_CLI=build/dev/tools/sluice python3 -m pytest -q tests/cli/cli_test.py
"""

import json
import os
import random
import subprocess
import time

import pytest

SLUICE = os.environ.get("SLUICE_CLI", "build/dev/tools/sluice")

# Exit codes (tools/sluice/cli_common.h, docs/cli.md).
OK, NOT_FOUND, USAGE, NO_DB, LOCKED, CORRUPTION, IO_ERROR, BAD_INPUT = 0, 1, 2, 3, 4, 5, 6, 7


def run(*args, db=None, stdin=b"", check_rc=None):
    cmd = [SLUICE]
    if db is not None:
        cmd += ["--db", str(db)]
    cmd += [str(a) for a in args]
    r = subprocess.run(cmd, input=stdin, capture_output=True, timeout=120)
    if check_rc is not None:
        assert r.returncode == check_rc, (cmd, r.returncode, r.stdout[-2000:], r.stderr)
    return r


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "db"
    run("--create-if-missing", "put", "seed", "1", db=path, check_rc=OK)
    run("delete", "seed", db=path, check_rc=OK)
    return path


def random_bytes(rng, n):
    return bytes(rng.randrange(256) for _ in range(n))


def test_put_get_delete(db):
    run("put", "greeting", "hello", db=db, check_rc=OK)
    assert run("get", "greeting", db=db, check_rc=OK).stdout == b"hello\n"
    assert run("get", "--raw", "greeting", db=db, check_rc=OK).stdout == b"hello"
    run("delete", "greeting", db=db, check_rc=OK)
    r = run("get", "greeting", db=db, check_rc=NOT_FOUND)
    assert b"not found" in r.stderr and r.stdout == b""
    run("delete", "greeting", db=db, check_rc=OK)  # deleting a missing key is no error


def test_multi_get(db):
    run("load", "-", db=db, stdin=b"a\t1\nb\ttwo\\tx\n", check_rc=OK)  # b's value holds a tab
    # Found keys in the order given, as load reads them back; repeats allowed.
    r = run("multi-get", "b", "a", "b", db=db, check_rc=OK)
    assert r.stdout == b"b\ttwo\\tx\na\t1\nb\ttwo\\tx\n"
    r = run("multi-get", "--format", "json", "a", "zz", "yy", db=db, check_rc=NOT_FOUND)
    assert r.stdout == b'{"key":"a","value":"1"}\n'
    assert b"2 of 3 keys not found: 'zz', 'yy'" in r.stderr
    assert run("--hex", "multi-get", "61", db=db, check_rc=OK).stdout == b"61\t31\n"
    assert b"KEY is required" in run("multi-get", db=db, check_rc=USAGE).stderr


def test_delete_range(db):
    run("load", "-", db=db, stdin=b"a\t1\nb\t2\nb1\t3\nc\t4\n", check_rc=OK)
    run("delete-range", "b", "c", db=db, check_rc=OK)  # [b, c): b and b1
    assert run("scan", "--keys-only", db=db, check_rc=OK).stdout == b"a\nc\n"
    run("--hex", "delete-range", "00", "62", db=db, check_rc=OK)  # [\x00, "b"): a
    # The WAL shows the range deletion (until the next open flushes it to an L0 file).
    out = run("wal", files_of(db, ".log")[-1], check_rc=OK).stdout.decode()
    assert "DELRANGE" in out and " .. b\n" in out, out
    assert run("scan", "--keys-only", db=db, check_rc=OK).stdout == b"c\n"
    # A table holding tombstones lists them (a background compaction at the last level may
    # have dropped them all by now: then no table has any, which is right too).
    for sst in files_of(db, ".sst"):
        out = run("sst", sst, check_rc=OK).stdout.decode()
        assert ("range deletions: 0" in out) != ("Range deletions (fragments" in out), out
    r = run("delete-range", "z", "a", db=db, check_rc=BAD_INPUT)
    assert b"begin" in r.stderr
    assert b"END is required" in run("delete-range", "a", db=db, check_rc=USAGE).stderr


def test_column_families(db):
    assert run("list-column-families", db=db, check_rc=OK).stdout == b"default\n"
    run("--memtable", "hash-linklist", "create-column-family", "users", db=db, check_rc=OK)
    r = run("create-column-family", "users", db=db, check_rc=BAD_INPUT)
    assert b"already exists" in r.stderr
    assert run("list-column-families", db=db, check_rc=OK).stdout == b"default\nusers\n"
    run("--column-family", "users", "put", "k", "in-users", db=db, check_rc=OK)
    # The WAL names the family of each update (until the next open flushes it to L0).
    out = run("wal", files_of(db, ".log")[-1], check_rc=OK).stdout.decode()
    assert "CF 1 PUT k => in-users" in out, out
    run("put", "k", "in-default", db=db, check_rc=OK)
    assert run("--column-family", "users", "get", "k", db=db, check_rc=OK).stdout == b"in-users\n"
    assert run("get", "k", db=db, check_rc=OK).stdout == b"in-default\n"
    run("--column-family", "users", "load", "-", db=db, stdin=b"a\t1\nb\t2\n", check_rc=OK)
    out = run("--column-family", "users", "scan", "--keys-only", db=db, check_rc=OK).stdout
    assert out == b"a\nb\nk\n"
    run("--column-family", "users", "delete-range", "a", "b", db=db, check_rc=OK)
    r = run("--column-family", "users", "multi-get", "a", "b", db=db, check_rc=NOT_FOUND)
    assert r.stdout == b"b\t2\n"
    r = run("--column-family", "nope", "get", "k", db=db, check_rc=BAD_INPUT)
    assert b"no column family named 'nope'" in r.stderr
    run("--create-if-missing", "--column-family", "logs", "put", "x", "y", db=db, check_rc=OK)
    assert run("list-column-families", db=db, check_rc=OK).stdout == b"default\nusers\nlogs\n"
    assert b'"column_family": "logs"' in run(
        "--column-family", "logs", "stats", "--json", db=db, check_rc=OK).stdout
    run("drop-column-family", "users", db=db, check_rc=OK)
    assert run("list-column-families", db=db, check_rc=OK).stdout == b"default\nlogs\n"
    r = run("drop-column-family", "default", db=db, check_rc=BAD_INPUT)
    assert b"cannot be dropped" in r.stderr
    run("--column-family", "users", "get", "k", db=db, check_rc=BAD_INPUT)


def test_put_reads_value_from_stdin_and_hex(db):
    value = bytes(range(256))
    run("put", "bin", db=db, stdin=value, check_rc=OK)
    assert run("get", "--raw", "bin", db=db, check_rc=OK).stdout == value
    assert run("--hex", "get", "62696e", db=db, check_rc=OK).stdout == value.hex().encode() + b"\n"
    run("--hex", "put", "00ff", "abcd", db=db, check_rc=OK)
    assert run("--hex", "get", "00FF", db=db, check_rc=OK).stdout == b"abcd\n"
    r = run("--hex", "put", "0g", "00", db=db, check_rc=BAD_INPUT)
    assert b"key '0g'" in r.stderr


def test_scan_ranges_prefix_limit_reverse(db):
    keys = [f"k{i:03d}" for i in range(50)] + ["a", "z"]
    tsv = "".join(f"{k}\tv-{k}\n" for k in keys).encode()
    run("load", "-", db=db, stdin=tsv, check_rc=OK)
    ordered = sorted(keys)

    def scan(*args):
        out = run("scan", *args, db=db, check_rc=OK).stdout.decode()
        return [line.split("\t")[0] for line in out.splitlines()]

    assert scan() == ordered
    assert scan("--from", "k010", "--to", "k020") == [f"k{i:03d}" for i in range(10, 20)]
    assert scan("--prefix", "k04") == [f"k{i:03d}" for i in range(40, 50)]
    assert scan("--prefix", "k", "--from", "k045") == [f"k{i:03d}" for i in range(45, 50)]
    assert scan("--limit", "3") == ordered[:3]
    assert scan("--reverse") == ordered[::-1]
    assert scan("--reverse", "--to", "k002") == ["k001", "k000", "a"]
    assert scan("--reverse", "--prefix", "k00", "--limit", "2") == ["k009", "k008"]
    assert scan("--from", "zz") == []
    keys_only = run("scan", "--keys-only", "--limit", "1", db=db, check_rc=OK).stdout
    assert keys_only == b"a\n"
    lines = run("scan", "--format", "json", "--limit", "2", db=db, check_rc=OK).stdout.splitlines()
    assert [json.loads(l) for l in lines] == [{"key": "a", "value": "v-a"},
                                              {"key": "k000", "value": "v-k000"}]


@pytest.mark.parametrize("fmt", ["tsv", "json", "hex"])
def test_dump_and_load_round_trip_any_bytes(tmp_path, db, fmt):
    rng = random.Random(7)
    data = {random_bytes(rng, rng.randrange(0, 12)): random_bytes(rng, rng.randrange(0, 40))
            for _ in range(300)}
    data[b"\t\n\\ tricky"] = b"\x00\r\n\t\\x41"
    data["ключ".encode()] = "значение ✓".encode()
    flags = ["--hex"] if fmt == "hex" else []
    for k, v in list(data.items())[:20]:
        run(*flags, "--hex", "put", k.hex(), v.hex(), db=db, check_rc=OK)
    # The rest through load, from a file written by Python in the documented format.
    src = tmp_path / ("in.jsonl" if fmt == "json" else "in.tsv")
    with open(src, "wb") as f:
        for k, v in list(data.items())[20:]:
            if fmt == "json":
                f.write(json.dumps({"key_hex": k.hex(), "value_hex": v.hex()}).encode() + b"\n")
            elif fmt == "hex":
                f.write(k.hex().encode() + b"\t" + v.hex().encode() + b"\n")
            else:
                esc = lambda b: b.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(
                    b"\n", b"\\n").replace(b"\r", b"\\r")
                f.write(esc(k) + b"\t" + esc(v) + b"\n")
    r = run(*flags, "load", src, db=db, check_rc=OK)
    assert f"loaded {len(data) - 20} entries".encode() in r.stderr

    out = tmp_path / ("out.jsonl" if fmt == "json" else "out.tsv")
    run(*flags, "dump", out, db=db, check_rc=OK)
    copy = tmp_path / "copy"
    run(*flags, "--create-if-missing", "load", out, db=copy, check_rc=OK)
    a = run("--hex", "scan", db=db, check_rc=OK).stdout
    b = run("--hex", "scan", db=copy, check_rc=OK).stdout
    assert a == b
    got = dict(tuple(bytes.fromhex(x.decode()) for x in line.split(b"\t")) for line in a.splitlines())
    assert got == data
    # A dump piped straight into load (JSON lines are recognised on stdin).
    piped = tmp_path / "piped"
    dumped = run("dump", "--format", "json", db=db, check_rc=OK).stdout
    run("--create-if-missing", "load", "-", db=piped, stdin=dumped, check_rc=OK)
    assert run("--hex", "scan", db=piped, check_rc=OK).stdout == a


def test_load_stops_at_a_bad_line_and_keeps_earlier_ones(tmp_path, db):
    src = tmp_path / "bad.tsv"
    src.write_bytes(b"a\t1\nb\t2\nno tab here\nc\t3\n")
    r = run("load", src, db=db, check_rc=BAD_INPUT)
    assert f"{src}:3".encode() in r.stderr and b"no tab" in r.stderr
    assert b"2 entries before it were loaded" in r.stderr and r.stderr.count(b"\n") == 1
    assert run("scan", db=db, check_rc=OK).stdout == b"a\t1\nb\t2\n"
    src.write_bytes(b'{"key": "x"}\n')
    r = run("load", "--format", "json", src, db=db, check_rc=BAD_INPUT)
    assert b"value" in r.stderr
    src.write_bytes(b"k\tbad \\q escape\n")
    assert b"unknown escape" in run("load", src, db=db, check_rc=BAD_INPUT).stderr
    r = run("load", tmp_path / "missing.tsv", db=db, check_rc=IO_ERROR)
    assert b"missing.tsv" in r.stderr


def test_errors_have_their_own_exit_codes(tmp_path, db):
    r = run("get", "k", db=tmp_path / "nope", check_rc=NO_DB)
    assert b"no such database" in r.stderr and b"--create-if-missing" in r.stderr
    assert not (tmp_path / "nope").exists()  # reading never creates a database
    (tmp_path / "empty").mkdir()
    assert b"not a sluice database" in run("scan", db=tmp_path / "empty", check_rc=NO_DB).stderr
    assert b"--db" in run("get", "k", check_rc=USAGE).stderr
    run("frobnicate", db=db, check_rc=USAGE)
    run("scan", "--limit", "many", db=db, check_rc=USAGE)
    run("scan", "--format", "xml", db=db, check_rc=USAGE)
    # A database held by another process: wait (in /proc/locks, without touching the lock)
    # until the holder has it, then every command that needs the lock is refused.
    holder = subprocess.Popen([SLUICE, "--db", str(db), "load", "-"], stdin=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    try:
        lock_inode = os.stat(db / "LOCK").st_ino
        for _ in range(600):
            with open("/proc/locks") as f:
                held = any(f" {holder.pid} " in l and l.split()[5].endswith(f":{lock_inode}")
                           for l in f)
            if held or holder.poll() is not None:
                break
            time.sleep(0.05)
        assert held, holder.stderr.read() if holder.poll() is not None else "never locked"
        r = run("get", "k", db=db, check_rc=LOCKED)
        assert b"lock" in r.stderr, r.stderr
        run("check", db=db, check_rc=LOCKED)
        run("repair", db=db, check_rc=LOCKED)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert holder.returncode == OK


def test_every_subcommand_has_help():
    top = run("--help", check_rc=OK).stdout.decode()
    for cmd in ["put", "get", "delete", "scan", "load", "dump", "stats", "compact", "check",
                "repair", "sst", "wal", "manifest", "list-column-families",
                "create-column-family", "drop-column-family"]:
        assert cmd in top
        assert b"Usage" in run(cmd, "--help", check_rc=OK).stdout


def test_output_pipes_cleanly_into_a_reader_that_stops_early(db):
    tsv = "".join(f"key{i:06d}\t{'v' * 100}\n" for i in range(20000)).encode()
    run("load", "-", db=db, stdin=tsv, check_rc=OK)
    p = subprocess.run(f"'{SLUICE}' --db '{db}' scan | head -n 3; echo rc=${{PIPESTATUS[0]}}",
                       shell=True, executable="/bin/bash", capture_output=True, timeout=120)
    lines = p.stdout.decode().splitlines()
    assert lines[:3] == [f"key{i:06d}\t{'v' * 100}" for i in range(3)]
    assert lines[3] == "rc=0" and p.stderr == b""
    # The database was closed cleanly: it opens and holds everything.
    assert run("scan", "--keys-only", db=db, check_rc=OK).stdout.count(b"\n") == 20000


def test_stats_and_compact(db):
    tsv = "".join(f"key{i:05d}\t{i}\n" for i in range(5000)).encode()
    run("load", "-", db=db, stdin=tsv, check_rc=OK)
    text = run("stats", db=db, check_rc=OK).stdout.decode()
    for word in ["Level", "Memory", "Write amplification", "flodb-stats", "Files:"]:
        assert word in text
    r = run("compact", db=db, check_rc=OK).stdout.decode()
    assert "after:" in r and "L0" not in r.split("after:")[1]
    stats = json.loads(run("stats", "--json", db=db, check_rc=OK).stdout)
    assert sum(l["files"] for l in stats["levels"]) >= 1
    assert stats["levels"][0]["files"] == 0
    assert stats["memory"]["component"]
    assert "write_amplification" in stats and "flodb" in stats
    assert run("scan", "--keys-only", db=db, check_rc=OK).stdout.count(b"\n") == 5000
    run("compact", "--from", "key00100", "--to", "key00200", db=db, check_rc=OK)
    run("--memtable", "skiplist", "stats", db=db, check_rc=OK)


def files_of(db, suffix):
    return sorted(p for p in db.iterdir() if p.name.endswith(suffix))


def test_sst_wal_and_manifest_dumps(db):
    run("put", "alpha", "1", db=db, check_rc=OK)
    run("put", "beta", "2", db=db, check_rc=OK)
    wal = files_of(db, ".log")[-1]
    out = run("wal", wal, check_rc=OK).stdout.decode()
    assert "PUT beta => 2" in out and "1 batches" in out
    run("compact", db=db, check_rc=OK)
    sst = files_of(db, ".sst")[-1]
    out = run("sst", "--verify", sst, check_rc=OK).stdout.decode()
    for part in ["Properties:", "entries: 2", "Index", "alpha @", "beta @", "=> 2",
                 "Checksums: all blocks verified"]:
        assert part in out, part
    assert "Index" not in run("sst", "--properties-only", sst, check_rc=OK).stdout.decode()
    assert run("sst", "--limit", "1", sst, check_rc=OK).stdout.decode().count(" PUT =>") == 1
    out = run("manifest", db=db, check_rc=OK).stdout.decode()
    assert "--- edit 1" in out and "AddFile" in out and "the last version" in out
    assert sst.name in out
    manifest = files_of(db, "")[0].parent / [p.name for p in db.iterdir()
                                             if p.name.startswith("MANIFEST-")][0]
    assert run("manifest", manifest, check_rc=OK).stdout.decode() == out
    run("sst", db / "000999.sst", check_rc=IO_ERROR)
    (db / "junk.sst").write_bytes(b"not a table at all, just some bytes" * 3)
    assert b"junk.sst" in run("sst", db / "junk.sst", check_rc=CORRUPTION).stderr


def flip_byte(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x40
    path.write_bytes(bytes(data))


def test_check_reports_damage_by_file_and_repair_recovers(db):
    tsv = "".join(f"key{i:05d}\t{'x' * 50}\n" for i in range(3000)).encode()
    run("load", "-", db=db, stdin=tsv, check_rc=OK)
    run("compact", db=db, check_rc=OK)
    run("put", "after", "compaction", db=db, check_rc=OK)
    out = run("check", db=db, check_rc=OK).stdout.decode()
    assert "0 damaged" in out and "MANIFEST" in out and ".sst" in out
    sst = files_of(db, ".sst")[0]
    flip_byte(sst, 100)  # inside the first data block
    r = run("check", db=db, check_rc=CORRUPTION)
    line = [l for l in r.stdout.decode().splitlines() if sst.name in l][0]
    assert line.startswith("CORRUPT"), line
    assert b"1 damaged" in r.stdout
    # A damaged WAL record is reported by check and by wal.
    wal = files_of(db, ".log")[-1]
    flip_byte(wal, 10)
    assert any(l.startswith("CORRUPT") and wal.name in l
               for l in run("check", db=db, check_rc=CORRUPTION).stdout.decode().splitlines())
    assert b"checksum" in run("wal", wal, check_rc=CORRUPTION).stdout
    # repair keeps what is readable and the database opens again.
    r = run("repair", db=db, check_rc=OK)
    assert b"repaired" in r.stdout
    run("scan", "--limit", "1", db=db)  # opens; reading may still hit nothing damaged
    assert run("check", db=db).returncode == OK


def test_repair_and_check_need_a_database(tmp_path):
    run("check", db=tmp_path / "none", check_rc=NO_DB)
    run("repair", db=tmp_path / "none", check_rc=NO_DB)
    run("manifest", db=tmp_path / "none", check_rc=NO_DB)
