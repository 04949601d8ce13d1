"""The local server's lifecycle with a stub server: start, readiness, timeout, reuse, stop,
and no process left behind, even when the REPL holding it is killed with SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from agent.llm.local.server_manager import Launch, LocalServer, ServerError, healthy, http_json
from agent.llm.local.settings import LOCAL_MODEL, LOCAL_SETTINGS
from agent.processes import pid_alive

ROOT = Path(__file__).parents[2]

# Answers /health (503 while "loading") and /v1/models like llama.cpp's server, and ends
# itself through the real lease watchdog of agent.llm.local.server_process.
STUB = r"""
import json, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from agent.llm.local.server_process import watch_leases

port, alias, leases, lock, state, delay, mode = sys.argv[1:8]
if mode == "crash":
    print("error: failed to load model", flush=True)
    sys.exit(1)
watch_leases(Path(leases), Path(lock), Path(state), interval=0.1)
ready_at = time.monotonic() + float(delay)

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if time.monotonic() < ready_at:
            self.send_response(503); self.end_headers(); return
        body = {"/health": {"status": "ok"},
                "/v1/models": {"data": [{"id": alias, "meta": {"n_ctx": 4096}}]}}.get(self.path)
        self.send_response(200 if body else 404); self.end_headers()
        self.wfile.write(json.dumps(body or {}).encode())
    def do_POST(self):  # a model that always answers the same message
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        content = json.dumps({"tool": "message_to_user", "response": "stub answer",
                              "task_status": "COMPLETED"})
        body = {"id": "stub", "object": "chat.completion", "model": alias,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
        data = json.dumps(body).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data))); self.end_headers()
        self.wfile.write(data)
    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", int(port)), Handler).serve_forever()
"""


@pytest.fixture
def stub(tmp_path: Path):
    script = tmp_path / "stub_server.py"
    script.write_text(STUB)

    def factory(delay: float = 0.3, mode: str = "ok"):
        def command(launch: Launch) -> list[str]:
            return [
                sys.executable,
                str(script),
                str(launch.port),
                launch.alias,
                str(launch.leases),
                str(launch.lock),
                str(launch.state),
                str(delay),
                mode,
            ]

        return command

    return factory


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


SETTINGS = replace(LOCAL_SETTINGS, ready_timeout_s=20.0)


def server(stub_command, state: Path, **settings: object) -> LocalServer:
    return LocalServer(
        Path("/nonexistent/model.gguf"),
        LOCAL_MODEL,
        replace(SETTINGS, **settings),  # type: ignore[arg-type]
        command=stub_command,
        directory=state,
    )


def wait_gone(pid: int, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_start_waits_for_readiness_and_stop_leaves_nothing(stub, state: Path) -> None:
    waits: list[float] = []
    local = server(stub(delay=0.8), state)
    local.on_wait = waits.append
    local.start()
    try:
        pid = local.pid
        assert pid is not None and pid_alive(pid) and not local.reused
        assert waits, "the 503 phase was waited through"
        assert healthy(local.root_url, LOCAL_MODEL.name)
        assert local.base_url == f"http://127.0.0.1:{local.port}/v1"
        saved = json.loads(local.state_file.read_text())
        assert saved["pid"] == pid and saved["sha256"] == LOCAL_MODEL.sha256
    finally:
        local.stop()
    assert wait_gone(pid, 0.1)
    assert not local.state_file.exists()
    assert sorted(p.name for p in state.iterdir() if not p.name.endswith((".lock", ".log"))) == []
    local.stop()  # twice is fine


def test_a_second_user_reuses_the_server_and_the_last_one_stops_it(stub, state: Path) -> None:
    first = server(stub(), state).start()
    second = server(stub(), state).start()
    try:
        assert second.reused and second.pid == first.pid and second.port == first.port
        first.stop()
        assert pid_alive(second.pid), "still in use by the second"
        assert http_json(f"{second.root_url}/health") == {"status": "ok"}
    finally:
        pid = second.pid
        second.stop()
        first.stop()
    assert wait_gone(pid, 0.1)


def test_other_settings_get_their_own_server_on_another_port(stub, state: Path) -> None:
    first = server(stub(), state).start()
    other = server(stub(), state, context_size=2048).start()
    try:
        assert not other.reused and other.port != first.port and other.pid != first.pid
    finally:
        pids = [first.pid, other.pid]
        first.stop()
        other.stop()
    assert all(wait_gone(pid, 0.1) for pid in pids)


def test_an_unhealthy_or_stale_state_is_not_reused(stub, state: Path) -> None:
    local = server(stub(), state)
    state.mkdir(parents=True)
    # A live pid (ours) at a port where nothing answers: start a new server instead.
    local.state_file.write_text(
        json.dumps({"pid": os.getpid(), "port": 9, "key": local.key, "instance": str(state / "x")})
    )
    local.start()
    try:
        assert not local.reused and local.pid != os.getpid()
    finally:
        local.stop()
    assert pid_alive(os.getpid())  # it never touched a process it did not start


def test_readiness_timeout_stops_the_server(stub, state: Path) -> None:
    local = server(stub(delay=60), state, ready_timeout_s=1.0)
    started = time.monotonic()
    with pytest.raises(ServerError, match="did not become ready within 1 s"):
        local.start()
    assert time.monotonic() - started < 10
    assert local.pid is None and not local.state_file.exists()
    assert _stub_processes(state) == []


def test_a_server_that_exits_while_starting_is_reported(stub, state: Path) -> None:
    local = server(stub(mode="crash"), state)
    with pytest.raises(ServerError, match="failed to load model"):
        local.start()
    assert local.pid is None and _stub_processes(state) == []
    assert "failed to load model" in local.last_log.read_text()


DIES = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
from agent.llm.local.server_manager import LocalServer
from agent.llm.local.settings import LOCAL_MODEL, LOCAL_SETTINGS
command = {command!r}
local = LocalServer(Path("/x"), LOCAL_MODEL, LOCAL_SETTINGS,
                    command=lambda l: [a.format(**l.__dict__) for a in command],
                    directory=Path({state!r})).start()
print(local.pid, flush=True)
time.sleep(120)
"""


def test_the_server_ends_when_its_repl_is_killed(stub, state: Path, tmp_path: Path) -> None:
    """SIGKILL gives the REPL no chance to clean up: the server's lease watchdog does."""
    command = stub()(
        Launch(
            Path("/x"), "{alias}", 0, SETTINGS, Path("/l"), Path("/k"), Path("/s"), Path("/slots")
        )
    )
    template = [*command[:2], "{port}", "{alias}", "{leases}", "{lock}", "{state}", "0.2", "ok"]
    script = tmp_path / "repl.py"
    script.write_text(DIES.format(root=str(ROOT), command=template, state=str(state)))
    repl = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert repl.stdout is not None
        server_pid = int(repl.stdout.readline())
        assert pid_alive(server_pid)
    finally:
        os.kill(repl.pid, signal.SIGKILL)
        repl.wait()
    assert wait_gone(server_pid, 10.0), "the watchdog ended the orphaned server"
    assert not (state / f"server-{LOCAL_MODEL.sha256[:12]}.json").exists()


def _stub_processes(state: Path) -> list[int]:
    """Processes whose command line mentions this test's state folder (none should remain)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
            except OSError:
                continue
            if str(state) in cmdline and pid_alive(int(proc.name)):
                found.append(int(proc.name))
    return found


def test_ctrl_c_while_loading_leaves_nothing(stub, state: Path) -> None:
    local = server(stub(delay=60), state)

    def interrupt(_elapsed: float) -> None:
        raise KeyboardInterrupt

    local.on_wait = interrupt
    with pytest.raises(KeyboardInterrupt):
        local.start()
    assert local.pid is None and _stub_processes(state) == []


def test_runtime_starts_the_local_server_and_close_stops_it(
    stub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent.llm.local import launch
    from agent.runtime.single import RuntimeOptions, build_runtime

    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_STATE_HOME", str(xdg))
    monkeypatch.setattr("agent.llm.providers.load_env", lambda path=None: None)
    monkeypatch.setattr(launch, "unavailable_reason", lambda spec=LOCAL_MODEL: None)
    monkeypatch.setattr(launch, "prepare_model", lambda spec=LOCAL_MODEL, console=None: Path("/x"))
    monkeypatch.setattr(launch, "serve_command", stub())
    runtime = build_runtime(RuntimeOptions(save=False))
    try:
        provider = runtime.provider
        assert provider.is_local and provider.base_url.startswith("http://127.0.0.1:")
        assert "server pid" in provider.describe()
        assert runtime.agent.strategy.name == "window"
        assert len(_stub_processes(xdg)) == 1
    finally:
        runtime.close()
    assert _stub_processes(xdg) == []


def test_a_killed_server_is_restarted_and_the_turn_retried_once(
    stub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As an out-of-memory killer would: SIGKILL mid-session. The next message restarts the
    server, says so in one line, and is answered; nothing tells the user to start a server."""
    from agent.app.repl import run_supervised
    from agent.llm.local import launch
    from agent.runtime.single import RuntimeOptions, build_runtime

    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_STATE_HOME", str(xdg))
    monkeypatch.setattr("agent.llm.providers.load_env", lambda path=None: None)
    monkeypatch.setattr(launch, "unavailable_reason", lambda spec=LOCAL_MODEL: None)
    monkeypatch.setattr(launch, "prepare_model", lambda spec=LOCAL_MODEL, console=None: Path("/x"))
    monkeypatch.setattr(launch, "serve_command", stub())
    runtime = build_runtime(RuntimeOptions(save=False))
    notes: list[str] = []
    try:
        first = run_supervised(runtime, "hello", notify=notes.append)
        assert first.ok and first.reply is not None and notes == []
        old = runtime.local_server
        assert old is not None and old.alive()
        old_pid, old_url = old.pid, runtime.provider.base_url
        os.kill(old_pid, signal.SIGKILL)

        second = run_supervised(runtime, "hello again", notify=notes.append)
        assert second.ok and second.reply is not None and second.reply.text == "stub answer"
        assert len(notes) == 1 and "restarted" in notes[0]
        assert runtime.local_server is not None and runtime.local_server.pid != old_pid
        assert runtime.provider.base_url != old_url and runtime.local_server.alive()
        # The failed attempt was rolled back: two clean tasks, and the transcript says why.
        working = runtime.agent.session.working
        assert [m.text for m in working if m.kind == "user"] == ["hello", "hello again"]
        assert [m.kind for m in working] == ["user", "assistant", "user", "assistant"]
        kinds = [e.kind for e in runtime.agent.session.transcript.entries]
        assert kinds.count("error") == 1 and kinds.count("assistant") == 2
        # A server that is alive is left alone.
        assert runtime.revive_local_server() is None
    finally:
        runtime.close()
    assert _stub_processes(xdg) == []
