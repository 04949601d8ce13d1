"""One eval turn's outcome for offline tests of the report and its checks."""

from __future__ import annotations

import dataclasses

from agent.eval.runner import TurnOutcome

_DEFAULT = TurnOutcome(
    set="sessions",
    case="c0",
    category="chain",
    wording="chat",
    strategy="window",
    turn=1,
    text="",
    judged=True,
    depends=False,
    ok=True,
    why="",
    reply="",
    asked_back=False,
    error=None,
    tool_steps=1,
    llm_calls=1,
    repairs=0,
    seconds=1.0,
    input_tokens=10,
    output_tokens=5,
    tool_error_shown=False,
    invalid_reply_shown=False,
)


def turn_outcome(**fields: object) -> TurnOutcome:
    """A judged turn, right, with `fields` changed."""
    return dataclasses.replace(_DEFAULT, **fields)  # type: ignore[arg-type]
