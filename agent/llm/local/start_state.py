"""One saved state of the embedded server's slot: MathChat's fixed prompt, already read.

Two uses. A new REPL on a freshly started server `warm`s the slot with it, so the person's
first message does not wait for the fixed prompt to be read (about 45 s on two cores): the
state is restored from disk when an earlier run saved it, else made in the background while
the person types. And before each eval conversation the slot is `restore`d to it:
llama.cpp reuses the slot's cached prompt up to its common prefix with the next prompt, and
where that prefix ends depends on the conversation before; evaluating from another position
changes the arithmetic enough to flip a near tie at temperature 0, so restoring one state
makes a conversation's replies depend on that conversation alone.

The state is made by erasing the slot, evaluating MathChat's prompt with an empty history
from scratch (one token generated) and saving the slot to a file named by a digest of that
prompt and the server's settings, in the server's slot directory (`--slots`), which outlives
the server: a changed prompt gets a new file, and only the newest few are kept.
"""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

STATE_PREFIX = "start-"
KEPT_STATES = 3
SLOT = 0
TIMEOUT_S = 600.0  # the first evaluation of the whole system prompt on two cores


class StartStateError(Exception):
    """The server could not save or restore its slot (an older server, no --slots)."""


def post_json(url: str, body: dict[str, object]) -> dict[str, object]:
    """POST `body` to the embedded server; its JSON answer (a failure: StartStateError)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            answer = json.loads(response.read() or b"{}")
    except (OSError, ValueError) as exc:
        detail = (
            exc.read().decode(errors="replace")[:200]
            if isinstance(exc, urllib.error.HTTPError)
            else exc
        )
        raise StartStateError(f"{url}: {detail}") from exc
    return answer if isinstance(answer, dict) else {}


class ConversationStart:
    """The slot's saved start: MathChat's prompt with an empty history, already evaluated.

    `root_url` is the server's address without /v1; `prompt_body` renders the chat request
    of MathChat with an empty history (what every conversation's first request begins with);
    `directory` is the server's slot directory, where earlier runs' states are found; `key`
    says what else the state depends on (the model and the server's settings).
    """

    def __init__(
        self,
        root_url: str,
        prompt_body: Callable[[], dict[str, object]],
        directory: Path | None = None,
        key: str = "",
        slot: int = SLOT,
    ) -> None:
        self.root_url = root_url.rstrip("/")
        self.prompt_body = prompt_body
        self.directory = directory
        self.key = key
        self.slot = slot
        self.saved = False

    def _slot(self, action: str, body: dict[str, object] | None = None) -> None:
        post_json(f"{self.root_url}/slots/{self.slot}?action={action}", body or {})

    def filename(self) -> str:
        """`start-<digest>.bin`: the digest of the prompt and `key`."""
        text = json.dumps(self.prompt_body(), sort_keys=True) + self.key
        return f"{STATE_PREFIX}{hashlib.sha256(text.encode()).hexdigest()[:16]}.bin"

    def prepare(self) -> None:
        """Evaluate the system prompt from an empty slot and save the result."""
        self._slot("erase")
        body = {**self.prompt_body(), "max_tokens": 1, "stream": False, "cache_prompt": True}
        body["id_slot"] = self.slot
        body.pop("stream_options", None)
        post_json(f"{self.root_url}/v1/chat/completions", body)
        self._slot("save", {"filename": self.filename()})
        self.saved = True
        self._prune()

    def _on_disk(self) -> bool:
        return self.directory is not None and (self.directory / self.filename()).is_file()

    def warm(self) -> None:
        """The slot holds the saved start: restored from an earlier run's file, else made
        (and saved for the next run)."""
        if self._on_disk():
            try:
                self._slot("restore", {"filename": self.filename()})
                self.saved = True
                return
            except StartStateError:
                pass  # a file another build cannot read: made again below
        self.prepare()

    def on_slot(self, slot: int) -> ConversationStart:
        """The same start, for another of the server's slots."""
        return ConversationStart(self.root_url, self.prompt_body, self.directory, self.key, slot)

    def restore(self) -> None:
        """Before a conversation: the slot holds the saved start again (made on first use)."""
        if not self.saved:
            self.warm()
        self._slot("restore", {"filename": self.filename()})

    def _prune(self) -> None:
        """Only the newest few states stay (each is tens of megabytes)."""
        if self.directory is None:
            return
        states = sorted(
            self.directory.glob(f"{STATE_PREFIX}*.bin"),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        for old in states[KEPT_STATES:]:
            old.unlink(missing_ok=True)
