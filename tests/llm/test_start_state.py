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
from agent.llm.local.start_state import STATE_FILE, ConversationStart, StartStateError
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
    assert state.log[2][1] == {"filename": STATE_FILE}
    assert state.slot == SYSTEM_ONLY["messages"]  # the conversation's prompt is gone


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
        local_server=SimpleNamespace(root_url=url), agent=SimpleNamespace(model=model)
    )


def test_the_eval_restores_the_start_with_mathchats_own_prompt(
    fake: tuple[FakeSlotServer, str],
) -> None:
    state, url = fake
    reset = SlotReset(_runtime(url), Console(file=None, quiet=True))  # type: ignore[arg-type]
    reset()
    reset()
    saved = state.files[STATE_FILE]
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
