"""What a referring request points at, for the scripted model that points
(`agent.bench.pointing`, `agent.bench.responder`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pointer:
    """One id a referring call points at, as the model finds it in what it was shown: in the
    earlier task asked as `question`, the person's own math (`result` None) or the result at
    that index among the task's results; `label` and `math` (texts as the scenario writes
    them) tell its item line apart (`#21 roots of #20 ...: x = -5, x = -1`)."""

    question: str
    result: int | None
    label: str
    math: tuple[str, ...]


@dataclass(frozen=True)
class Reference:
    """How a referring request is answered by a model that points: `call` with `@0`, `@1`
    where the ids of `pointers` go, when it finds them in the prompt; else the turn's first
    reply (the math restated) when the math is in view; else a `recall` of `query` (what the
    request itself gives: a task's number, a kind, a topic, the math the person said), then
    the call with what it brought back."""

    pointers: tuple[Pointer, ...]
    call: str
    query: str

    @property
    def by_task(self) -> bool:
        """Did the person name the task by its number or place ("task 12", "three questions
        ago", "the first one")? Then only the task's own line tells which items it made."""
        return self.query.startswith("task ")
