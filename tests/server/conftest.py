"""Fixtures of the sluice-server tests: start the server on a free port with a fresh data
directory, wait for its ready line, and stop it (SIGTERM) at the end of the test.

redis-py comes from PyPI; it is installed here when missing, so `ctest -R ServerTest` needs no
setup beyond scripts/install-deps.sh (which installs redis-tools for redis-cli and
redis-benchmark).
"""

import os
import re
import select
import signal
import subprocess
import sys
import time

import pytest


def _ensure_redis_py():
    try:
        import redis  # noqa: F401
        return
    except ImportError:
        pass
    base = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    for extra in ([], ["--break-system-packages"], ["--user", "--break-system-packages"]):
        if subprocess.run(base + extra + ["redis"], capture_output=True).returncode == 0:
            break
    import importlib
    import site
    importlib.invalidate_caches()
    user_site = site.getusersitepackages()
    if user_site not in sys.path:
        sys.path.append(user_site)
    import redis  # noqa: F401


_ensure_redis_py()

SERVER = os.environ.get("SLUICE_SERVER", "build/dev/tools/sluice-server")


def redis_client(port, setinfo=True, **kwargs):
    """A redis-py client of 127.0.0.1:port, RESP2 unless protocol= says otherwise. With
    setinfo=False it sends no CLIENT SETINFO on connect (which meets NOAUTH before AUTH, as with
    Redis, and which twemproxy does not forward)."""
    import redis
    kwargs.setdefault("socket_timeout", 60)
    kwargs.setdefault("protocol", 2)
    if setinfo:
        return redis.Redis(host="127.0.0.1", port=port, **kwargs)
    try:
        client = redis.Redis(host="127.0.0.1", port=port, driver_info=None, **kwargs)
    except TypeError:  # a redis-py without driver_info
        client = redis.Redis(host="127.0.0.1", port=port, lib_name=None, lib_version=None,
                             **kwargs)
    # Versions differ in what turns CLIENT SETINFO off; check that it is off.
    conn = client.connection_pool.make_connection()
    driver_info = getattr(conn, "driver_info", None)
    if driver_info is not None or getattr(conn, "lib_name", None) is not None:
        raise RuntimeError(f"cannot turn off CLIENT SETINFO in redis-py {redis.__version__}")
    return client


class ServerProcess:
    """One sluice-server process; start() may be called again after stop() (same directory)."""

    def __init__(self, data_dir, log_dir, args=()):
        self.data_dir = str(data_dir)
        self.log_dir = log_dir
        self.args = [str(a) for a in args]
        self.proc = None
        self.port = None
        self.starts = 0

    def start(self, timeout=60, port=0):
        """Starts the server on `port` (0: a free one, read back from the ready line)."""
        self.starts += 1
        self.stderr_path = os.path.join(
            str(self.log_dir), f"{os.path.basename(self.data_dir)}-{self.starts}.stderr")
        cmd = [SERVER, "--port", str(port), "--dir", self.data_dir] + self.args
        with open(self.stderr_path, "wb") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        line = b""
        deadline = time.monotonic() + timeout
        while not line.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise RuntimeError(f"sluice-server did not start: {line!r} {self.stderr()}")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1)
                if not chunk:
                    continue
                line += chunk
        m = re.match(rb"sluice-server ready on ([0-9.]+):(\d+)\n", line)
        assert m, line
        self.port = int(m.group(2))
        return self

    def stderr(self):
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode(errors="replace")
        except OSError:
            return ""

    def client(self, **kwargs):
        return redis_client(self.port, **kwargs)

    def wait(self, timeout=60):
        rc = self.proc.wait(timeout=timeout)
        self.proc.stdout.close()
        self.proc = None
        return rc

    def stop(self, sig=signal.SIGTERM, timeout=60):
        """Stops the server with `sig`; returns its exit code."""
        if self.proc is None:
            return None
        self.proc.send_signal(sig)
        return self.wait(timeout)


@pytest.fixture
def make_server(tmp_path):
    """make_server(*flags, data_dir=None) -> a started ServerProcess, stopped after the test."""
    servers = []

    def make(*args, data_dir=None, start=True):
        d = data_dir or tmp_path / f"data{len(servers)}"
        s = ServerProcess(d, tmp_path, args)
        servers.append(s)
        return s.start() if start else s

    yield make
    for s in servers:
        if s.proc is not None:
            rc = s.stop()
            assert rc == 0, f"exit code {rc}: {s.stderr()}"


@pytest.fixture
def server(make_server):
    return make_server("--threads", "2")


@pytest.fixture
def r(server):
    return server.client()
