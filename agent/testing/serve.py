"""`python -m agent.testing.serve --script seed|tagged`: a scripted model in its own process.

An OpenAI-compatible server on 127.0.0.1 (the first stdout line is its base URL) that a
`math-agent serve` under test, the page's browser test or the load bench points
MATH_AGENT_BASE_URL at. Its own process because baml-py's sync streaming stalls against a
server thread in the same process. `--delay-ms` is the model's own time per reply (slept
outside the script's lock, so replies to different sessions overlap as a real server's do).
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from typing import Any

from agent.llm.replay import Fault, ScriptedResponder, start
from agent.testing.seed import SCRIPTS


class DelayedResponder:
    """A responder that takes `delay_s` before answering, like a model generating."""

    def __init__(self, inner: ScriptedResponder, delay_s: float) -> None:
        self.inner = inner
        self.delay_s = delay_s

    def respond(self, request_body: dict[str, Any]) -> str | Fault:
        if self.delay_s > 0:
            time.sleep(self.delay_s)
        return self.inner.respond(request_body)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.testing.serve")
    parser.add_argument("--script", choices=sorted(SCRIPTS), default="seed")
    parser.add_argument("--delay-ms", type=float, default=0.0, help="model time per reply")
    parser.add_argument("--stream-delay-ms", type=float, default=0.0)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    responder = DelayedResponder(ScriptedResponder(SCRIPTS[args.script]()), args.delay_ms / 1000)
    server = start(responder, port=args.port, stream_piece_delay_s=args.stream_delay_ms / 1000)
    print(server.base_url, flush=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    while not stop.wait(0.5):
        pass
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
