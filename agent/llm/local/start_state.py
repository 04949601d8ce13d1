"""One saved state of the embedded server's slot, put back before each eval conversation.

llama.cpp reuses the slot's cached prompt up to its common prefix with the next prompt and
evaluates the rest. Where that reused prefix ends depends on the conversation before
(how far its first message shares words with this one), and evaluating from another
position changes the arithmetic enough to flip a near tie at temperature 0: the same case
then gets other calls in two runs, and a change in one conversation moves unrelated ones
after it. Restoring one state that holds exactly the system prompt before every
conversation makes a conversation's replies depend on that conversation alone.

The state is made once per server: the slot is erased, MathChat's prompt with an empty
history is evaluated from scratch (one token generated), and the slot is saved to a file in
the server's own directory (`--slots`, removed with the server).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable

STATE_FILE = "conversation-start.bin"
SLOT = 0
TIMEOUT_S = 600.0  # the first evaluation of the whole system prompt on two cores


class StartStateError(Exception):
    """The server could not save or restore its slot (an older server, no --slots)."""


def _post(url: str, body: dict[str, object]) -> dict[str, object]:
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
    """Puts the slot back to the saved start before a conversation.

    `root_url` is the server's address without /v1; `prompt_body` renders the chat request
    of MathChat with an empty history (what every conversation's first request begins with).
    """

    def __init__(self, root_url: str, prompt_body: Callable[[], dict[str, object]]) -> None:
        self.root_url = root_url.rstrip("/")
        self.prompt_body = prompt_body
        self.saved = False

    def _slot(self, action: str, body: dict[str, object] | None = None) -> None:
        _post(f"{self.root_url}/slots/{SLOT}?action={action}", body or {})

    def prepare(self) -> None:
        """Evaluate the system prompt from an empty slot and save the result."""
        self._slot("erase")
        body = {**self.prompt_body(), "max_tokens": 1, "stream": False, "cache_prompt": True}
        body.pop("stream_options", None)
        _post(f"{self.root_url}/v1/chat/completions", body)
        self._slot("save", {"filename": STATE_FILE})
        self.saved = True

    def restore(self) -> None:
        """Before a conversation: the slot holds the saved start again (made on first use)."""
        if not self.saved:
            self.prepare()
        self._slot("restore", {"filename": STATE_FILE})
