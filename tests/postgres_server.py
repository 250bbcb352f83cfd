"""A private PostgreSQL server for tests: its own data folder, port and socket folder, listening on 127.0.0.1 only,
stopped and deleted afterwards whatever happens; skipped (with the reason) where no server is installed to start."""
from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from formgrader_server import free_port

PASSWORD = "s3cret-grader"
SERVER_SETTINGS = "-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder}"


def postgres_bin() -> Path | None:
    """The folder with initdb and pg_ctl of the newest installed Debian PostgreSQL, or from PATH."""
    debian = sorted(Path("/usr/lib/postgresql").glob("[0-9]*/bin/pg_ctl"), key=lambda path: float(path.parts[-3]))
    found = debian[-1] if debian else shutil.which("pg_ctl")
    return Path(found).parent if found else None


def server_account() -> pwd.struct_passwd | None:
    """Who runs the server: the `postgres` system user when we are root (initdb refuses root), else ourselves."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        return None


@contextmanager
def postgres_database(name: str = "lesson05") -> Iterator[str]:
    """A PostgreSQL server of the test's own with an empty database `name`; its SQLAlchemy URL while the block runs."""
    bin_dir, account = postgres_bin(), server_account()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server installed (Debian: apt-get install postgresql; `make test` does it as root)")
    if account is None:
        pytest.skip("running as root without a `postgres` system user to run the server as (initdb refuses root)")
    folder = Path(tempfile.mkdtemp(prefix="gradebook-postgres-"))  # not under pytest's tmp: that is private to root
    (folder / "password").write_text(PASSWORD, encoding="utf-8")
    for path in (folder, folder / "password"):
        os.chown(path, account.pw_uid, account.pw_gid)
    as_server = {"user": account.pw_uid, "group": account.pw_gid, "cwd": folder, "capture_output": True, "text": True}
    data, port = folder / "data", free_port()
    try:
        subprocess.run([bin_dir / "initdb", "-D", data, "-U", "grader", f"--pwfile={folder / 'password'}",
                        "--auth=scram-sha-256", "--no-locale", "-E", "UTF8"], check=True, timeout=120, **as_server)
        started = subprocess.run([bin_dir / "pg_ctl", "-D", data, "-l", folder / "server.log", "-w", "-t", "60", "-o",
                                  SERVER_SETTINGS.format(port=port, folder=folder), "start"], timeout=90, **as_server)
        assert started.returncode == 0, (folder / "server.log").read_text(encoding="utf-8")
        with psycopg.connect(host="127.0.0.1", port=port, user="grader", password=PASSWORD, dbname="postgres",
                             autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name}")
        yield f"postgresql+psycopg://grader:{PASSWORD}@127.0.0.1:{port}/{name}"
    finally:
        subprocess.run([bin_dir / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop"], timeout=90, **as_server)
        shutil.rmtree(folder, ignore_errors=True)
