"""What decoding under the reply grammar costs per token on the embedded model.

Run: `python -m agent.bench.grammar_cost`. The same prompt (a first request of a chat) is
answered three times free and three times under llama.cpp's grammar for the reply schema,
alternately, with the prompt cached; llama.cpp's own timings give milliseconds per decoded
token. Why: the embedded model decodes under the grammar only when it is asked again for a
tool call, and this says what holding every reply to it would cost.
"""

from __future__ import annotations

import statistics
from dataclasses import replace
from typing import Any

from agent.llm.local.launch import start_server
from agent.llm.local.start_state import post_json
from agent.llm.model import BamlMathModel
from agent.llm.providers import resolve_provider
from agent.llm.step_schema import local_grammar
from baml_client.types import ChatMessage

REQUEST = (
    "solve x^2 - 4x + 1 = 0\n"
    "Workspace: #1 equation (you; equations[1]; quadratic): x^2 - 4*x + 1 = 0"
)
ROUNDS = 3


def _decoding(base_url: str, body: dict[str, Any]) -> tuple[int, float]:
    """Tokens decoded for one reply and the milliseconds llama.cpp spent on them."""
    timings = post_json(base_url + "/chat/completions", body).get("timings")
    if not isinstance(timings, dict):
        return 0, 0.0
    return int(timings.get("predicted_n", 0)), float(timings.get("predicted_ms", 0.0))


def main() -> None:
    server = start_server()
    try:
        provider = replace(resolve_provider(provider="local"), base_url=server.base_url)
        model = BamlMathModel.for_provider(provider)
        body = model.request_body([ChatMessage(role="user", content=REQUEST)])
        body.pop("stream_options", None)
        body.update(stream=False, cache_prompt=True, max_tokens=40)
        _decoding(server.base_url, body)  # the prompt into the cache
        per_token: dict[str, list[float]] = {"free": [], "grammar": []}
        for _ in range(ROUNDS):
            for kind, extra in (("free", {}), ("grammar", {"grammar": local_grammar("any")})):
                decoded, ms = _decoding(server.base_url, {**body, **extra})
                if decoded:
                    per_token[kind].append(ms / decoded)
        for kind, values in per_token.items():
            print(
                f"{kind}: {statistics.median(values):.1f} ms per decoded token ({ROUNDS} replies)"
            )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
