"""Record/replay OpenAI-compatible server for offline, deterministic LLM tests.

baml-py makes its HTTP calls from Rust, so Python-level interceptors (vcrpy, respx) never see
them. Instead, BAML is pointed at this local server, which speaks just enough of the OpenAI
chat-completions API and delegates each request to a *responder*:

- `ReplayResponder` serves completions recorded in a `Cassette`; a miss fails loudly.
- `RecordResponder` replays hits and forwards misses to a real endpoint, recording them.
- `ScriptedResponder` asks a Python function (a deterministic scripted LLM).
- `FaultyResponder` injects HTTP errors, delays and dropped connections for reliability tests.

Usage is counted with `agent.accounting.tokenizer`, so every mode reports stable, realistic token counts.
The server itself is stdlib only. Run it in a subprocess with
`python -m agent.llm.replay --cassette FILE`: baml-py's sync streaming against a server thread in
the same process stalls.
"""

from agent.llm.replay.cassette import Cassette, CassetteEntry, ReplayMiss, request_key
from agent.llm.replay.responders import (
    Fault,
    FaultyResponder,
    RecordResponder,
    ReplayResponder,
    Responder,
    ScriptedResponder,
)
from agent.llm.replay.server import ReplayServer, serve, start

__all__ = [
    "Cassette",
    "CassetteEntry",
    "Fault",
    "FaultyResponder",
    "RecordResponder",
    "ReplayMiss",
    "ReplayResponder",
    "ReplayServer",
    "Responder",
    "ScriptedResponder",
    "request_key",
    "serve",
    "start",
]
