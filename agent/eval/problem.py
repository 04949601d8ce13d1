"""A drawn question of the `problems` set, with the tool calls that answer it.

Why the calls are kept beside the question: the expected answer is computed with SymPy when
the set is generated, and a test replays these calls on this repo's own tools (`tools.api`)
to show that the tools give that answer for the same math. The calls never reach the cases
(`EvalCase`) nor the committed files: the agent must find them itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agent.eval.cases import Expected

# Which of the last call's values answers the question: all of them (roots, a value), the
# largest (a landing time) or the smallest (the first time a height is reached).
Pick = Literal["all", "largest", "smallest"]
Argument = str | int | None


@dataclass(frozen=True)
class ToolStep:
    """One call of a function of `tools.api`; a text argument may hold `{previous}`, the value
    the step before returned (a derivative, then its value at a point)."""

    tool: str
    arguments: dict[str, Argument] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    key: str  # the wording key of its template (`projectile-landing`, `factor`...)
    text: str
    expected: Expected
    steps: tuple[ToolStep, ...]
    pick: Pick = "all"


def call(tool: str, **arguments: Argument) -> ToolStep:
    return ToolStep(tool, dict(arguments))
