"""A private PostgreSQL cluster for the server tests: initdb in a temporary
directory, pg_ctl start on a free loopback port, trust authentication for
local connections only, stopped at the end.

As root (CI containers) the cluster runs as the ``postgres`` user that
Debian's package creates (PostgreSQL refuses to run as root).  Outside CI a
missing PostgreSQL skips the tests that need it; under ``CI=true`` it fails
them (``.ci/run`` installs Debian's ``postgresql``).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time

__all__ = ["Cluster", "find_bin", "start"]


def find_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self, root: str, port: int, as_user: str | None) -> None:
        self.root, self.port, self.as_user = root, port, as_user
        self.data = os.path.join(root, "data")
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        self.options = ""   # pg_ctl's -o, set by start()

    def _cmd(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", self.as_user, "--", *argv] if self.as_user else argv

    def run(self, argv: list[str], timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run(self._cmd(argv), capture_output=True, text=True, timeout=timeout)

    def stop(self) -> None:
        pg_ctl = find_bin("pg_ctl")
        if pg_ctl:
            self.run([pg_ctl, "-D", self.data, "-m", "immediate", "stop"], timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)

    def restart(self) -> None:
        """Stop the server at once (as a crash would: ``-m immediate``) and start
        it again on the same port; returns when it accepts connections."""
        pg_ctl = find_bin("pg_ctl")
        assert pg_ctl is not None
        r = self.run([pg_ctl, "-D", self.data, "-m", "immediate", "-w", "stop"], timeout=60)
        if r.returncode:
            raise RuntimeError(f"pg_ctl stop failed: {r.stderr[-300:]}")
        r = self.run([pg_ctl, "-D", self.data, "-o", self.options, "-l",
                      os.path.join(self.root, "log"), "-w", "-t", "60", "start"], timeout=90)
        if r.returncode:
            raise RuntimeError(f"pg_ctl start failed: {r.stderr[-300:]}")

    def fresh_database(self, name: str) -> str:
        """A new empty database on the cluster; its URL."""
        import psycopg
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"


def start() -> tuple[Cluster | None, str]:
    """A running cluster, or None and the reason it could not start."""
    initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
    if not initdb or not pg_ctl:
        return None, "PostgreSQL is not installed (apt-get install postgresql)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return None, "psycopg is not installed (pip install 'psycopg[binary]')"
    as_user = None
    if os.geteuid() == 0:
        as_user = "postgres"
        try:
            import pwd
            pwd.getpwnam(as_user)
        except KeyError:
            return None, "running as root and there is no postgres user to run PostgreSQL"
    root = tempfile.mkdtemp(prefix="bg-pg-")
    os.chmod(root, 0o755)
    if as_user:
        shutil.chown(root, user=as_user)
    cluster = Cluster(root, _free_port(), as_user)
    r = cluster.run([initdb, "-D", cluster.data, "-U", "postgres", "-A", "trust",
                     "--no-sync", "-E", "UTF8"], timeout=120)
    if r.returncode:
        shutil.rmtree(root, ignore_errors=True)
        return None, f"initdb failed: {r.stderr[-500:]}"
    opts = (f"-c listen_addresses=127.0.0.1 -c port={cluster.port} -c unix_socket_directories={root} "
            "-c fsync=off -c max_connections=200 -c shared_buffers=32MB")
    cluster.options = opts
    r = cluster.run([pg_ctl, "-D", cluster.data, "-o", opts, "-l",
                     os.path.join(root, "log"), "-w", "-t", "60", "start"], timeout=90)
    if r.returncode:
        log = ""
        try:
            with open(os.path.join(root, "log")) as f:
                log = f.read()[-500:]
        except OSError:
            pass
        shutil.rmtree(root, ignore_errors=True)
        return None, f"pg_ctl start failed: {r.stderr[-300:]} {log}"
    import psycopg
    for _ in range(100):
        try:
            psycopg.connect(cluster.url, connect_timeout=2).close()
            return cluster, ""
        except psycopg.OperationalError:
            time.sleep(0.1)
    cluster.stop()
    return None, "PostgreSQL started but does not accept connections"
