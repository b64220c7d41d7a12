"""End-to-end tests of sluice-server (tools/sluice_server) with real clients only: redis-py from
PyPI, redis-cli and redis-benchmark from Debian's redis-tools; raw sockets only to send
malformed or partial bytes and to check RESP3's bytes on the wire. Every command of
docs/server.md, pipelining, RESP2 and RESP3, AUTH, errors, bad input, many idle clients, a slow
reader, a damaged SST, sync always on sync threads, and durability across SHUTDOWN, SIGTERM and
SIGKILL.

Run by ctest as ServerTest (SLUICE_SERVER names the binary); by hand:
    SLUICE_SERVER=build/dev/tools/sluice-server python3 -m pytest -q tests/server
"""

import glob
import os
import resource
import signal
import socket
import subprocess
import threading
import time

import pytest
import redis


def raw(server, timeout=30):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    return s


def read_until_closed(sock, limit=1 << 30):
    data = b""
    while len(data) < limit:
        try:
            chunk = sock.recv(1 << 16)
        except (ConnectionResetError, BrokenPipeError):
            break
        if not chunk:
            break
        data += chunk
    return data


def wait_for(predicate, timeout=30, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# --- commands -----------------------------------------------------------------------------------


def test_ping_echo(r):
    assert r.ping() is True
    assert r.echo(b"a\r\nb\x00c") == b"a\r\nb\x00c"


def test_get_set_and_options(r):
    assert r.get("nope") is None
    assert r.set("k", "v1") is True
    assert r.get("k") == b"v1"
    assert r.set("k", "v2", nx=True) is None
    assert r.get("k") == b"v1"
    assert r.set("new", "n", nx=True) is True
    assert r.set("missing", "x", xx=True) is None
    assert r.get("missing") is None
    assert r.set("k", "v3", xx=True) is True
    assert r.set("k", "v4", get=True) == b"v3"
    assert r.set("fresh", "f", get=True) is None
    assert r.get("fresh") == b"f"
    assert r.set("k", "v5", nx=True, get=True) == b"v4"
    assert r.get("k") == b"v4"
    with pytest.raises(redis.ResponseError, match="expiry is not supported"):
        r.set("k", "v", ex=10)
    with pytest.raises(redis.ResponseError, match="syntax error"):
        r.execute_command("SET", "k", "v", "NX", "XX")
    with pytest.raises(redis.ResponseError, match="syntax error"):
        r.execute_command("SET", "k", "v", "BOGUS")
    value = bytes(range(256)) * 40
    r.set(b"\x00bin\xff", value)
    assert r.get(b"\x00bin\xff") == value
    r.set("empty", "")
    assert r.get("empty") == b""


def test_setnx_getset(r):
    assert r.setnx("a", "1") is True
    assert r.setnx("a", "2") is False
    assert r.get("a") == b"1"
    assert r.getset("a", "3") == b"1"
    assert r.getset("b", "x") is None
    assert r.get("a") == b"3" and r.get("b") == b"x"


def test_del_exists_mget_mset(r):
    assert r.mset({"m1": "a", "m2": "b", "m3": "c"}) is True
    assert r.mget("m1", "zz", "m3") == [b"a", None, b"c"]
    assert r.exists("m1", "m2", "zz", "m1") == 3
    assert r.delete("m1", "zz", "m2") == 2
    assert r.exists("m1", "m2") == 0
    assert r.delete("zz") == 0
    with pytest.raises(redis.ResponseError, match="wrong number of arguments for 'mset'"):
        r.execute_command("MSET", "a", "1", "b")


def test_incr_family(r):
    assert r.incr("c") == 1
    assert r.incrby("c", 10) == 11
    assert r.decr("c") == 10
    assert r.decrby("c", 25) == -15
    assert r.get("c") == b"-15"  # stored as Redis does: a decimal string
    r.set("n", "41")
    assert r.incr("n") == 42
    for bad in ["abc", "1.5", " 1", "01", ""]:
        r.set("bad", bad)
        with pytest.raises(redis.ResponseError, match="value is not an integer or out of range"):
            r.incr("bad")
        assert r.get("bad") == bad.encode()  # unchanged
    r.set("big", str(2**63 - 1))
    with pytest.raises(redis.ResponseError, match="not an integer or out of range"):
        r.incr("big")
    assert r.get("big") == str(2**63 - 1).encode()
    with pytest.raises(redis.ResponseError, match="not an integer"):
        r.incrby("c", "x")


def test_incr_is_atomic_across_clients(server):
    def work():
        c = server.client()
        for _ in range(300):
            c.incr("shared")

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert server.client().get("shared") == b"1800"


def test_append_strlen(r):
    assert r.strlen("s") == 0
    assert r.append("s", "abc") == 3
    assert r.append("s", "de") == 5
    assert r.get("s") == b"abcde"
    assert r.strlen("s") == 5


def test_scan_match_count(r):
    keys = {f"user:{i:04d}".encode() for i in range(500)} | {f"item:{i}".encode() for i in range(50)}
    with r.pipeline(transaction=False) as p:
        for k in keys:
            p.set(k, b"v")
        p.execute()
    assert set(r.scan_iter(count=7)) == keys
    assert set(r.scan_iter(match="user:00*", count=13)) == {f"user:{i:04d}".encode() for i in range(100)}
    assert set(r.scan_iter(match="item:?")) == {f"item:{i}".encode() for i in range(10)}
    assert set(r.scan_iter(match="*:[0-1]")) == {b"item:0", b"item:1"}
    cursor, first = r.scan(0, count=100)
    assert cursor != 0 and len(first) == 100 and first == sorted(first)
    cursor, _ = r.scan(0, match="nomatch*")
    assert cursor == 0
    r.set("a\\*b", "1")
    assert list(r.scan_iter(match="a\\\\\\*b")) == [b"a\\*b"]
    with pytest.raises(redis.ResponseError, match="invalid cursor"):
        r.scan(123456789)
    assert sorted(r.keys("item:1*")) == sorted([b"item:1"] + [f"item:{i}".encode() for i in range(10, 20)])
    assert r.type("item:1") == b"string" and r.type("nope") == b"none"


def test_dbsize_flushall(r):
    assert r.dbsize() == 0
    r.mset({f"k{i}": i for i in range(2500)})
    assert r.dbsize() == 2500
    assert r.flushall() is True
    assert r.dbsize() == 0
    assert r.get("k1") is None
    r.set("after", "1")
    assert r.dbsize() == 1


def test_info(r):
    r.set("x", "1")
    info = r.info()
    assert info["redis_version"] and info["connected_clients"] >= 1
    assert info["db0"]["keys"] == 1
    assert "stats_json" in r.info("sluice")
    assert "connected_clients" in r.info("clients")
    assert "stats_json" not in r.info("server")


def test_select_client_command_hello_config(r):
    assert r.select(0) is True
    with pytest.raises(redis.ResponseError, match="DB index is out of range"):
        r.select(1)
    assert r.client_getname() is None
    assert r.client_setname("worker-1") is True
    assert r.client_getname() == "worker-1" or r.client_getname() == b"worker-1"
    assert r.client_id() > 0
    count = r.command_count()
    assert count >= 30
    assert len(r.command()) == count
    assert r.execute_command("COMMAND", "DOCS") in ([], {})
    hello = r.execute_command("HELLO", "2")
    assert b"proto" in hello or "proto" in hello
    with pytest.raises(redis.ResponseError, match="NOPROTO"):
        r.execute_command("HELLO", "4")
    cfg = r.config_get("appendonly")
    assert "appendonly" in cfg or b"appendonly" in cfg
    assert len(r.time()) == 2


def test_resp3_with_redis_py(server):
    r = server.client(protocol=3)  # connects with HELLO 3
    assert r.get("missing") is None
    assert r.set("a", "1") is True and r.set("a", "2", nx=True) is None
    assert r.mget(["a", "missing"]) == [b"1", None]
    assert r.set("a", "3", get=True) == b"1"
    assert r.incr("n") == 1 and r.incrby("n", 4) == 5
    assert r.config_get("port") == {"port": str(server.port)}  # redis-py decodes CONFIG GET
    assert r.client_getname() is None
    cursor, keys = r.scan(0, count=100)
    assert cursor == 0 and sorted(keys) == [b"a", b"n"]
    assert r.info("keyspace")["db0"]["keys"] >= 2
    hello = r.execute_command("HELLO")
    assert hello[b"proto"] == 3 and hello[b"server"] == b"redis"
    assert len(r.command()) == r.command_count() >= 30


def test_resp3_on_the_wire(server):
    def read_until(sock, end):
        got = b""
        while not got.endswith(end):
            chunk = sock.recv(65536)
            assert chunk, got
            got += chunk
        return got

    def exchange(sock, request, expected):
        sock.sendall(request)
        assert read_until(sock, expected[-8:]) == expected

    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        exchange(sock, b"GET missing\r\n", b"$-1\r\n")  # RESP2 until HELLO 3
        sock.sendall(b"HELLO 3 SETNAME wire\r\n")
        hello = read_until(sock, b"$7\r\nmodules\r\n*0\r\n")
        assert hello.startswith(b"%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n") and b":3\r\n" in hello
        exchange(sock, b"MGET missing\r\n", b"*1\r\n_\r\n")
        exchange(sock, b"CLIENT GETNAME\r\n", b"$4\r\nwire\r\n")
        exchange(sock, b"COMMAND INFO get\r\n",
                 b"*1\r\n*10\r\n$3\r\nget\r\n:2\r\n~0\r\n:0\r\n:0\r\n:0\r\n~0\r\n~0\r\n*0\r\n*0\r\n")
        exchange(sock, b"CONFIG GET databases\r\n", b"%1\r\n$9\r\ndatabases\r\n$1\r\n1\r\n")
        # A failed HELLO changes nothing; HELLO 2 goes back.
        exchange(sock, b"HELLO 5\r\n", b"-NOPROTO unsupported protocol version\r\n")
        exchange(sock, b"GET missing\r\n", b"_\r\n")
        sock.sendall(b"HELLO 2\r\n")
        assert read_until(sock, b"$7\r\nmodules\r\n*0\r\n").startswith(b"*14\r\n")
        exchange(sock, b"GET missing\r\n", b"$-1\r\n")


def test_errors(r):
    with pytest.raises(redis.ResponseError) as e:
        r.execute_command("FOO", "a", "b")
    assert str(e.value) == "unknown command 'FOO', with args beginning with: 'a' 'b' "
    with pytest.raises(redis.ResponseError, match="wrong number of arguments for 'get' command"):
        r.execute_command("GET")
    with pytest.raises(redis.ResponseError, match="wrong number of arguments for 'get' command"):
        r.execute_command("GET", "a", "b")
    assert r.ping()  # the connection survives errors


def test_pipeline_1000(r):
    with r.pipeline(transaction=False) as p:
        for i in range(1000):
            if i % 2 == 0:
                p.set(f"p{i}", i)
            else:
                p.incr("pipe-counter")
        results = p.execute()
    assert results[0] is True and results[1] == 1 and results[-1] == 500
    with r.pipeline(transaction=False) as p:
        for i in range(0, 1000, 2):
            p.get(f"p{i}")
        assert p.execute() == [str(i).encode() for i in range(0, 1000, 2)]


def test_auth(make_server):
    s = make_server("--requirepass", "s3cret")
    c = s.client(setinfo=False)
    with pytest.raises(redis.AuthenticationError):
        c.get("a")
    with pytest.raises(redis.AuthenticationError, match="Authentication required"):
        c.execute_command("SET", "a", "1")
    with pytest.raises(redis.AuthenticationError):
        c.execute_command("AUTH", "wrong")
    assert c.execute_command("AUTH", "s3cret") is True
    assert c.set("a", "1") is True
    good = s.client(password="s3cret")
    assert good.get("a") == b"1"
    assert s.client(password="s3cret", protocol=3).get("a") == b"1"  # HELLO 3 AUTH default ...
    assert s.client(username="default", password="s3cret").get("a") == b"1"
    with pytest.raises(redis.AuthenticationError):
        s.client(password="nope").ping()
    out = subprocess.run(["redis-cli", "-p", str(s.port), "-a", "s3cret", "--no-auth-warning",
                          "get", "a"], capture_output=True, timeout=60)
    assert out.stdout == b"1\n"


def test_auth_without_requirepass_is_an_error(r):
    with pytest.raises(redis.AuthenticationError, match="without any password configured"):
        r.execute_command("AUTH", "x")


# --- bad input ----------------------------------------------------------------------------------


def test_huge_bulk_length_is_an_error_not_an_allocation(server, r):
    s = raw(server)
    s.sendall(b"*2\r\n$3\r\nGET\r\n$10000000000\r\n")
    data = read_until_closed(s)
    assert data.startswith(b"-ERR Protocol error: invalid bulk length")
    s.close()
    s = raw(server)
    s.sendall(b"*99999999999\r\n")
    assert read_until_closed(s).startswith(b"-ERR Protocol error: invalid multibulk length")
    assert r.ping()


def test_max_request_bytes(make_server):
    srv = make_server("--max-request-bytes", "1kb")
    c = srv.client()
    assert c.set("small", "x" * 1000)
    with pytest.raises((redis.ConnectionError, redis.ResponseError), match="bulk length|onnection"):
        c.set("big", "x" * 2000)
    assert srv.client().get("small") == b"x" * 1000


@pytest.mark.parametrize("junk,error", [
    (b"*1\r\n+PING\r\n", b"-ERR Protocol error: expected '$', got '+'"),
    (b"*x\r\n", b"-ERR Protocol error: invalid multibulk length"),
    (b"*1\r\n$-5\r\n", b"-ERR Protocol error: invalid bulk length"),
    (b"*1\r\n$4\r\nPINGxx", b"-ERR Protocol error: expected CRLF"),
    (b"SET \"unbalanced\r\n", b"-ERR Protocol error: unbalanced quotes"),
    (b"A" * 70000, b"-ERR Protocol error: too big inline request"),
])
def test_malformed_input_gets_an_error_and_closes(server, r, junk, error):
    s = raw(server)
    s.sendall(junk)
    data = read_until_closed(s)
    assert data.startswith(error), data[:200]
    s.close()
    assert r.ping()


def test_inline_commands_and_split_requests(server, r):
    s = raw(server)
    s.sendall(b"PING\r\nSET inl \"a b\"\r\nGET inl\r\n\r\nECHO 'x y'\n")
    expect = b"+PONG\r\n+OK\r\n$3\r\na b\r\n$3\r\nx y\r\n"
    got = b""
    while len(got) < len(expect):
        got += s.recv(4096)
    assert got == expect
    # One request byte by byte, then many pipelined in one send.
    req = b"*3\r\n$3\r\nSET\r\n$5\r\nsplit\r\n$5\r\nv\r\nxy\r\n"
    for i in range(len(req)):
        s.sendall(req[i:i + 1])
        time.sleep(0.001)
    assert s.recv(100) == b"+OK\r\n"
    s.sendall(b"*2\r\n$3\r\nGET\r\n$5\r\nsplit\r\n" * 50)
    want = b"$5\r\nv\r\nxy\r\n" * 50
    got = b""
    while len(got) < len(want):
        got += s.recv(65536)
    assert got == want
    s.close()
    assert r.get("split") == b"v\r\nxy"


def test_disconnect_mid_command(server, r):
    for partial in [b"*3\r\n$3\r\nSET\r\n$1\r\nk", b"*3\r\n$3\r\nSET\r\n$3\r\nabc\r\n$1000000\r\nxxxx",
                    b"GET abc"]:
        s = raw(server)
        s.sendall(partial)
        s.close()
    s = raw(server)
    s.sendall(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n")
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    s.close()  # a reset, maybe before the reply was written
    assert r.set("after", "1") and r.get("after") == b"1"
    assert r.get("abc") is None


def test_2000_idle_connections(server, r):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    idle = [raw(server) for _ in range(2000)]
    try:
        wait_for(lambda: r.info("clients")["connected_clients"] >= 2001, what="2000 clients")
        assert r.set("busy", "yes") and r.get("busy") == b"yes"
        other = server.client()
        assert other.incr("n") == 1
    finally:
        for s in idle:
            s.close()
    wait_for(lambda: r.info("clients")["connected_clients"] <= 2, what="idle clients gone")


def test_slow_reader_is_disconnected(make_server):
    srv = make_server("--max-output-bytes", "1mb")
    c = srv.client()
    c.set("big", b"x" * 100000)
    s = raw(srv)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    request = b"*2\r\n$3\r\nGET\r\n$3\r\nbig\r\n"
    s.sendall(request * 2000)  # 200 MB of replies, never read for now
    wait_for(lambda: c.info("clients")["connected_clients"] == 1, what="slow reader closed")
    assert c.get("big") == b"x" * 100000  # others still served
    received = read_until_closed(s)
    assert len(received) < 2000 * 100000 // 4
    s.close()


def test_maxclients(make_server):
    srv = make_server("--maxclients", "3")
    clients = [raw(srv) for _ in range(3)]
    for s in clients:
        s.sendall(b"PING\r\n")
        assert s.recv(100) == b"+PONG\r\n"
    extra = raw(srv)
    assert read_until_closed(extra) == b"-ERR max number of clients reached\r\n"
    clients[0].close()
    c = srv.client()
    wait_for(lambda: _ping_ok(c), what="a free client slot")


def _ping_ok(c):
    try:
        return c.ping()
    except redis.ConnectionError:
        return False


def test_idle_timeout(make_server):
    srv = make_server("--timeout", "1")
    s = raw(srv)
    s.sendall(b"PING\r\n")
    assert s.recv(100) == b"+PONG\r\n"
    s.settimeout(30)
    assert read_until_closed(s) == b""  # closed by the server after 1 s idle


# --- durability and lifecycle --------------------------------------------------------------------


def test_an_unreadable_key_is_an_error_not_nil(make_server):
    srv = make_server("--threads", "1")
    c = srv.client()
    keys = [f"k{i:05d}" for i in range(2000)]
    assert c.mset({k: "v" * 100 for k in keys})
    assert srv.stop() == 0  # SIGTERM flushes the memory component into an SST
    ssts = glob.glob(os.path.join(srv.data_dir, "*.sst"))
    assert ssts
    damaged = max(ssts, key=os.path.getsize)
    with open(damaged, "r+b") as f:  # flip bytes in the middle: a data block
        f.seek(os.path.getsize(damaged) // 3)
        chunk = f.read(64)
        f.seek(os.path.getsize(damaged) // 3)
        f.write(bytes(b ^ 0xFF for b in chunk))
    srv.start()
    c = srv.client()
    bad = good = None
    for k in keys:
        try:
            value = c.get(k)
            assert value == b"v" * 100, k  # never a wrong value or a nil
            good = good or k
        except redis.ResponseError as e:
            assert "Corruption" in str(e) and damaged.rsplit("/", 1)[1] in str(e)
            bad = bad or k
    assert bad and good
    # MGET with one unreadable key: the error, not a nil that would pass for a missing key.
    with pytest.raises(redis.ResponseError, match="Corruption") as e:
        c.mget([good, bad])
    assert damaged.rsplit("/", 1)[1] in str(e.value)
    assert c.get(good) == b"v" * 100  # the connection goes on


def test_persistence_across_shutdown(make_server):
    srv = make_server("--threads", "2")
    c = srv.client()
    with c.pipeline(transaction=False) as p:
        for i in range(5000):
            p.set(f"key:{i}", f"value:{i}")
        p.execute()
    for _ in range(100):
        c.incr("counter")
    c.shutdown()
    assert srv.wait() == 0
    srv.start()
    c = srv.client()
    assert c.get("counter") == b"100"
    with c.pipeline(transaction=False) as p:
        for i in range(5000):
            p.get(f"key:{i}")
        assert p.execute() == [f"value:{i}".encode() for i in range(5000)]
    assert c.dbsize() == 5001


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_acknowledged_writes_survive_signals(make_server, sig):
    srv = make_server("--sync", "no")
    c = srv.client()
    for i in range(300):
        c.set(f"s{i}", i)
    rc = srv.stop(sig)
    assert rc == (-signal.SIGKILL if sig == signal.SIGKILL else 0)
    srv.start()
    assert srv.client().mget([f"s{i}" for i in range(300)]) == [str(i).encode() for i in range(300)]


def test_sync_always(make_server):
    srv = make_server("--sync", "always")
    c = srv.client()
    assert c.set("durable", "1")
    assert c.config_get("sync") in ({"sync": "always"}, {b"sync": b"always"})


def test_sync_always_writes_on_sync_threads_keep_order_and_atomicity(make_server):
    # Writes run on sync threads; each connection's requests still run and reply in order, and
    # INCR stays atomic across connections.
    srv = make_server("--sync", "always", "--sync-threads", "4", "--threads", "2")
    errors = []

    def work(t):
        try:
            c = srv.client()
            for round_ in range(20):
                with c.pipeline(transaction=False) as p:
                    for i in range(10):
                        key = f"t{t}:k{i}"
                        p.set(key, f"{round_}a")
                        p.get(key)
                        p.append(key, "b")
                        p.get(key)
                        p.incr("shared")
                        p.strlen(key)
                    replies = p.execute()
                for i in range(10):
                    got = replies[6 * i:6 * i + 6]
                    want_len = len(f"{round_}ab")
                    assert got[0] is True and got[1] == f"{round_}a".encode(), got
                    assert got[2] == want_len and got[3] == f"{round_}ab".encode(), got
                    assert got[5] == want_len, got
        except Exception as e:  # noqa: BLE001 (reported below)
            errors.append(repr(e))

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    c = srv.client()
    assert c.get("shared") == b"1600"
    # Acknowledged writes survive SIGKILL.
    assert srv.stop(signal.SIGKILL) != 0
    srv.start()
    c = srv.client()
    assert c.get("shared") == b"1600"
    assert c.get("t7:k9") == b"19ab"


def test_config_file_and_flags(make_server, tmp_path):
    conf = tmp_path / "sluice.conf"
    conf.write_text("# a comment\nrequirepass fromfile\n\nmaxclients 50\nthreads 1\n")
    srv = make_server("--config", conf, "--maxclients", "60")
    assert srv.client(password="fromfile").config_get("maxclients") in (
        {"maxclients": "60"}, {b"maxclients": b"60"})
    bad = tmp_path / "bad.conf"
    bad.write_text("port 6390\n# fine\nmaxclients lots\n")
    r = subprocess.run([srv_binary(), "--config", str(bad), "--dir", str(tmp_path / "x")],
                       capture_output=True, timeout=60)
    assert r.returncode == 2
    assert f"{bad}:3".encode() in r.stderr and b"maxclients" in r.stderr
    r = subprocess.run([srv_binary(), "--config", str(tmp_path / "none.conf")],
                       capture_output=True, timeout=60)
    assert r.returncode == 2 and b"none.conf" in r.stderr
    r = subprocess.run([srv_binary(), "--port", "99999"], capture_output=True, timeout=60)
    assert r.returncode == 2 and b"port" in r.stderr
    conf.write_text("nosuchsetting 1\n")
    r = subprocess.run([srv_binary(), "--config", str(conf)], capture_output=True, timeout=60)
    assert r.returncode == 2 and b"nosuchsetting" in r.stderr


def srv_binary():
    from conftest import SERVER
    return SERVER


# --- redis-cli and redis-benchmark ---------------------------------------------------------------


def cli(server, *args, stdin=None):
    r = subprocess.run(["redis-cli", "-p", str(server.port)] + [str(a) for a in args],
                       input=stdin, capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_redis_cli(server):
    assert cli(server, "set", "k", "v") == b"OK\n"
    assert cli(server, "get", "k") == b"v\n"
    assert cli(server, "incr", "n") == b"1\n"
    for i in range(30):
        cli(server, "set", f"scan:{i}", i) if i < 3 else None
    assert cli(server, "mset", *[x for i in range(3, 30) for x in (f"scan:{i}", i)]) == b"OK\n"
    found = cli(server, "--scan", "--pattern", "scan:*").split()
    assert sorted(found) == sorted(f"scan:{i}".encode() for i in range(30))
    info = cli(server, "info")
    assert b"redis_version:" in info and b"# Keyspace" in info
    out = cli(server, stdin=b"set piped 1\nincr piped\nget piped\nnosuch x\n")
    assert out.splitlines()[:3] == [b"OK", b"2", b"2"] and b"unknown command" in out
    assert cli(server, "ping") == b"PONG\n"
    assert cli(server, "ping", "hi") == b"hi\n"
    assert b"ERR" in cli(server, "select", "3")
    # --pipe: raw protocol from stdin, as for mass insertion.
    proto = b"".join(b"*3\r\n$3\r\nSET\r\n$%d\r\n%s\r\n$1\r\nx\r\n" % (len(k), k)
                     for k in (f"mass:{i}".encode() for i in range(1000)))
    out = cli(server, "--pipe", stdin=proto)
    assert b"errors: 0, replies: 1000" in out
    assert cli(server, "dbsize") == b"1033\n"


def test_redis_benchmark(server):
    r = subprocess.run(["redis-benchmark", "-p", str(server.port), "-t", "set,get,incr", "-n",
                        "2000", "-P", "16", "-q"], capture_output=True, timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    for test in (b"SET:", b"GET:", b"INCR:"):
        assert test in out, out
    assert b"ERR" not in out and b"rror" not in out, out
    # Every INCR of the run counted exactly once, although 50 clients raced on one key.
    assert server.client().get("counter:__rand_int__") == b"2000"
