"""Run a command against a throwaway PostgreSQL cluster on loopback.

    python tests/with_postgres.py pytest -m "not browser"

Creates a cluster in a temporary directory with initdb, starts it with pg_ctl on
a free port of 127.0.0.1, runs the command with DATABASE_URL pointing at it, then
stops the cluster and removes the directory. As root, the server runs as the
``postgres`` (or ``nobody``) user, since PostgreSQL refuses to run as root.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile


def find(program: str) -> str:
    found = shutil.which(program) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))), None
    )
    if not found:
        sys.exit(f"{program} not found: install PostgreSQL (apt-get install postgresql)")
    return found


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """A throwaway PostgreSQL cluster on a free port of 127.0.0.1 (``start()`` returns its URL)."""

    def __init__(self) -> None:
        self.initdb, self.pg_ctl = find("initdb"), find("pg_ctl")
        self.run_as: list[str] = []
        self.owner = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                try:
                    self.owner = pwd.getpwnam(name)
                    break
                except KeyError:
                    continue
            self.run_as = ["runuser", "-u", self.owner.pw_name, "--"]
        self.base = tempfile.mkdtemp(prefix="test-pg-")
        self.data = os.path.join(self.base, "data")
        self.port = free_port()

    @property
    def url(self) -> str:
        return f"postgres://dcdb@127.0.0.1:{self.port}/postgres"

    def start(self) -> str:
        if self.owner:
            os.chown(self.base, self.owner.pw_uid, self.owner.pw_gid)
        quiet = {"stdout": subprocess.DEVNULL}
        subprocess.run(
            [*self.run_as, self.initdb, "-D", self.data, "-U", "dcdb", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True,
            **quiet,
        )  # fmt: skip
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.base} -c fsync=off"
        subprocess.run(
            [*self.run_as, self.pg_ctl, "-D", self.data, "-o", options, "-l", os.path.join(self.base, "log"), "-w", "start"],
            check=True,
            **quiet,
        )  # fmt: skip
        return self.url

    def stop(self) -> None:
        if os.path.isdir(self.data):
            subprocess.run(
                [*self.run_as, self.pg_ctl, "-D", self.data, "-m", "fast", "stop"], capture_output=True
            )
        shutil.rmtree(self.base, ignore_errors=True)


def main(command: list[str]) -> int:
    cluster = Cluster()
    try:
        cluster.start()
        env = dict(os.environ, DATABASE_URL=cluster.url, TEST_POSTGRES="1")
        print(f"PostgreSQL on 127.0.0.1:{cluster.port}: {' '.join(command)}", flush=True)
        return subprocess.run(command, env=env).returncode
    finally:
        cluster.stop()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
