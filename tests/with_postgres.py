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


def main(command: list[str]) -> int:
    initdb, pg_ctl = find("initdb"), find("pg_ctl")
    run_as: list[str] = []
    owner = None
    if os.geteuid() == 0:
        for name in ("postgres", "nobody"):
            try:
                owner = pwd.getpwnam(name)
                break
            except KeyError:
                continue
        run_as = ["runuser", "-u", owner.pw_name, "--"]
    base = tempfile.mkdtemp(prefix="test-pg-")
    data = os.path.join(base, "data")
    if owner:
        os.chown(base, owner.pw_uid, owner.pw_gid)
    port = free_port()
    quiet = {"stdout": subprocess.DEVNULL}
    try:
        subprocess.run(
            [*run_as, initdb, "-D", data, "-U", "dcdb", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True,
            **quiet,
        )
        options = f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={base} -c fsync=off"
        subprocess.run(
            [*run_as, pg_ctl, "-D", data, "-o", options, "-l", os.path.join(base, "log"), "-w", "start"],
            check=True,
            **quiet,
        )
        env = dict(os.environ, DATABASE_URL=f"postgres://dcdb@127.0.0.1:{port}/postgres", TEST_POSTGRES="1")
        print(f"PostgreSQL on 127.0.0.1:{port}: {' '.join(command)}", flush=True)
        return subprocess.run(command, env=env).returncode
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", data, "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
