"""The committed question sets are what the generator makes, and they have the right shape.

The expected answers are recomputed from the question texts in test_parts.py.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
import sympy as sp

from agent.eval import generate
from agent.eval.cases import (
    DEFAULT_SEED,
    FILES,
    PARTED_SETS,
    PARTS,
    SETS,
    EvalCase,
    Expected,
    file_name,
    load_set,
    set_path,
)
from agent.eval.generate_common import chat_text
from agent.eval.judge import judge
from tests.eval.reading import read, read_chat

CATEGORIES = (
    "roots-1",
    "roots-2",
    "roots-3",
    "roots-4",
    "derivative-1",
    "derivative-2",
    "derivative-3",
    "function-value",
    "integral-definite",
    "integral-indefinite",
    "closed",
    "chained-equality",
    "function-notation",
)


@pytest.fixture(scope="module")
def sets() -> dict[str, list[EvalCase]]:
    """The committed files, by file name (`reference`, `single-dev`, `sessions-test`...)."""
    return {
        file_name(s, p): load_set(s, p)
        for s in SETS
        for p in (PARTS if s in PARTED_SETS else (None,))
    }


# --- the files -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return generate.build(DEFAULT_SEED)


def test_committed_files_are_the_generators_output(generated: dict[str, str]) -> None:
    assert tuple(generated) == FILES
    for name in FILES:
        assert set_path(name).read_text(encoding="utf-8") == generated[name], (
            f"{name}.json is stale: run python -m agent.eval.generate"
        )


def test_the_committed_files_are_the_default_cases(sets: dict[str, list[EvalCase]]) -> None:
    for set_name in PARTED_SETS:
        for part in PARTS:
            assert sets[file_name(set_name, part)] == generate.make_cases(set_name, part)
    assert sets["reference"] == generate.make_cases("reference")


def test_check_option_reports_stale_files(
    generated: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(generate, "build", lambda seed: generated)
    monkeypatch.setattr(generate, "set_path", lambda name: tmp_path / f"{name}.json")
    assert generate.main(["--check"]) == 1  # nothing written yet
    assert generate.main([]) == 0
    assert generate.main(["--check"]) == 0
    (tmp_path / "single-test.json").write_text("{}", encoding="utf-8")
    assert generate.main(["--check", "--seed", "1"]) == 1


def test_make_cases_wants_a_part_for_parted_sets() -> None:
    with pytest.raises(ValueError, match="part"):
        generate.make_cases("single")
    with pytest.raises(ValueError, match="unknown set"):
        generate.make_cases("everything", "test")


def test_every_expected_answer_reads_as_sympy(sets: dict[str, list[EvalCase]]) -> None:
    for cases in sets.values():
        for case in cases:
            for turn in case.turns:
                if turn.expected is None or turn.expected.kind == "asks":
                    continue
                assert turn.expected.answers, case.name
                for answer in turn.expected.answers:
                    assert isinstance(read(answer), sp.Expr), (case.name, answer)


# --- reference -------------------------------------------------------------------------------


def test_reference_conversation(sets: dict[str, list[EvalCase]]) -> None:
    (case,) = sets["reference"]
    assert (case.name, case.category, case.wording) == ("reference", "reference", "reference")
    texts = [t.text for t in case.turns]
    assert texts[:4] == [
        "Solve the quadratic equation: x^2 + 5*x + 6 = 0",
        "Find the derivative of: 2*x^2 + 4*x - 6",
        "what is the square of the roots",
        "integrate this",
    ]
    expected = [t.expected for t in case.turns]
    assert expected[0] == Expected("roots", ("-3", "-2"), "x")
    assert expected[1] == Expected("expression", ("4*x + 4",), "x")
    assert expected[2] == Expected("values", ("9", "4"))
    assert expected[3] == Expected("asks")
    assert expected[4] == Expected("value", ("6",))
    assert [t.depends for t in case.turns] == [False, False, True, False, True]


# --- single ----------------------------------------------------------------------------------


@pytest.mark.parametrize("part", PARTS)
def test_single_counts_and_names(sets: dict[str, list[EvalCase]], part: str) -> None:
    cases = sets[file_name("single", part)]
    assert 36 <= len(cases) <= 48
    assert [c.name for c in cases] == [f"single-{part}-1-{i:03d}" for i in range(len(cases))]
    assert all(len(c.turns) == 1 for c in cases)
    counts = Counter(c.category for c in cases)
    assert set(counts) == set(CATEGORIES)
    for category in CATEGORIES:
        assert counts[category] >= 3, category
        wordings = Counter(c.wording for c in cases if c.category == category)
        assert set(wordings) == {"dataset", "chat"}, category
        assert abs(wordings["dataset"] - wordings["chat"]) <= 1, category


@pytest.mark.parametrize("part", PARTS)
def test_single_kinds_match_categories(sets: dict[str, list[EvalCase]], part: str) -> None:
    kinds = {
        "roots": {"roots"},
        "derivative": {"expression"},
        "function-value": {"value"},
        "integral-definite": {"value"},
        "integral-indefinite": {"antiderivative"},
        "closed": {"value"},
        "chained-equality": {"roots"},
        "function-notation": {"roots", "expression", "value"},
    }
    seen = set()
    for case in sets[file_name("single", part)]:
        expected = case.turns[0].expected
        assert expected is not None
        allowed = next(k for prefix, k in kinds.items() if case.category.startswith(prefix))
        assert expected.kind in allowed, case.name
        if expected.kind in ("roots", "antiderivative", "expression"):
            assert expected.variable, case.name
        if case.category == "function-notation":
            seen.add(expected.kind)
    assert seen == kinds["function-notation"]


def test_variables_avoid_e_and_i(sets: dict[str, list[EvalCase]]) -> None:
    for cases in sets.values():
        for case in cases:
            for turn in case.turns:
                if turn.expected is not None and turn.expected.variable:
                    assert turn.expected.variable not in "eiEIO", case.name


def test_chat_formulas_read_back_as_written() -> None:
    """The chat renderer writes what a reader (and SymPy) takes for the same expression."""
    rng = random.Random(5)
    x, y, t = sp.symbols("x y t")
    for _ in range(200):
        expr = sp.Integer(rng.randint(-9, 9))
        for _ in range(rng.randint(1, 4)):
            coeff = sp.Rational(rng.choice([-7, -3, -1, 1, 2, 5]), rng.choice([1, 1, 2, 3]))
            expr += coeff * x ** rng.randint(0, 4) * y ** rng.randint(0, 2) * t ** rng.randint(0, 1)
        if rng.random() < 0.3:
            expr += rng.choice([sp.sin, sp.cos, sp.exp])(x)
        superscripts = rng.random() < 0.5
        text = chat_text(expr, superscripts)
        assert sp.expand(read_chat(text) - expr) == 0, (text, expr)


# --- sessions --------------------------------------------------------------------------------


@pytest.mark.parametrize("part", PARTS)
def test_sessions_shape(sets: dict[str, list[EvalCase]], part: str) -> None:
    sessions = sets[file_name("sessions", part)]
    assert 6 <= len(sessions) <= 10
    orders = [tuple(t.text for t in case.turns) for case in sessions]
    assert len(set(orders)) == len(orders)
    for case in sessions:
        assert 8 <= len(case.turns) <= 12, case.name
        assert case.wording == "chat" and case.category == "chain"
        first_judged = next(t for t in case.turns if t.expected is not None)
        assert not first_judged.depends, case.name
        for turn in case.turns:
            if turn.expected is None:  # an introduction or a preference: needs nothing earlier
                assert not turn.depends, case.name
    judged = [t for case in sessions for t in case.turns if t.expected is not None]
    assert 60 <= len(judged) <= 85
    assert sum(t.depends for t in judged) / len(judged) >= 0.7
    assert any(t.expected is None for case in sessions for t in case.turns)


# --- the judge agrees with the key ---------------------------------------------------------


def ideal_reply(expected: Expected) -> str:
    """How a right answer reads, built from the key alone."""
    answers = [read(a) for a in expected.answers]
    if expected.kind == "roots":
        return f"The roots are {', '.join(f'{expected.variable} = {a}' for a in answers)}."
    if expected.kind == "antiderivative":
        v = sp.Symbol(expected.variable or "x")
        return f"An antiderivative is {sp.integrate(answers[0], v)} + C."
    if expected.kind == "assignments":
        letters = (expected.variable or "").split(",")
        return ", ".join(f"{c} = {a}" for c, a in zip(letters, answers, strict=True))
    if expected.kind == "line":
        return f"The tangent line is y = {answers[0]}."
    return f"The answer is {' and '.join(map(str, answers))}."


def test_judge_accepts_the_key_and_rejects_a_shifted_key(sets: dict[str, list[EvalCase]]) -> None:
    for cases in sets.values():
        for case in cases:
            for turn in case.turns:
                expected = turn.expected
                if expected is None or expected.kind == "asks":
                    continue
                verdict = judge(ideal_reply(expected), False, expected, turn.text)
                assert verdict.ok, (case.name, turn.text, verdict.why)
                if expected.kind not in ("roots", "antiderivative"):
                    wrong = Expected(
                        expected.kind,
                        (f"({expected.answers[0]}) + 1", *expected.answers[1:]),
                        expected.variable,
                    )
                    assert not judge(ideal_reply(wrong), False, expected).ok, case.name
