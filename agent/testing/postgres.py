"""A throwaway PostgreSQL server for development, the tests and `math-agent bench serve`.

`make postgres` (`python -m agent.testing.postgres run`) starts one in a temporary folder on
127.0.0.1 and prints its MATH_AGENT_DATABASE_URL; Ctrl-C stops it and removes the folder.
`start DIR` / `stop DIR` do the same in the background (CI). It uses Debian's server binaries
(`apt-get install postgresql`; /usr/lib/postgresql/N/bin), runs as the `postgres` user when
started by root (initdb refuses root), trusts local connections (a development server only:
loopback, no password) and skips fsync.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HOST = "127.0.0.1"
SERVICE_USER = "postgres"


def bin_dir() -> Path | None:
    """Where initdb and pg_ctl are: Debian's versioned folder, else the PATH."""
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def unavailable_reason() -> str | None:
    """Why no server can be started here, or None."""
    if bin_dir() is None:
        return "PostgreSQL's server binaries are not installed (apt-get install postgresql)"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to start PostgreSQL as another user"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One cluster in `directory` (made if missing), listening on 127.0.0.1:`port`."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        self.directory = directory
        self.data = directory / "data"
        self.port = port or _free_port()
        self.log = directory / "server.log"

    @property
    def url(self) -> str:
        return f"postgresql://{SERVICE_USER}@{HOST}:{self.port}/postgres"

    def url_of(self, database: str) -> str:
        return f"postgresql://{SERVICE_USER}@{HOST}:{self.port}/{database}"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        folder = bin_dir()
        if folder is None:
            raise RuntimeError(unavailable_reason() or "no PostgreSQL")
        argv = [str(folder / command[0]), *command[1:]]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", SERVICE_USER, "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, check=check, timeout=120)

    def start(self) -> PostgresServer:
        self.directory.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.directory, SERVICE_USER)
        if not (self.data / "PG_VERSION").exists():
            self._run(
                "initdb", "-D", str(self.data), "-U", SERVICE_USER, "--auth=trust",
                "--no-sync", "-E", "UTF8",
            )  # fmt: skip
        options = f"-p {self.port} -h {HOST} -k {self.directory} -F -c max_connections=300"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60",
            "start",
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop (`immediate`: as a crash would, for the fault bench)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def create_database(self) -> str:
        """A new empty database on this server (a test's own); its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url_of(name)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.directory, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agent.testing.postgres",
        description="A throwaway PostgreSQL on 127.0.0.1 for development and tests.",
    )
    parser.add_argument("action", choices=("run", "start", "stop"))
    parser.add_argument("directory", nargs="?", type=Path, help="cluster folder (start, stop)")
    parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args(argv)
    if (reason := unavailable_reason()) is not None:
        print(f"Cannot start PostgreSQL: {reason}.", file=sys.stderr)
        return 2
    if args.action == "stop":
        if args.directory is None:
            parser.error("stop needs the DIRECTORY given to start")
        PostgresServer(args.directory).remove()
        return 0
    directory = args.directory or Path(tempfile.mkdtemp(prefix="math-agent-pg-"))
    server = PostgresServer(directory, args.port).start()
    print(f"MATH_AGENT_DATABASE_URL={server.url}", flush=True)
    if args.action == "start":
        return 0
    print("PostgreSQL is running; Ctrl-C stops it and removes its folder.", file=sys.stderr)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.5)
    server.remove()
    return 0


if __name__ == "__main__":
    sys.exit(main())
