"""Scale-out: three sluice-server backends behind twemproxy (Debian's `nutcracker`), on loopback.

The proxy shards keys over the backends with consistent hashing (ketama over fnv1a_64); the
tests talk to it with redis-py only and look at each backend directly to see where keys went:
- keys spread over all three backends, each key on exactly one, and every key reads back;
- a backend killed with SIGKILL and restarted on its port loses none of its acknowledged writes,
  and while it is down only its own keys fail (with an error, never a wrong or missing value);
- adding a fourth backend moves about a quarter of the keys (ketama), not three quarters
  (what hashing modulo the server count would move);
- requirepass on the backends with twemproxy's redis_auth.

docs/scale-out.md describes the same set-up for several machines.
"""

import os
import shutil
import signal
import socket
import subprocess
import time

import pytest
import redis

from conftest import redis_client

NUTCRACKER = os.environ.get("NUTCRACKER") or shutil.which("nutcracker") or "/usr/sbin/nutcracker"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Proxy:
    """One nutcracker process over `backends` (ServerProcess objects, named s1, s2, ...)."""

    def __init__(self, tmp_path, name, backends, extra_config=""):
        assert os.path.exists(NUTCRACKER), (
            f"{NUTCRACKER} not found: scripts/install-deps.sh installs Debian's nutcracker")
        self.tmp_path = tmp_path
        self.name = name
        self.backends = backends
        self.extra_config = extra_config
        self.proc = None

    def start(self):
        # free_port() leaves a short window in which another process could take the port, so a
        # proxy that fails to listen is retried on other ports.
        for _ in range(5):
            self.port, stats_port = free_port(), free_port()
            config = self.tmp_path / f"{self.name}.yml"
            servers = "".join(f"   - 127.0.0.1:{b.port}:1 s{i + 1}\n"
                              for i, b in enumerate(self.backends))
            config.write_text(f"""\
sluice:
  listen: 127.0.0.1:{self.port}
  hash: fnv1a_64
  distribution: ketama
  auto_eject_hosts: false
  redis: true
  timeout: 30000
{self.extra_config}  servers:
{servers}""")
            self.log = self.tmp_path / f"{self.name}.log"
            self.proc = subprocess.Popen([NUTCRACKER, "-c", str(config), "-s", str(stats_port),
                                          "-a", "127.0.0.1", "-o", str(self.log)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and self.proc.poll() is None:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    return self
                except OSError:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError(f"nutcracker did not start: {self.log.read_text()}")

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
            self.proc = None

    def client(self, **kwargs):
        # RESP2 (twemproxy forwards no HELLO) and no CLIENT SETINFO on connect (twemproxy closes
        # the connection on a command it cannot shard).
        return redis_client(self.port, setinfo=False, **kwargs)


@pytest.fixture
def cluster(make_server, tmp_path):
    """Three backends (one worker thread each: this is a 2-core machine) behind one proxy."""
    backends = [make_server("--threads", "1") for _ in range(3)]
    proxies = []

    def make_proxy(name, members, extra_config=""):
        p = Proxy(tmp_path, name, members, extra_config).start()
        proxies.append(p)
        return p

    proxy = make_proxy("proxy", backends)
    yield backends, proxy, make_proxy
    for p in proxies:
        p.stop()


def write_keys(client, keys, value=lambda k: b"v-" + k):
    pipe = client.pipeline(transaction=False)
    for i, k in enumerate(keys):
        pipe.set(k, value(k))
        if i % 500 == 499:
            assert all(pipe.execute())
    assert all(pipe.execute())


def read_all(client, keys):
    values = []
    for i in range(0, len(keys), 200):
        values += client.mget(keys[i:i + 200])  # twemproxy splits MGET by backend
    return dict(zip(keys, values))


def keys_on(backend, password=None):
    return set(backend.client(password=password).scan_iter(count=1000))


def test_keys_spread_over_all_backends_and_read_back(cluster):
    backends, proxy, _ = cluster
    r = proxy.client()
    keys = [b"key:%d" % i for i in range(3000)]
    write_keys(r, keys)
    # MSET is split by twemproxy into one MSET per backend; INCR goes to the key's backend.
    batch = {b"mset:%d" % i: b"m%d" % i for i in range(300)}
    for i in range(0, 300, 30):
        assert r.mset(dict(list(batch.items())[i:i + 30]))
    counters = [b"counter:%d" % i for i in range(50)]
    for _ in range(3):
        for c in counters:
            r.incr(c)

    everything = keys + list(batch) + counters
    placed = [keys_on(b) for b in backends]
    for i, on in enumerate(placed):
        # ketama gives each of three equal servers about a third; 15% is far below any
        # plausible share and far above zero.
        assert len(on) > 0.15 * len(everything), (i, [len(p) for p in placed])
    assert set.union(*placed) == set(everything)
    assert sum(len(p) for p in placed) == len(everything), "a key is on two backends"

    got = read_all(r, everything)
    assert all(got[k] == b"v-" + k for k in keys)
    assert all(got[k] == v for k, v in batch.items())
    assert all(got[c] == b"3" for c in counters)
    assert r.delete(*keys[:100]) == 100  # DEL is split by backend too, and the counts summed
    assert r.exists(keys[0]) == 0 and r.exists(keys[100]) == 1


def test_a_restarted_backend_keeps_its_acknowledged_writes(cluster):
    backends, proxy, _ = cluster
    r = proxy.client()
    keys = [b"k%05d" % i for i in range(3000)]
    write_keys(r, keys)
    counters = [b"c%d" % i for i in range(30)]
    for c in counters:
        assert r.incrby(c, 7) == 7
    victim = backends[1]
    on_victim = keys_on(victim)
    assert on_victim

    # SIGKILL: no flush, no clean close. Acknowledged writes are in the WAL (in the page cache:
    # a process crash does not lose them; `--sync always` also covers power loss).
    victim.stop(signal.SIGKILL)
    others = [k for k in keys if k not in on_victim]
    for k in others[:200]:
        assert r.get(k) == b"v-" + k, "a healthy backend's key was affected"
    for k in list(on_victim)[:20]:
        if k in keys:
            with pytest.raises(redis.RedisError):  # an error, not a wrong or missing value
                r.get(k)
    # twemproxy fails a multi-key command as a whole if one of its keys is on the dead backend.
    with pytest.raises(redis.RedisError):
        r.mget([others[0], sorted(on_victim)[0]])

    victim.start(port=victim.port)
    deadline = time.monotonic() + 60
    while True:  # twemproxy reconnects on the next request that needs the backend
        try:
            got = read_all(r, keys + counters)
            break
        except redis.RedisError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    assert all(got[k] == b"v-" + k for k in keys)
    assert all(got[c] == b"7" for c in counters)
    assert keys_on(victim) == on_victim
    # The restarted backend takes writes again, in its place on the ring.
    write_keys(r, keys, value=lambda k: b"w-" + k)
    assert all(v == b"w-" + k for k, v in read_all(r, keys).items())
    assert keys_on(victim) == on_victim


# After a backend is added to the proxy's list: copies each key that the new ring places
# elsewhere (it reads as missing through the new proxy) from the backend that holds it, through
# the new proxy, and returns {old backend: the keys copied from it} for the deletion that follows
# the switch. The same code is in docs/scale-out.md.
def copy_moved_keys(old_backends, new_proxy):  # redis.Redis clients
    moved = {}
    for direct in old_backends:
        batch, moved[direct] = [], []
        for key in direct.scan_iter(count=1000):
            batch.append(key)
            if len(batch) == 500:
                moved[direct] += copy_batch(direct, new_proxy, batch)
                batch = []
        if batch:
            moved[direct] += copy_batch(direct, new_proxy, batch)
    return moved


def copy_batch(direct, new_proxy, keys):
    moved = [k for k, v in zip(keys, new_proxy.mget(keys)) if v is None]
    if moved:
        new_proxy.mset(dict(zip(moved, direct.mget(moved))))
    return moved


def delete_moved_keys(moved):  # after every proxy has the new list
    for direct, keys in moved.items():
        for i in range(0, len(keys), 500):
            direct.delete(*keys[i:i + 500])


def test_adding_a_backend_moves_about_a_quarter_of_the_keys(cluster, make_server):
    backends, proxy, make_proxy = cluster
    keys = [b"ring:%d" % i for i in range(4000)]
    write_keys(proxy.client(), keys)

    fourth = make_server("--threads", "1")
    bigger = make_proxy("proxy4", backends + [fourth])
    r4 = bigger.client()
    got = read_all(r4, keys)
    stayed = [k for k, v in got.items() if v is not None]
    moved = [k for k, v in got.items() if v is None]
    assert all(got[k] == b"v-" + k for k in stayed)
    # ketama moves the keys of the new server's share of the ring: a quarter in expectation
    # (810 of these 4000: the ring depends only on the server names). Hashing modulo the server
    # count would move three quarters.
    assert 0.10 < len(moved) / len(keys) < 0.40, len(moved)
    # Copying the moved keys puts exactly them on the fourth backend, and the new ring then
    # serves every key.
    copied = copy_moved_keys([b.client() for b in backends], r4)
    assert sorted(k for keys_of_one in copied.values() for k in keys_of_one) == sorted(moved)
    assert keys_on(fourth) == set(moved)
    assert all(v == b"v-" + k for k, v in read_all(r4, keys).items())
    # Once clients use the new list, the old copies go: every key is on one backend again (so a
    # later change of the list cannot bring an old copy back).
    delete_moved_keys(copied)
    placed = [keys_on(b) for b in backends + [fourth]]
    assert sum(len(p) for p in placed) == len(keys) and set.union(*placed) == set(keys)
    assert all(v == b"v-" + k for k, v in read_all(r4, keys).items())


def test_requirepass_with_redis_auth(make_server, tmp_path):
    backends = [make_server("--threads", "1", "--requirepass", "s3cret") for _ in range(3)]
    proxy = Proxy(tmp_path, "proxy-auth", backends, extra_config="  redis_auth: s3cret\n")
    proxy.start()
    try:
        with pytest.raises(redis.AuthenticationError):
            proxy.client().set(b"a", b"1")
        with pytest.raises(redis.RedisError):
            proxy.client(password="wrong").set(b"a", b"1")
        r = proxy.client(password="s3cret")
        keys = [b"auth:%d" % i for i in range(300)]
        write_keys(r, keys)
        assert all(v == b"v-" + k for k, v in read_all(r, keys).items())
        assert all(keys_on(b, password="s3cret") for b in backends)
    finally:
        proxy.stop()
