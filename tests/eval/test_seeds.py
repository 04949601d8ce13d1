"""`math-agent eval --part/--seed/--seeds`: what is played, and the figures across seeds."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import sympy

from agent.app.evaluate import make_plans, parse_args, seeds_of, unmatched_cases
from agent.eval.cases import CI_SETS, DATA_DIR, load_file
from agent.eval.report import figures, spread
from agent.eval.runner import TurnOutcome
from tests.support.outcomes import turn_outcome


def test_the_part_and_seed_default_to_test_and_1() -> None:
    args = parse_args([])
    assert (args.part, args.seed, args.seeds) == ("test", 1, None)
    args = parse_args(["--set", "sessions", "--part", "dev", "--seed", "7"])
    assert (args.set, args.part, args.seed) == (["sessions"], "dev", 7)
    assert parse_args(["--seeds", "1,2,3"]).seeds == [1, 2, 3]


@pytest.mark.parametrize(
    "argv",
    [
        ["--part", "all"],
        ["--seeds", "1,x"],
        ["--seeds", "1,1"],
        ["--seed", "1", "--seeds", "2,3"],
        ["--subset", "ci", "--part", "dev"],
        ["--subset", "ci", "--seeds", "1,2"],
    ],
)
def test_bad_part_and_seed_flags_are_refused(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(argv)


def test_plans_draw_each_seed_of_the_part_and_the_reference_once() -> None:
    args = parse_args(["--set", "reference", "--set", "single", "--seeds", "2,3", "--limit", "2"])
    plans = make_plans(args, "window")
    assert [(p.set_name, p.seed, p.part) for p in plans] == [
        ("reference", 2, None),
        ("single", 2, "test"),
        ("single", 3, "test"),
    ]
    assert [c.name for c in plans[1].cases] == ["single-test-2-000", "single-test-2-001"]
    assert plans[1].cases != plans[2].cases
    assert seeds_of(args) == [2, 3]


def test_the_ci_subset_is_the_test_part_of_seed_1() -> None:
    args = parse_args(["--subset", "ci", "--set", "sessions", "--strategy", "window"])
    (plan,) = make_plans(args, "window")
    assert (plan.part, plan.seed, plan.strategies) == ("test", 1, ["window"])
    assert 1 <= len(plan.cases) <= 3
    assert all(c.name.startswith("sessions-test-1-") for c in plan.cases)


def test_problems_are_played_for_a_part_and_seed_but_not_by_the_ci_subset() -> None:
    args = parse_args(["--set", "problems", "--part", "dev", "--seed", "4", "--limit", "3"])
    (plan,) = make_plans(args, "window")
    assert (plan.set_name, plan.part, plan.seed, plan.strategies) == (
        "problems",
        "dev",
        4,
        ["window"],
    )
    assert [c.name for c in plan.cases] == [f"problems-dev-4-{i:03d}" for i in range(3)]
    everything = make_plans(parse_args(["--limit", "1"]), "window")
    assert "problems" in {p.set_name for p in everything}
    ci = make_plans(parse_args(["--subset", "ci", "--limit", "1"]), "window")
    assert [p.set_name for p in ci] == list(CI_SETS)


def test_named_cases_alone_are_played() -> None:
    args = parse_args(
        ["--set", "sessions", "--set", "single", "--part", "dev", "--case", "sessions-dev-1-06"]
    )
    (plan,) = make_plans(args, "window")
    assert [c.name for c in plan.cases] == ["sessions-dev-1-06"]
    assert unmatched_cases(args, [plan]) == []
    typo = parse_args(["--part", "dev", "--case", "sessions-dev-1-06", "--case", "single-dev-9"])
    assert unmatched_cases(typo, make_plans(typo, "window")) == ["single-dev-9"]


def _outcome(set_name: str, strategy: str, case: str, ok: bool, depends: bool) -> TurnOutcome:
    return turn_outcome(set=set_name, strategy=strategy, case=case, ok=ok, depends=depends)


def _seed(right: int, of: int, dependent_right: int, dependent: int) -> list[TurnOutcome]:
    """`of` sessions turns, `dependent` of them dependent; rights counted from the start."""
    rows = []
    for i in range(of):
        depends = i < dependent
        ok = i < dependent_right if depends else i - dependent < right - dependent_right
        rows.append(_outcome("sessions", "window", f"c{i}", ok, depends))
    return rows


def test_spread_gives_each_seeds_median_and_min_max() -> None:
    per_seed = {
        1: figures(_seed(right=8, of=10, dependent_right=6, dependent=8)),
        2: figures(_seed(right=6, of=10, dependent_right=4, dependent=8)),
        3: figures(_seed(right=9, of=10, dependent_right=7, dependent=8)),
    }
    assert [row.accuracy for rows in per_seed.values() for row in rows] == [0.8, 0.6, 0.9]
    (row,) = spread(per_seed)
    assert (row.set, row.strategy, row.seeds) == ("sessions", "window", (1, 2, 3))
    assert row.median == 0.8 and row.spread == (0.6, 0.9)
    assert row.dependent_median == 6 / 8 and row.dependent_spread == (4 / 8, 7 / 8)
    data = row.to_dict()
    assert data["median"] == 0.8 and data["spread"] == [0.6, 0.9]
    assert data["dependent_spread"] == [0.5, 0.875]


def test_spread_keeps_sets_and_strategies_apart_and_skips_missing_dependent_turns() -> None:
    single = [_outcome("single", "window", "s", ok, False) for ok in (True, False)]
    none = [
        dataclasses.replace(o, strategy="none")
        for o in _seed(5, 10, dependent_right=5, dependent=5)
    ]
    per_seed = {
        1: figures([*single, *none]),
        2: figures([dataclasses.replace(o, ok=True) for o in [*single, *none]]),
    }
    rows = {(r.set, r.strategy): r for r in spread(per_seed)}
    assert set(rows) == {("single", "window"), ("sessions", "none")}
    assert rows["single", "window"].dependent_median is None
    assert rows["single", "window"].median == 0.75 and rows["single", "window"].spread == (0.5, 1.0)
    assert rows["sessions", "none"].dependent_spread == (1.0, 1.0)
    assert rows["sessions", "none"].spread == (0.5, 1.0)


def _case_file(tmp_path: Path, cases: object, name: str = "mine.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(cases), encoding="utf-8")
    return path


ONE_CASE = {
    "cases": [
        {
            "name": "mine-1",
            "category": "roots-2",
            "wording": "chat",
            "turns": [
                {"text": "x^2 = 4?", "expected": {"kind": "roots", "answers": ["-2", "2"]}},
                {
                    "text": "and their sum?",
                    "expected": {"kind": "value", "answers": ["0"]},
                    "depends": True,
                },
            ],
        }
    ]
}


def test_a_case_file_is_played_alone_under_its_name(tmp_path: Path) -> None:
    path = _case_file(tmp_path, ONE_CASE)
    args = parse_args(["--file", str(path), "--strategy", "window", "--strategy", "none"])
    (plan,) = make_plans(args, "window")
    assert (plan.set_name, plan.strategies) == ("mine", ["window", "none"])
    (case,) = plan.cases
    assert [t.depends for t in case.turns] == [False, True]
    assert case.turns[0].expected is not None and case.turns[0].expected.answers == ("-2", "2")
    with_sets = make_plans(parse_args(["--file", str(path), "--set", "reference"]), "window")
    assert [p.set_name for p in with_sets] == ["mine", "reference"]
    # a file named like a built-in set is not reported (nor judged by targets) as that set
    clash = _case_file(tmp_path, ONE_CASE["cases"], "single.json")
    (plan,) = make_plans(parse_args(["--file", str(clash)]), "window")
    assert plan.set_name == "file single"


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "is not a case file"),
        ({"cases": []}, "holds no cases"),
        ({"cases": [{"name": "a", "category": "c", "wording": "w", "turns": []}]}, "needs turns"),
        (
            {
                "cases": [
                    {
                        "name": "a",
                        "category": "c",
                        "wording": "w",
                        "turns": [{"text": "hi", "expected": {"kind": "guess"}}],
                    }
                ]
            },
            "expects 'guess'",
        ),
    ],
)
def test_a_bad_case_file_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        parse_args(["--file", str(path)])
    assert stop.value.code == 2
    assert says in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["--file", str(tmp_path / "missing.json")])


@pytest.mark.parametrize(
    ("name", "least"), [("handwritten-dev", 40), ("followups-dev", 12), ("handwritten2-dev", 25)]
)
def test_the_handwritten_dev_files_load_and_every_answer_is_math(name: str, least: int) -> None:
    loaded, cases = load_file(DATA_DIR / f"{name}.json")
    assert loaded == name
    assert len({c.name for c in cases}) == len(cases) >= least
    expected = [t.expected for c in cases for t in c.turns if t.expected is not None]
    assert sum(t.depends for c in cases for t in c.turns) >= 10
    for answer in (a for e in expected for a in e.answers):
        sympy.sympify(answer)  # raises on anything that is not math
