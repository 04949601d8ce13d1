"""Token probabilities read from an endpoint's response: a whole body or a stream's chunks."""

from __future__ import annotations

import math

import pytest

from agent.llm.token_choices import choices_from_chunks, reply_text


def _entry(token: str, logprob: float, *others: tuple[str, float]) -> dict[str, object]:
    tops = [{"token": token, "logprob": logprob}]
    tops += [{"token": t, "logprob": lp} for t, lp in others]
    return {"token": token, "logprob": logprob, "top_logprobs": tops}


def _chunk(*entries: dict[str, object]) -> dict[str, object]:
    return {"choices": [{"index": 0, "delta": {}, "logprobs": {"content": list(entries)}}]}


def test_a_stream_s_chunks_give_each_token_its_place_share_and_alternatives() -> None:
    chunks = [
        _chunk(_entry('{"tool": "', -0.01)),
        _chunk(_entry("solve", math.log(0.6), ("ext", math.log(0.3)), ("der", math.log(0.05)))),
        {"choices": [{"index": 0, "delta": {}}]},  # a chunk without probabilities
        _chunk(_entry('"}', 0.0)),
        {"choices": [], "usage": {"prompt_tokens": 10}},  # the usage chunk at the end
    ]
    choices = choices_from_chunks(chunks)
    assert reply_text(choices) == '{"tool": "solve"}'
    solve = choices[1]
    assert (solve.start, solve.end, solve.token) == (10, 15, "solve")
    assert solve.share == pytest.approx(0.6)
    # The written token is not among its own alternatives.
    assert [t for t, _ in solve.others] == ["ext", "der"]
    assert solve.others[0][1] == pytest.approx(0.3)


def test_a_body_without_probabilities_gives_none() -> None:
    assert choices_from_chunks([{"choices": [{"index": 0, "message": {"content": "{}"}}]}]) == ()
    assert choices_from_chunks([]) == ()
