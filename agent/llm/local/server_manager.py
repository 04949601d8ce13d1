"""Start, reuse and stop the embedded model's server, leaving no process behind.

One server per model and settings is shared by every REPL on the machine: a state file
(`server-<sha12>.json`: pid, port, model sha256, settings key) tells a second REPL where it
is, and a health check proves it still answers before it is reused. Each user holds a lease
file; the last one to stop ends the server, and the server's own watchdog ends it if the
last user died without stopping (SIGKILL, a crash). All decisions are taken under one
flock, so two REPLs starting together load the model once.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from agent.llm.local.server_process import live_leases
from agent.llm.local.settings import LOCAL_MODEL, LOCAL_SETTINGS, GenerationSettings, ModelSpec
from agent.processes import pid_alive

HOST = "127.0.0.1"
STOP_GRACE_S = 5.0
START_ATTEMPTS = 2


class ServerError(Exception):
    """The local server could not be started; the message is one actionable sentence."""


@dataclass(frozen=True)
class Launch:
    """Everything a server command needs: what to load, where to listen, whom to watch."""

    model_path: Path
    alias: str
    port: int
    settings: GenerationSettings
    leases: Path
    lock: Path
    state: Path
    # Where the server saves its slots' states (`agent.llm.local.start_state`); it outlives
    # the server, so the next one starts with the fixed prompt already read.
    saved_states: Path


CommandFactory = Callable[[Launch], list[str]]


def serve_command(launch: Launch) -> list[str]:
    """The real server: agent.llm.local.server_process in a fresh interpreter of this environment."""
    s = launch.settings
    return [
        sys.executable,
        "-m",
        "agent.llm.local.server_process",
        "--model",
        str(launch.model_path),
        "--alias",
        launch.alias,
        "--port",
        str(launch.port),
        "--host",
        HOST,
        "--ctx",
        str(s.context_size),
        "--threads",
        str(s.threads),
        "--max-tokens",
        str(s.max_tokens),
        "--temperature",
        str(s.temperature),
        "--leases",
        str(launch.leases),
        "--lock",
        str(launch.lock),
        "--state",
        str(launch.state),
        "--slots",
        str(launch.saved_states),
        "--parallel",
        str(s.slots),
    ]


def state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME", "").strip() or str(Path.home() / ".local" / "state")
    return Path(base) / "math-agent" / "local"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def http_json(url: str, timeout: float = 2.0) -> object | None:
    """GET url and parse JSON; None for any failure (refused, 503 while loading, garbage)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            if response.status != 200:
                return None
            return json.loads(response.read())
    except (OSError, ValueError):
        return None


def healthy(base: str, alias: str | None = None) -> bool:
    """/health says ok and, when alias is given, /v1/models lists it."""
    health = http_json(f"{base}/health")
    if not isinstance(health, dict) or health.get("status") != "ok":
        return False
    if alias is None:
        return True
    models = http_json(f"{base}/v1/models")
    ids = [m.get("id") for m in (models or {}).get("data", [])] if isinstance(models, dict) else []
    return alias in ids


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _write_json(path: Path, data: dict[str, object]) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2))
    os.replace(tmp, path)


def _read_json(path: Path) -> dict[str, object] | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def terminate(pid: int, proc: subprocess.Popen[bytes] | None = None) -> None:
    """SIGTERM, then SIGKILL after a grace period; returns once the process is gone."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_S
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return
        if proc is None and not pid_alive(pid):
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    if proc is not None:
        proc.wait()
    else:
        while pid_alive(pid):
            time.sleep(0.05)


# Servers this process spawned: reaped at exit so none lingers as a zombie.
_SPAWNED: list[subprocess.Popen[bytes]] = []


def _reap() -> None:
    for proc in list(_SPAWNED):
        if proc.poll() is not None:
            _SPAWNED.remove(proc)


class LocalServer:
    """A lease on the embedded model's server: `start()` attaches or spawns, `stop()` leaves."""

    def __init__(
        self,
        model_path: Path,
        spec: ModelSpec = LOCAL_MODEL,
        settings: GenerationSettings = LOCAL_SETTINGS,
        command: CommandFactory = serve_command,
        directory: Path | None = None,
        on_wait: Callable[[float], None] | None = None,
        saved_states: Path | None = None,
    ) -> None:
        self.model_path = model_path
        self.saved_states = saved_states or model_path.parent / "slots"
        self.spec = spec
        self.settings = settings
        self.command = command
        self.directory = directory or state_dir()
        self.on_wait = on_wait
        self.pid: int | None = None
        self.port: int | None = None
        self.reused = False
        self.load_seconds = 0.0
        self._lease: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._instance: Path | None = None

    # -- names ------------------------------------------------------------------------------

    @property
    def key(self) -> str:
        """What must match for a running server to be reused: model and server settings."""
        s = self.settings
        key = f"{self.spec.sha256}:{s.context_size}:{s.threads}:{s.max_tokens}:{s.temperature}"
        return key if s.slots == 1 else f"{key}:slots={s.slots}"

    @property
    def state_file(self) -> Path:
        return self.directory / f"server-{self.spec.sha256[:12]}.json"

    @property
    def lock_file(self) -> Path:
        return self.directory / f"server-{self.spec.sha256[:12]}.lock"

    @property
    def last_log(self) -> Path:
        return self.directory / f"server-{self.spec.sha256[:12]}.last.log"

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (with /v1) for clients."""
        if self.port is None:
            raise ServerError("The local server is not started.")
        return f"http://{HOST}:{self.port}/v1"

    @property
    def root_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> LocalServer:
        """Reuse a healthy server for the same model and settings, or start one and wait."""
        if self.pid is not None:
            return self
        with _locked(self.lock_file):
            if not self._attach():
                self._spawn()
        atexit.register(self.stop)
        return self

    def _take_lease(self, instance: Path) -> None:
        leases = instance / "clients"
        leases.mkdir(parents=True, exist_ok=True)
        self._lease = leases / f"{os.getpid()}.{uuid.uuid4().hex[:8]}"
        self._lease.touch()
        self._instance = instance

    def _drop_lease(self) -> None:
        if self._lease is not None:
            self._lease.unlink(missing_ok=True)
        self._lease = None

    def _attach(self) -> bool:
        state = _read_json(self.state_file)
        if state is None or state.get("key") != self.key:
            return False
        pid, port, instance = state.get("pid"), state.get("port"), state.get("instance")
        if not (isinstance(pid, int) and isinstance(port, int) and isinstance(instance, str)):
            return False
        if not pid_alive(pid):
            self.state_file.unlink(missing_ok=True)
            return False
        self._take_lease(Path(instance))  # before the health check: the server must not leave
        if not healthy(f"http://{HOST}:{port}", self.spec.name):
            self._drop_lease()
            return False
        self.pid, self.port, self.reused = pid, port, True
        return True

    def _spawn(self) -> None:
        for attempt in range(1, START_ATTEMPTS + 1):
            port = free_port()
            instance = self.directory / f"{self.spec.sha256[:12]}-{port}"
            self._take_lease(instance)
            launch = Launch(
                self.model_path,
                self.spec.name,
                port,
                self.settings,
                instance / "clients",
                self.lock_file,
                self.state_file,
                self.saved_states,
            )
            log = instance / "server.log"
            started = time.monotonic()
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    self.command(launch),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # the REPL's Ctrl-C must not reach it
                    close_fds=True,
                )
            _SPAWNED.append(proc)
            self._proc, self.pid, self.port = proc, proc.pid, port
            try:
                ready = self._wait_ready(proc, started)
            except BaseException:
                self._kill_own()  # timeout, Ctrl-C during loading, anything: leave nothing
                raise
            if ready:
                self.load_seconds = time.monotonic() - started
                _write_json(
                    self.state_file,
                    {
                        "pid": proc.pid,
                        "port": port,
                        "key": self.key,
                        "sha256": self.spec.sha256,
                        "model": str(self.model_path),
                        "instance": str(instance),
                        "settings": asdict(self.settings),
                        "started": time.time(),
                    },
                )
                return
            tail = _tail(log)
            self._kill_own()
            if attempt == START_ATTEMPTS:
                raise ServerError(
                    f"The local model server exited while starting ({tail or 'no output'}); "
                    f"see {self.last_log} or run `math-agent doctor`."
                )

    def _wait_ready(self, proc: subprocess.Popen[bytes], started: float) -> bool:
        """True when /health answers ok; False when the process exited; raises on timeout."""
        deadline = started + self.settings.ready_timeout_s
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            if healthy(self.root_url, self.spec.name):
                return True
            if self.on_wait is not None:
                self.on_wait(time.monotonic() - started)
            time.sleep(0.2)
        raise ServerError(
            f"The local model server did not become ready within "
            f"{self.settings.ready_timeout_s:.0f} s; it was stopped (see `math-agent doctor`)."
        )

    def _kill_own(self) -> None:
        if self._proc is not None:
            terminate(self._proc.pid, self._proc)
        self._drop_lease()
        self._cleanup_instance()
        self._proc, self.pid, self.port = None, None, None

    def _cleanup_instance(self) -> None:
        state = _read_json(self.state_file)
        if state is not None and state.get("pid") == self.pid:
            self.state_file.unlink(missing_ok=True)
        if self._instance is not None:
            import shutil

            # Keep the last server log for `math-agent doctor` and bug reports.
            with contextlib.suppress(OSError):
                os.replace(self._instance / "server.log", self.last_log)
            shutil.rmtree(self._instance, ignore_errors=True)
        self._instance = None

    def alive(self) -> bool:
        """Started, its process running and answering /health (a killed server is not)."""
        return self.pid is not None and pid_alive(self.pid) and healthy(self.root_url)

    def stop(self) -> None:
        """Leave; the last user stops the server and removes its state. Safe to call twice."""
        if self.pid is None:
            _reap()
            return
        with _locked(self.lock_file):
            self._drop_lease()
            others = live_leases(self._instance / "clients") if self._instance else []
            if not others:
                terminate(self.pid, self._proc)
                self._cleanup_instance()
        self.pid, self.port, self._proc, self._instance = None, None, None, None
        _reap()
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)


def _tail(log: Path, lines: int = 1) -> str:
    try:
        text = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return " ".join(text[-lines:])[:200]
