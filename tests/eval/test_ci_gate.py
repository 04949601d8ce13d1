"""CI's eval gate, offline: a report under a floor fails it, one at or above passes.

The floors themselves (`CI_FLOORS`) are read, not repeated here: whoever sets them from new
measurements keeps this test. `.ci/run` must run the gate on the embedded model whatever the
environment holds (a key or a `.env` would otherwise send it to a hosted model).
"""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import pytest

from agent.eval.report import CI_FLOORS, CI_MAX_SHOWN_FAILURES, SetFigures, check_floors

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = "window"


def report(
    set_name: str,
    right: int,
    out_of: int = 100,
    strategy: str = DEFAULT,
    invalid_shown: int = 0,
) -> SetFigures:
    """A set's figures with `right` of `out_of` (all turns dependent for sessions)."""
    return SetFigures(
        set=set_name,
        strategy=strategy,
        cases=out_of,
        turns=out_of,
        judged=out_of,
        right=right,
        dependent=out_of if set_name == "sessions" else 0,
        dependent_right=right if set_name == "sessions" else 0,
        parse_failure_share=0.0,
        tool_steps_per_turn=1.0,
        seconds_median=1.0,
        seconds_p90=1.0,
        input_tokens_per_turn=1.0,
        output_tokens_per_turn=1.0,
        invalid_replies_shown=invalid_shown,
        tool_errors_shown=0,
    )


def lowest_passing(floor: float, out_of: int = 100) -> int:
    return math.ceil(floor * out_of - 1e-9)


def passes(rows: list[SetFigures]) -> bool:
    """What `math-agent eval --subset ci` exits 0 on (agent/app/evaluate.py)."""
    return all(check.met for check in check_floors(rows, DEFAULT))


def test_every_floor_is_checked_when_its_set_ran() -> None:
    rows = [report(name, lowest_passing(floor)) for name, floor in CI_FLOORS.items()]
    gated = [check.name for check in check_floors(rows, DEFAULT)]
    assert all(any(name in check for check in gated) for name in CI_FLOORS), gated
    assert passes(rows)


@pytest.mark.parametrize("set_name", sorted(CI_FLOORS))
def test_a_set_under_its_floor_fails_the_gate(set_name: str) -> None:
    at_floor = [report(name, lowest_passing(floor)) for name, floor in CI_FLOORS.items()]
    under = [
        report(name, lowest_passing(floor) - (1 if name == set_name else 0))
        for name, floor in CI_FLOORS.items()
    ]
    assert passes(at_floor)
    assert not passes(under)
    failed = [c for c in check_floors(under, DEFAULT) if not c.met]
    assert len(failed) == 1 and set_name in failed[0].name


def test_all_right_passes_and_only_the_default_strategy_is_gated() -> None:
    rows = [report(name, 100) for name in CI_FLOORS]
    other = report("sessions", 0, strategy="ledger")  # another strategy scoring nothing
    assert passes([*rows, other])


def test_invalid_replies_shown_past_the_allowance_fail_the_gate() -> None:
    rows = [report(name, 100) for name in CI_FLOORS]
    rows[0] = report(rows[0].set, 100, invalid_shown=CI_MAX_SHOWN_FAILURES)
    assert passes(rows)
    rows[0] = report(rows[0].set, 100, invalid_shown=CI_MAX_SHOWN_FAILURES + 1)
    assert not passes(rows)


def test_a_floored_set_missing_from_the_report_fails_the_gate() -> None:
    rows = [report(name, 100) for name in CI_FLOORS][1:]
    assert not passes(rows)


def test_ci_runs_the_eval_gate_on_the_embedded_model() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    evals = [
        shlex.split(line)
        for line in script.splitlines()
        if re.search(r"math-agent\s+eval\b", line) and not line.lstrip().startswith(("#", "echo"))
    ]
    assert evals, "no `math-agent eval` step in .ci/run"
    for argv in evals:
        assert "--subset" in argv and argv[argv.index("--subset") + 1] == "ci", argv
        assert "--provider" in argv and argv[argv.index("--provider") + 1] == "local", argv
