"""The saved conversation start of the embedded server's slot, against a fake llama.cpp slot
API on 127.0.0.1 (agent.llm.local.start_state and the eval's SlotReset)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

from agent.app.evaluate import SlotReset
from agent.llm.local.server_process import slot_save_path
from agent.llm.local.start_state import KEPT_STATES, ConversationStart, StartStateError
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider


@dataclass
class FakeSlotServer:
    """llama.cpp's slot semantics, reduced: the slot holds the last prompt; save/restore copy
    it to and from a named file; `refuse` answers save and restore as a server started
    without a slot directory does."""

    refuse: bool = False
    slot: Any = None
    files: dict[str, Any] = field(default_factory=dict)
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def handle(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.log.append((path, body))
        if path == "/v1/chat/completions":
            self.slot = body["messages"]
            return 200, {"choices": [{"message": {"role": "assistant", "content": "{"}}]}
        action = path.partition("action=")[2]
        if action == "erase":
            self.slot = None
            return 200, {}
        if self.refuse:
            return 501, {"error": {"message": "This server does not support slots action."}}
        if action == "save":
            self.files[body["filename"]] = self.slot
        elif action == "restore":
            self.slot = self.files[body["filename"]]
        return 200, {}


@pytest.fixture
def fake() -> Iterator[tuple[FakeSlotServer, str]]:
    state = FakeSlotServer()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            status, answer = state.handle(self.path, body)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


SYSTEM_ONLY = {"model": "m", "messages": [{"role": "system", "content": "tools..."}]}


def test_the_start_is_made_once_from_an_empty_slot_then_restored_before_each_conversation(
    fake: tuple[FakeSlotServer, str],
) -> None:
    state, url = fake
    start = ConversationStart(url, lambda: dict(SYSTEM_ONLY, stream=True))
    start.restore()
    state.slot = [{"role": "user", "content": "a conversation that ran"}]
    start.restore()

    paths = [path for path, _ in state.log]
    assert paths == [
        "/slots/0?action=erase",
        "/v1/chat/completions",
        "/slots/0?action=save",
        "/slots/0?action=restore",
        "/slots/0?action=restore",
    ]
    completion = state.log[1][1]
    assert completion["max_tokens"] == 1 and completion["stream"] is False
    assert completion["messages"] == SYSTEM_ONLY["messages"]
    assert state.log[2][1] == {"filename": start.filename()}
    assert state.slot == SYSTEM_ONLY["messages"]  # the conversation's prompt is gone


def test_the_file_is_named_by_the_prompt_and_the_servers_settings() -> None:
    one = ConversationStart("http://x", lambda: SYSTEM_ONLY, key="sha:8192")
    assert (
        one.filename()
        == ConversationStart("http://y", lambda: SYSTEM_ONLY, key="sha:8192").filename()
    )
    assert (
        one.filename()
        != ConversationStart("http://x", lambda: SYSTEM_ONLY, key="sha:4096").filename()
    )
    changed = {"model": "m", "messages": [{"role": "system", "content": "other tools"}]}
    assert (
        one.filename() != ConversationStart("http://x", lambda: changed, key="sha:8192").filename()
    )
    assert one.filename().startswith("start-") and one.filename().endswith(".bin")


def test_warm_restores_an_earlier_runs_state_without_reading_the_prompt_again(
    fake: tuple[FakeSlotServer, str], tmp_path: Path
) -> None:
    state, url = fake
    start = ConversationStart(url, lambda: SYSTEM_ONLY, tmp_path, key="k")
    (tmp_path / start.filename()).write_bytes(b"state")  # what the server wrote last run
    state.files[start.filename()] = SYSTEM_ONLY["messages"]
    start.warm()
    assert [path for path, _ in state.log] == ["/slots/0?action=restore"]
    assert state.slot == SYSTEM_ONLY["messages"]


def test_warm_makes_and_saves_the_state_when_no_run_saved_it(
    fake: tuple[FakeSlotServer, str], tmp_path: Path
) -> None:
    state, url = fake
    ConversationStart(url, lambda: SYSTEM_ONLY, tmp_path, key="k").warm()
    assert [path for path, _ in state.log] == [
        "/slots/0?action=erase",
        "/v1/chat/completions",
        "/slots/0?action=save",
    ]


def test_only_the_newest_states_are_kept(fake: tuple[FakeSlotServer, str], tmp_path: Path) -> None:
    import os
    import time

    for n in range(KEPT_STATES + 2):
        old = tmp_path / f"start-{n:016d}.bin"
        old.write_bytes(b"old")
        os.utime(old, (time.time() - 100 + n, time.time() - 100 + n))
    _state, url = fake
    start = ConversationStart(url, lambda: SYSTEM_ONLY, tmp_path, key="k")
    (tmp_path / start.filename()).write_bytes(b"new")  # the fake server does not write files
    start.prepare()
    kept = sorted(p.name for p in tmp_path.glob("start-*.bin"))
    assert len(kept) == KEPT_STATES and start.filename() in kept


def test_a_server_without_a_slot_directory_is_one_clear_error(
    fake: tuple[FakeSlotServer, str],
) -> None:
    state, url = fake
    state.refuse = True
    with pytest.raises(StartStateError, match="does not support slots action"):
        ConversationStart(url, lambda: SYSTEM_ONLY).restore()


def _runtime(url: str) -> SimpleNamespace:
    provider = Provider("local", f"{url}/v1", "m", None, "test", small_model=True)
    model = BamlMathModel(provider.client_registry(), provider.base_url)
    return SimpleNamespace(
        local_server=SimpleNamespace(root_url=url, saved_states=None, key="k"),
        agent=SimpleNamespace(model=model),
    )


def test_the_eval_restores_the_start_with_mathchats_own_prompt(
    fake: tuple[FakeSlotServer, str],
) -> None:
    state, url = fake
    reset = SlotReset(_runtime(url), Console(file=None, quiet=True))  # type: ignore[arg-type]
    reset()
    reset()
    (saved,) = state.files.values()
    assert [m["role"] for m in saved] == ["system"]
    assert "Tools do all the math" in json.dumps(saved)
    assert [path for path, _ in state.log].count("/slots/0?action=restore") == 2
    assert reset.state == "from the saved start"


def test_the_eval_says_once_when_the_slot_cannot_be_saved_and_goes_on(
    fake: tuple[FakeSlotServer, str],
) -> None:
    state, url = fake
    state.refuse = True
    console = Console(record=True, width=200)
    reset = SlotReset(_runtime(url), console)  # type: ignore[arg-type]
    reset()
    reset()
    assert console.export_text().count("could not save its slot") == 1
    assert len(state.log) == 3  # erase, the prompt, the refused save; nothing after
    assert reset.state.startswith("after the previous conversation")


def test_no_embedded_server_means_nothing_to_restore() -> None:
    runtime = SimpleNamespace(local_server=None, agent=SimpleNamespace(model=None))
    reset = SlotReset(runtime, Console(quiet=True))  # type: ignore[arg-type]
    reset()
    assert reset.state == "not applicable (no embedded server)"


def test_saved_states_go_inside_the_slots_directory(tmp_path: Path) -> None:
    """llama.cpp appends the file name to the path as text: the separator must be there."""
    path = slot_save_path(tmp_path / "slots")
    assert Path(path + "conversation-start.bin").parent == tmp_path / "slots"
