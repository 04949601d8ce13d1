"""`window`, the embedded model's default, on a long scripted session: between folds every
MathChat prompt extends the one before (llama.cpp re-reads nothing it has read), folds are
rare, and what a fold shows is short (a CPU model re-reads it once, at ~35 ms a token)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from agent import wire
from agent.accounting.prompt_meter import meter
from agent.accounting.tokenizer import count_text
from agent.bench import runner
from agent.bench.catalog import SCENARIOS
from agent.bench.scenarios import DEFAULT_SEED

pytestmark = pytest.mark.timeout(300)
# What a fold may show beyond the fixed prompt: the ledger's lines, the person's statements,
# the functions and notes (o200k tokens).
POST_FOLD_TOKENS = 1100


def _requests(monkeypatch: pytest.MonkeyPatch, scenario: str) -> tuple[runner.RunResult, list]:
    sent: list[dict[str, Any]] = []
    serve = runner.serve

    @contextmanager
    def recording(responder: Any) -> Iterator[Any]:
        with serve(responder) as server:
            yield server
            sent.extend(server.requests)

    monkeypatch.setattr(runner, "serve", recording)
    result = runner.run_scenario(SCENARIOS[scenario](DEFAULT_SEED), "window")
    chats = [r["messages"] for r in sent if wire.function_of(r["messages"]) == "MathChat"]
    return result, chats


def test_between_folds_every_prompt_extends_the_one_before(monkeypatch: pytest.MonkeyPatch) -> None:
    result, chats = _requests(monkeypatch, "long-100")
    assert result.errors == [] and result.retention == 1.0
    breaks = [
        index
        for index, (earlier, later) in enumerate(itertools.pairwise(chats), 1)
        if later[: len(earlier)] != earlier
    ]
    # Only a fold changes what was sent before, and folds are rare: one per several tasks.
    assert 0 < len(breaks) <= result.compactions <= len(chats) // 15
    fixed = meter().system_text
    for index in breaks:
        system = chats[index][0]["content"]
        assert system.startswith(fixed)  # the fixed prompt stays cached too
        assert count_text(system[len(fixed) :]) <= POST_FOLD_TOKENS
