"""A saved run judged again by today's judge.

Why: a fix of the judge (a reply that restates the request's numbers is no answer) changes
verdicts of runs made before it. Their replies are saved with `--out`, so the figures of the
fixed judge need no model: the cases are drawn again from the run's part and seeds, each
turn is checked to be the one that was played, and its reply is judged again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from agent.eval.cases import PARTED_SETS, EvalCase
from agent.eval.generate import make_cases
from agent.eval.judge import judge
from agent.eval.runner import TurnOutcome

_FIELDS = {f.name for f in dataclasses.fields(TurnOutcome)}


class RunMismatch(ValueError):
    """The saved run's turns are not the cases drawn today (the sets changed since)."""


def rejudged(saved: dict[str, Any]) -> list[TurnOutcome]:
    """The saved run's turns, each judged again; raises RunMismatch when a turn's text is
    not the text of the case drawn again."""
    rows = saved.get("turns") or []
    cases = _cases({row["set"] for row in rows}, saved.get("part"), saved.get("seeds") or [])
    outcomes = []
    for row in rows:
        case = cases.get((row["set"], row["case"]))
        index = int(row["turn"]) - 1
        if case is None or not 0 <= index < len(case.turns):
            raise RunMismatch(f"{row['case']} turn {row['turn']} is not among today's cases.")
        turn = case.turns[index]
        if turn.text != row["text"]:
            raise RunMismatch(f"{row['case']} turn {row['turn']} reads differently today.")
        fields = {k: v for k, v in row.items() if k in _FIELDS}
        fields["calls"] = tuple(fields.get("calls") or ())
        if turn.expected is not None:
            verdict = judge(row["reply"], bool(row["asked_back"]), turn.expected, turn.text)
            fields.update(ok=verdict.ok, why=verdict.why)
        outcomes.append(TurnOutcome(**fields))
    return outcomes


def _cases(
    set_names: Iterable[str], part: str | None, seeds: list[int]
) -> dict[tuple[str, str], EvalCase]:
    cases: dict[tuple[str, str], EvalCase] = {}
    for seed in seeds:
        for set_name in set_names:
            drawn = make_cases(set_name, part if set_name in PARTED_SETS else None, seed)
            cases.update({(set_name, case.name): case for case in drawn})
    return cases
