"""`python -m agent.llm.replay --cassette FILE`: serve a cassette in its own process."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from agent.llm.replay.cassette import Cassette
from agent.llm.replay.responders import RecordResponder, ReplayResponder, Responder
from agent.llm.replay.server import start


def main(argv: list[str] | None = None) -> int:
    """Serve a cassette until SIGTERM/SIGINT; the first stdout line is the base URL."""
    parser = argparse.ArgumentParser(
        prog="python -m agent.llm.replay", description="OpenAI-compatible record/replay server."
    )
    parser.add_argument("--cassette", required=True, type=Path, help="cassette JSON file")
    parser.add_argument("--port", type=int, default=0, help="port (0: pick a free one)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--record",
        metavar="UPSTREAM_BASE_URL",
        help="record misses from this OpenAI-compatible endpoint instead of failing",
    )
    parser.add_argument(
        "--api-key-env",
        default="MATH_AGENT_API_KEY",
        help="environment variable holding the upstream API key (keys never go on argv)",
    )
    parser.add_argument("--upstream-model", help="model to request upstream when recording")
    parser.add_argument(
        "--stream-delay-ms",
        type=float,
        default=0.0,
        help="pause between streamed pieces (a reply then grows as from a real model)",
    )
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="replay: %(message)s")
    cassette = Cassette.load(args.cassette)
    responder: Responder
    if args.record:
        api_key = os.environ.get(args.api_key_env, "")
        if not api_key:
            parser.error(f"--record needs the API key in ${args.api_key_env}")
        responder = RecordResponder(cassette, args.record, api_key, args.upstream_model)
    else:
        responder = ReplayResponder(cassette)

    stop_requested = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop_requested.set())
    server = start(
        responder, host=args.host, port=args.port, stream_piece_delay_s=args.stream_delay_ms / 1000
    )
    print(server.base_url, flush=True)
    try:
        while not stop_requested.wait(0.2):
            pass
    finally:
        server.stop()
    print(
        f"replay: served {len(server.requests)} request(s), {len(server.misses)} miss(es)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
