"""A throwaway PostgreSQL server for the tests: initdb into a temp dir, listen on 127.0.0.1 on a
free port, trust auth, torn down at the end. initdb refuses root, so as root the server runs as
the ``postgres`` OS user (Debian's package creates it)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """The PostgreSQL server binaries are not installed."""


def find_bindir() -> Path:
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(candidate, "initdb").exists():
            return Path(candidate)
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise PostgresUnavailable(
        "PostgreSQL server binaries (initdb, pg_ctl) not found; install Debian's postgresql package"
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    bindir: Path
    datadir: Path
    port: int
    run_as: str | None

    @property
    def dsn(self) -> str:
        return f"host=127.0.0.1 port={self.port} user=anonsql dbname=postgres"

    def dsn_for(self, dbname: str, user: str = "anonsql") -> str:
        return f"host=127.0.0.1 port={self.port} user={user} dbname={dbname}"

    def _cmd(self, *args: str) -> list[str]:
        if self.run_as:
            return ["runuser", "-u", self.run_as, "--", *args]
        return list(args)

    def start(self) -> None:
        initdb = str(self.bindir / "initdb")
        subprocess.run(
            self._cmd(
                initdb,
                "-D",
                str(self.datadir / "data"),
                "-U",
                "anonsql",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-locale",
            ),
            check=True,
            capture_output=True,
        )
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.datadir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=60"
        )
        subprocess.run(
            self._cmd(
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.datadir / "data"),
                "-o",
                options,
                "-l",
                str(self.datadir / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ),
            check=True,
            capture_output=True,
        )

    def stop(self) -> None:
        subprocess.run(
            self._cmd(
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.datadir / "data"),
                "-m",
                "immediate",
                "stop",
            ),
            check=False,
            capture_output=True,
        )
        time.sleep(0.2)
        shutil.rmtree(self.datadir, ignore_errors=True)


def start_server() -> PostgresServer:
    bindir = find_bindir()
    run_as = "postgres" if os.geteuid() == 0 else None
    datadir = Path(tempfile.mkdtemp(prefix="anonsql-pg-"))
    if run_as:
        shutil.chown(datadir, user=run_as)
    server = PostgresServer(bindir=bindir, datadir=datadir, port=free_port(), run_as=run_as)
    try:
        server.start()
    except subprocess.CalledProcessError as err:
        log = (datadir / "log").read_text() if (datadir / "log").exists() else ""
        server.stop()
        raise RuntimeError(f"PostgreSQL failed to start: {err.stderr!r} {log}") from err
    return server
