"""The production stack on loopback, set up as README's "Production" says: PostgreSQL, Redis, gunicorn, a
Celery worker and nginx in front (TLS with a throwaway certificate), DEBUG off.

What comes from the project's own documents, so that they and this cannot drift apart:

- the env file: README's ``production: env-file`` block, with only the addresses and paths of this
  machine replaced (``LOCAL_KEYS``: each must be a key the README sets);
- the release commands: README's ``production: release`` block, run by bash as it is written (its
  ``/srv/dcdb`` and ``/etc/dcdb`` paths pointed here);
- the web server's and the worker's commands: ``ExecStart`` of ``deploy/systemd/*.service``;
- nginx: ``deploy/nginx.conf`` with its ``${DCDB_...}`` filled in (as README's envsubst line does, which
  must name each of them), inside a minimal main configuration.

Used by the production smoke test (tests/production/) and the load benchmark (bench/bench_load.py).
Every process is started in its own session and stopped by ``stop()``.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.with_postgres import Cluster

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
README = REPO_ROOT / "README.md"
DEPLOY = REPO_ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent

# The env file's settings that name this machine's addresses and paths; everything else is the README's.
LOCAL_KEYS = {
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SITE_URL",
    "DATABASE_URL",
    "REDIS_URL",
    "VAR_DIR",
    "MEDIA_ROOT",
    "STATIC_ROOT",
    "RULINGS_SOURCES",
    # Words only: building the meaning index takes two minutes (tests/rulings/test_semantic.py covers it).
    "RULINGS_EMBEDDINGS",
    # No SMTP server here: email goes to the web server's log (the console backend).
    "EMAIL_HOST",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "GUNICORN_BIND",
    "GUNICORN_WORKERS",
}


def readme_block(name: str) -> str:
    """The fenced block right after ``<!-- production: NAME -->`` in the README."""
    found = re.search(rf"<!-- production: {re.escape(name)} -->\s*```\w*\n(.*?)```", README.read_text(), re.S)
    if not found:
        raise LookupError(f"README.md has no block marked <!-- production: {name} -->")
    return found.group(1)


def readme_env() -> dict[str, str]:
    """README's env file, parsed as bash and systemd read it (KEY=VALUE, quotes allowed)."""
    env = {}
    for line in readme_block("env-file").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, value = shlex.split(line)[0].split("=", 1)
            env[key] = value
    return env


def unit_command(unit: str) -> list[str]:
    """A systemd unit's ExecStart, with the venv of the README (/srv/dcdb/venv) replaced by this one."""
    text = (DEPLOY / "systemd" / unit).read_text()
    line = re.search(r"^ExecStart=(.+)$", text, re.M).group(1)
    command = shlex.split(line)
    command[0] = str(VENV_BIN / Path(command[0]).name)
    return command


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 30.0, process: subprocess.Popen | None = None) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


def find_nginx() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)


NGINX_MAIN = """
daemon off;
worker_processes {workers};
pid {base}/nginx.pid;
error_log {base}/nginx-error.log warn;
{user}
events {{ worker_connections 4096; }}
http {{
    include {mime_types};
    default_type application/octet-stream;
    sendfile on;
    keepalive_timeout 65;
    access_log {access_log};
    client_body_temp_path {base}/nginx-temp/body;
    proxy_temp_path {base}/nginx-temp/proxy;
    fastcgi_temp_path {base}/nginx-temp/fastcgi;
    uwsgi_temp_path {base}/nginx-temp/uwsgi;
    scgi_temp_path {base}/nginx-temp/scgi;
    include {base}/dcdb.conf;
}}
"""


class Stack:
    """PostgreSQL, Redis, gunicorn, a Celery worker and (when installed, or ``nginx=True``) nginx."""

    def __init__(
        self,
        *,
        nginx: bool | None = None,
        gunicorn_workers: int = 2,
        access_log: bool = True,
        log=None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.base = Path(tempfile.mkdtemp(prefix="dcdb-stack-"))
        self.base.chmod(0o755)  # nginx's workers (another user, as root) read static files and PDFs here
        self.nginx_path = find_nginx()
        if nginx and not self.nginx_path:
            raise RuntimeError("nginx is not installed")
        self.use_nginx = bool(self.nginx_path) if nginx is None else nginx
        self.gunicorn_workers = gunicorn_workers
        self.access_log = access_log
        self.env_overrides = dict(env or {})  # settings a caller changes (e.g. a load test's rate limits)
        self.log = log or (lambda message: None)
        self.processes: dict[str, subprocess.Popen] = {}
        self.cluster: Cluster | None = None
        self.app_port = free_port()
        self.https_port = free_port()
        self.http_port = free_port()
        self.redis_port = free_port()
        self.env: dict[str, str] = {}
        self.env_file = self.base / "dcdb.env"

    # Addresses --------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The site as visitors reach it: through nginx over HTTPS, else gunicorn itself."""
        return (
            f"https://127.0.0.1:{self.https_port}" if self.use_nginx else f"http://127.0.0.1:{self.app_port}"
        )

    @property
    def app_url(self) -> str:
        return f"http://127.0.0.1:{self.app_port}"

    @property
    def plain_url(self) -> str:
        """nginx over plain HTTP (probes)."""
        return f"http://127.0.0.1:{self.http_port}"

    # Starting ---------------------------------------------------------------------------------------

    def start(self, seeds: Path) -> None:
        try:
            self._start(seeds)
        except BaseException:
            self.stop()
            raise

    def _start(self, seeds: Path) -> None:
        started = time.monotonic()
        self.cluster = Cluster()
        database_url = self.cluster.start()
        self.log(f"PostgreSQL on 127.0.0.1:{self.cluster.port}")
        self.start_redis()
        self.write_env_file(database_url, seeds)
        self.release()
        self.log(f"released (README's commands) after {time.monotonic() - started:.1f}s")
        self.start_web()
        self.start_worker()
        if self.use_nginx:
            self.start_nginx()
        self.log(f"stack up after {time.monotonic() - started:.1f}s: {self.url}")

    def start_redis(self) -> None:
        redis_dir = self.base / "redis"
        redis_dir.mkdir()
        self.spawn(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(redis_dir)],
        )  # fmt: skip
        wait_for_port(self.redis_port, process=self.processes["redis"])

    def stop_redis(self) -> None:
        self.terminate("redis")

    def write_env_file(self, database_url: str, seeds: Path) -> None:
        readme = readme_env()
        missing = LOCAL_KEYS - readme.keys()
        if missing:
            raise LookupError(f"README's env file no longer sets {sorted(missing)}")
        site = self.url
        local = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "CSRF_TRUSTED_ORIGINS": site,
            "SITE_URL": site,
            "DATABASE_URL": database_url,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "VAR_DIR": str(self.base / "var"),
            "MEDIA_ROOT": str(self.base / "var" / "media"),
            "STATIC_ROOT": str(self.base / "static"),
            "RULINGS_SOURCES": str(seeds),
            "RULINGS_EMBEDDINGS": "off",
            "EMAIL_HOST": "",
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "GUNICORN_BIND": f"127.0.0.1:{self.app_port}",
            "GUNICORN_WORKERS": str(self.gunicorn_workers),
        }
        assert local.keys() == LOCAL_KEYS
        if not self.use_nginx:
            # No proxy to send the files: the app sends them (README: set it only behind nginx).
            local["MEDIA_ACCEL_REDIRECT"] = ""
            local["SECURE_SSL_REDIRECT"] = "false"  # gunicorn over plain HTTP on loopback
            local["TRUSTED_PROXY_COUNT"] = "0"  # no proxy adds X-Forwarded-For
        self.env = {**readme, **local, **self.env_overrides}
        self.env_file.write_text("".join(f"{k}={shlex.quote(v)}\n" for k, v in self.env.items()))

    def process_env(self, extra: dict[str, str] | None = None) -> dict[str, str]:
        """What a service gets: a plain environment and the env file (systemd's EnvironmentFile)."""
        base = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TZ") if k in os.environ}
        base.setdefault("LANG", "C.UTF-8")
        return {**base, **self.env, **(extra or {})}

    def release(self) -> None:
        script = readme_block("release")
        for readme_path, here in (
            ("/etc/dcdb/dcdb.env", str(self.env_file)),
            ("/srv/dcdb/venv/bin/", f"{VENV_BIN}/"),
            ("/srv/dcdb/app", str(REPO_ROOT)),
        ):
            script = script.replace(readme_path, here)
        if "/srv/dcdb" in script or "/etc/dcdb" in script:
            raise LookupError(f"README's release block names a path the smoke test does not know:\n{script}")
        base = {k: v for k, v in self.process_env().items() if k not in self.env}
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            env=base,
            cwd=self.base,
            capture_output=True,
            text=True,
            timeout=300,
        )
        (self.base / "release.log").write_text(done.stdout + done.stderr)
        if done.returncode != 0:
            raise RuntimeError(
                f"README's release commands failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )

    def start_web(self) -> None:
        self.spawn("web", unit_command("dcdb-web.service"), cwd=REPO_ROOT)
        wait_for_port(self.app_port, timeout=60, process=self.processes["web"])

    def start_worker(self) -> None:
        self.spawn("worker", unit_command("dcdb-worker.service"), cwd=REPO_ROOT)
        deadline = time.monotonic() + 60
        log = self.base / "worker.log"
        while " ready." not in log.read_text(errors="replace"):
            if self.processes["worker"].poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)

    def nginx_values(self) -> dict[str, str]:
        cert, key = self.base / "tls-cert.pem", self.base / "tls-key.pem"
        if not cert.exists():
            subprocess.run(
                ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                 "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                check=True,
                capture_output=True,
            )  # fmt: skip
        return {
            "DCDB_UPSTREAM": f"127.0.0.1:{self.app_port}",
            "DCDB_HTTP_PORT": f"127.0.0.1:{self.http_port}",
            "DCDB_HTTPS_PORT": f"127.0.0.1:{self.https_port}",
            "DCDB_TLS_CERT": str(cert),
            "DCDB_TLS_KEY": str(key),
            "DCDB_STATIC_ROOT": self.env["STATIC_ROOT"],
            "DCDB_MEDIA_ROOT": self.env["MEDIA_ROOT"],
            "DCDB_CACHE_DIR": str(self.base / "nginx-cache"),
        }

    def start_nginx(self) -> None:
        values = self.nginx_values()
        template = (DEPLOY / "nginx.conf").read_text()
        used = set(re.findall(r"\$\{(DCDB_\w+)\}", template))
        documented = set(re.findall(r"\$(DCDB_\w+)", readme_block("nginx").split("envsubst", 1)[1]))
        if used != documented or used != values.keys():
            raise LookupError(
                f"deploy/nginx.conf uses {sorted(used)}; README's envsubst names {sorted(documented)}"
            )
        conf = re.sub(r"\$\{(DCDB_\w+)\}", lambda m: values[m.group(1)], template)
        (self.base / "dcdb.conf").write_text(conf)
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.base / "nginx-temp" / sub).mkdir(parents=True, exist_ok=True)
        main = NGINX_MAIN.format(
            base=self.base,
            workers=2,
            user="user nobody nogroup;" if os.geteuid() == 0 else "",
            mime_types="/etc/nginx/mime.types",
            access_log=f"{self.base}/nginx-access.log" if self.access_log else "off",
        )
        (self.base / "nginx.conf").write_text(main)
        if os.geteuid() == 0:
            shutil.chown(self.base / "nginx-temp", "nobody")
            for sub in (self.base / "nginx-temp").iterdir():
                shutil.chown(sub, "nobody")
        self.spawn("nginx", [self.nginx_path, "-c", str(self.base / "nginx.conf"), "-p", str(self.base)])
        wait_for_port(self.https_port, timeout=20, process=self.processes["nginx"])

    # Processes --------------------------------------------------------------------------------------

    def spawn(self, name: str, command: list[str], cwd: Path | None = None) -> None:
        log = open(self.base / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
        self.processes[name] = subprocess.Popen(
            command,
            cwd=cwd or self.base,
            env=self.process_env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: stopped with all its children
        )

    def terminate(self, name: str, timeout: float = 15) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        for name in ("nginx", "web", "worker", "redis"):
            self.terminate(name)
        for name in list(self.processes):
            self.terminate(name)
        if self.cluster is not None:
            self.cluster.stop()
            self.cluster = None
        shutil.rmtree(self.base, ignore_errors=True)

    def read_log(self, name: str) -> str:
        path = self.base / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # Shell ------------------------------------------------------------------------------------------

    def manage_shell(self, code: str) -> str:
        """Run Python in ``manage.py shell`` with the production env (test data set-up)."""
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
            cwd=REPO_ROOT,
            env=self.process_env({"PYTHONPATH": str(REPO_ROOT)}),
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py shell failed:\n{done.stderr[-3000:]}")
        return done.stdout


def insecure_tls() -> ssl.SSLContext:
    """The throwaway certificate is self-signed: clients here do not verify it."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def get(url: str, timeout: float = 10, headers: dict | None = None):
    request = urllib.request.Request(url, headers=headers or {})
    return urllib.request.urlopen(request, timeout=timeout, context=insecure_tls())


class Browser:
    """One visitor: cookies kept, the throwaway certificate accepted, error answers returned (not raised)."""

    def __init__(self, base: str) -> None:
        import http.cookiejar

        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), urllib.request.HTTPSHandler(context=insecure_tls())
        )

    def open(self, path: str, data: dict | None = None, headers: dict | None = None, timeout: float = 30):
        import urllib.error
        import urllib.parse

        body = None
        headers = dict(headers or {})
        if data is not None:
            token = self.cookie("csrftoken")
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **data}).encode()
            headers.setdefault("Referer", self.base + path)
        request = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            response = self.opener.open(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            response = error
        response.body = response.read()
        response.close()
        return response

    def get(self, path: str, **kwargs):
        return self.open(path, **kwargs)

    def post(self, path: str, data: dict | None = None, **kwargs):
        if self.cookie("csrftoken") is None:
            self.get(path)
        return self.open(path, data or {}, **kwargs)

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def log_in(self, username: str, password: str) -> None:
        self.get("/accounts/login/")
        response = self.open("/accounts/login/", {"login": username, "password": password})
        if self.cookie("sessionid") is None:
            raise AssertionError(f"{username} could not log in: {response.status} {response.body[:500]!r}")
