"""Figures of an evaluation run, and whether they meet the targets.

One `SetFigures` per set and strategy: accuracy (SymPy-judged), the share of replies that
did not parse, tool steps per task, seconds per turn (median, p90), tokens per turn, and the
two failures a person must never see; over several seeds, each set's median and spread. Targets
(issue 27): reference all right, single ≥ 97%,
sessions ≥ 93% of the turns that depend on earlier results with the default strategy, and no
strategy more than 5 points below `none` there.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field

from agent.eval.runner import TurnOutcome

SINGLE_TARGET = 0.97
SESSIONS_TARGET = 0.93
# How far below `none` (in points of dependent-turn accuracy) another strategy may fall.
STRATEGY_MARGIN = 0.05


@dataclass(frozen=True)
class SetFigures:
    set: str
    strategy: str
    cases: int
    turns: int
    judged: int
    right: int
    dependent: int
    dependent_right: int
    parse_failure_share: float
    tool_steps_per_turn: float
    seconds_median: float
    seconds_p90: float
    input_tokens_per_turn: float
    output_tokens_per_turn: float
    invalid_replies_shown: int
    tool_errors_shown: int
    wrong_by_category: dict[str, int] = field(default_factory=dict)
    # What a person experiences with the runner-up (`agent.calls.runner_up`): right at the
    # first answer or after one pick; wrong with nothing offered; an offer under a right answer.
    right_after_pick: int = 0
    dependent_right_after_pick: int = 0
    silent_misses: int = 0
    dependent_silent_misses: int = 0
    offered_when_right: int = 0

    @property
    def accuracy(self) -> float:
        return self.right / self.judged if self.judged else 0.0

    @property
    def dependent_accuracy(self) -> float:
        return self.dependent_right / self.dependent if self.dependent else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            **asdict(self),
            "accuracy": round(self.accuracy, 4),
            "dependent_accuracy": round(self.dependent_accuracy, 4),
        }


def figures(outcomes: Sequence[TurnOutcome]) -> list[SetFigures]:
    """One row per (set, strategy), in the order they were played."""
    groups: dict[tuple[str, str], list[TurnOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault((outcome.set, outcome.strategy), []).append(outcome)
    return [_figures(set_name, strategy, rows) for (set_name, strategy), rows in groups.items()]


def _figures(set_name: str, strategy: str, rows: list[TurnOutcome]) -> SetFigures:
    judged = [r for r in rows if r.judged]
    dependent = [r for r in judged if r.depends]
    calls = sum(r.llm_calls for r in rows)
    failed_parses = sum(r.repairs + int(r.invalid_reply_shown) for r in rows)
    seconds = sorted(r.seconds for r in rows)
    return SetFigures(
        set=set_name,
        strategy=strategy,
        cases=len({r.case for r in rows}),
        turns=len(rows),
        judged=len(judged),
        right=sum(r.ok for r in judged),
        dependent=len(dependent),
        dependent_right=sum(r.ok for r in dependent),
        parse_failure_share=failed_parses / calls if calls else 0.0,
        tool_steps_per_turn=statistics.fmean(r.tool_steps for r in rows) if rows else 0.0,
        seconds_median=statistics.median(seconds) if seconds else 0.0,
        seconds_p90=_percentile(seconds, 0.9),
        input_tokens_per_turn=statistics.fmean(r.input_tokens for r in rows) if rows else 0.0,
        output_tokens_per_turn=statistics.fmean(r.output_tokens for r in rows) if rows else 0.0,
        invalid_replies_shown=sum(r.invalid_reply_shown for r in rows),
        tool_errors_shown=sum(r.tool_error_shown for r in rows),
        wrong_by_category=dict(Counter(r.category for r in judged if not r.ok)),
        right_after_pick=sum(r.right_after_pick for r in judged),
        dependent_right_after_pick=sum(r.right_after_pick for r in dependent),
        silent_misses=sum(r.silent_miss for r in judged),
        dependent_silent_misses=sum(r.silent_miss for r in dependent),
        offered_when_right=sum(r.offered for r in judged if r.ok),
    )


def _percentile(ordered: list[float], share: float) -> float:
    """Nearest-rank percentile of sorted values (0 for none)."""
    if not ordered:
        return 0.0
    rank = max(1, min(len(ordered), round(share * len(ordered) + 0.5)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class SeedSpread:
    """How one set and strategy scored across seeds: median and min-max of the accuracies."""

    set: str
    strategy: str
    seeds: tuple[int, ...]
    accuracies: tuple[float, ...]
    # Only seeds whose cases had dependent turns.
    dependent_accuracies: tuple[float, ...] = ()

    @property
    def median(self) -> float:
        return statistics.median(self.accuracies)

    @property
    def spread(self) -> tuple[float, float]:
        return min(self.accuracies), max(self.accuracies)

    @property
    def dependent_median(self) -> float | None:
        return statistics.median(self.dependent_accuracies) if self.dependent_accuracies else None

    @property
    def dependent_spread(self) -> tuple[float, float] | None:
        values = self.dependent_accuracies
        return (min(values), max(values)) if values else None

    def to_dict(self) -> dict[str, object]:
        return {
            **asdict(self),
            "median": round(self.median, 4),
            "spread": [round(v, 4) for v in self.spread],
            "dependent_median": _rounded(self.dependent_median),
            "dependent_spread": [round(v, 4) for v in self.dependent_spread or ()] or None,
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def spread(per_seed: Mapping[int, Sequence[SetFigures]]) -> list[SeedSpread]:
    """One row per (set, strategy) over the seeds that played it, in first-played order."""
    rows: dict[tuple[str, str], list[tuple[int, SetFigures]]] = {}
    for seed, figures_of_seed in per_seed.items():
        for row in figures_of_seed:
            rows.setdefault((row.set, row.strategy), []).append((seed, row))
    return [
        SeedSpread(
            set=set_name,
            strategy=strategy,
            seeds=tuple(seed for seed, _ in played),
            accuracies=tuple(row.accuracy for _, row in played),
            dependent_accuracies=tuple(
                row.dependent_accuracy for _, row in played if row.dependent
            ),
        )
        for (set_name, strategy), played in rows.items()
    ]


@dataclass(frozen=True)
class TargetCheck:
    name: str
    met: bool
    detail: str


def check_targets(rows: Sequence[SetFigures], default_strategy: str) -> list[TargetCheck]:
    """The targets that apply to what was run (a set not run has no check)."""
    checks = []
    for row in rows:
        if row.set == "reference" and row.strategy == default_strategy:
            checks.append(
                TargetCheck(
                    "reference: every answer right",
                    row.right == row.judged,
                    f"{row.right}/{row.judged}",
                )
            )
        if row.set == "single" and row.strategy == default_strategy:
            checks.append(
                TargetCheck(
                    f"single: >= {SINGLE_TARGET:.0%} right",
                    row.accuracy >= SINGLE_TARGET,
                    f"{row.right}/{row.judged} = {row.accuracy:.1%}",
                )
            )
    sessions = {row.strategy: row for row in rows if row.set == "sessions"}
    if default_strategy in sessions:
        row = sessions[default_strategy]
        checks.append(
            TargetCheck(
                f"sessions ({default_strategy}): >= {SESSIONS_TARGET:.0%} of dependent turns",
                row.dependent_accuracy >= SESSIONS_TARGET,
                f"{row.dependent_right}/{row.dependent} = {row.dependent_accuracy:.1%}",
            )
        )
    if "none" in sessions:
        floor = sessions["none"].dependent_accuracy - STRATEGY_MARGIN
        for strategy, row in sessions.items():
            if strategy == "none":
                continue
            checks.append(
                TargetCheck(
                    f"sessions ({strategy}): within {STRATEGY_MARGIN * 100:.0f} points of none",
                    row.dependent_accuracy >= floor,
                    f"{row.dependent_accuracy:.1%} vs none "
                    f"{sessions['none'].dependent_accuracy:.1%}",
                )
            )
    shown = sum(r.invalid_replies_shown + r.tool_errors_shown for r in rows)
    checks.append(
        TargetCheck(
            "no invalid-reply or raw tool-error text shown as an answer",
            shown == 0,
            f"{sum(r.invalid_replies_shown for r in rows)} invalid, "
            f"{sum(r.tool_errors_shown for r in rows)} tool errors",
        )
    )
    return checks


# What CI's subset (`math-agent eval --subset ci`: reference, 2 questions per category of the
# single test part and its first 2 sessions, seed 1) must keep on the embedded model, with
# the default strategy. Measured at e3f26ca on 2026-11-25, one run (docs/eval.md): single
# 21/26 on the subset (36/41 on the whole test part), sessions 3/13 dependent turns on
# the subset (19/56 on the whole test part), reference
# 4/5 and 3/5 in two runs of the live conversation. Greedy decoding still varies between
# runs, so each floor sits one or two answers under its figure: a change that makes the model
# answer worse fails CI, the noise of one run does not.
CI_FLOORS = {"reference": 0.6, "single": 0.73, "sessions": 0.15}
# Unreadable answers ("not a valid tool call", a tool's raw error) allowed in one CI run:
# 1 was shown in the 41 turns of the single test part (seed 1); the product target is 0.
CI_MAX_SHOWN_FAILURES = 2


def check_floors(
    rows: Sequence[SetFigures],
    default_strategy: str,
    floors: dict[str, float] = CI_FLOORS,
    max_shown: int = CI_MAX_SHOWN_FAILURES,
) -> list[TargetCheck]:
    """CI's gate: each floored set played with the default strategy and at or above its
    floor (dependent turns for sessions), and at most `max_shown` unreadable answers."""
    checks = []
    for row in rows:
        if row.strategy != default_strategy or row.set not in floors:
            continue
        share = row.dependent_accuracy if row.set == "sessions" else row.accuracy
        checks.append(
            TargetCheck(
                f"CI floor {row.set}: >= {floors[row.set]:.0%}",
                share >= floors[row.set],
                f"{share:.1%}",
            )
        )
    played = {row.set for row in rows if row.strategy == default_strategy}
    checks += [
        TargetCheck(f"CI floor {name}: played", False, "not in the report")
        for name in floors
        if name not in played
    ]
    shown = sum(r.invalid_replies_shown + r.tool_errors_shown for r in rows)
    checks.append(
        TargetCheck(
            f"CI: at most {max_shown} invalid-reply or raw tool-error texts shown",
            shown <= max_shown,
            f"{sum(r.invalid_replies_shown for r in rows)} invalid, "
            f"{sum(r.tool_errors_shown for r in rows)} tool errors",
        )
    )
    return checks
