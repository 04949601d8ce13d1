"""The committed question sets are what the generator makes, and their answers are right.

Expected answers are recomputed here from the question text itself (SymPy on the parsed
dataset-style wording, which is unambiguous), so a generator bug that pairs a question with
the wrong answer fails a test instead of quietly scoring the agent wrong.
"""

from __future__ import annotations

import random
import re
import string
from collections import Counter
from pathlib import Path

import pytest
import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

from agent.eval import generate
from agent.eval.cases import SETS, EvalCase, Expected, load_set, set_path
from agent.eval.generate_common import chat_text
from agent.eval.judge import judge

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
)
LETTERS = {c: sp.Symbol(c) for c in string.ascii_letters if c not in "EI"}
_CHAT = (*standard_transformations, implicit_multiplication_application, convert_xor)
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def read(text: str) -> sp.Expr:
    """SymPy's reading of dataset notation (`-3*j**2 + 9*j`), letters never constants."""
    return sp.sympify(text, locals=LETTERS)


def read_chat(text: str) -> sp.Expr:
    """A chat formula (`3x^2 y`, `t³`, `e^x`), read independently of the judge's normaliser."""
    text = re.sub(r"([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "^" + m.group().translate(_SUPER), text)
    return parse_expr(text, local_dict={**LETTERS, "e": sp.E}, transformations=_CHAT)


@pytest.fixture(scope="module")
def sets() -> dict[str, list[EvalCase]]:
    return {name: load_set(name) for name in SETS}


def single(sets: dict[str, list[EvalCase]], wording: str | None = None) -> list[EvalCase]:
    return [c for c in sets["single"] if wording in (None, c.wording)]


# --- the files -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return generate.build(generate.DEFAULT_SEED)


def test_committed_files_are_the_generators_output(generated: dict[str, str]) -> None:
    for name in SETS:
        assert set_path(name).read_text(encoding="utf-8") == generated[name], (
            f"{name}.json is stale: run python -m agent.eval.generate"
        )


def test_generation_is_deterministic_and_depends_on_the_seed(generated: dict[str, str]) -> None:
    assert generate.build(generate.DEFAULT_SEED) == generated
    other = generate.build(generate.DEFAULT_SEED + 1)
    assert other["single"] != generated["single"]
    assert other["sessions"] != generated["sessions"]
    assert other["reference"] == generated["reference"]


def test_check_option_reports_stale_files(
    generated: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(generate, "build", lambda seed: generated)
    monkeypatch.setattr(generate, "set_path", lambda name: tmp_path / f"{name}.json")
    assert generate.main(["--check"]) == 1  # nothing written yet
    assert generate.main([]) == 0
    assert generate.main(["--check"]) == 0
    (tmp_path / "single.json").write_text("{}", encoding="utf-8")
    assert generate.main(["--check", "--seed", "2026"]) == 1


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


def test_single_counts_and_names(sets: dict[str, list[EvalCase]]) -> None:
    cases = sets["single"]
    assert len(cases) >= 170
    assert [c.name for c in cases] == [f"single-{i:03d}" for i in range(len(cases))]
    assert all(len(c.turns) == 1 for c in cases)
    counts = Counter(c.category for c in cases)
    assert set(counts) == set(CATEGORIES)
    for category in CATEGORIES:
        assert counts[category] >= 12, category
        wordings = Counter(c.wording for c in cases if c.category == category)
        assert set(wordings) == {"dataset", "chat"}, category
        if not category.startswith("integral"):
            assert abs(wordings["dataset"] - wordings["chat"]) <= 2, category


def test_single_kinds_match_categories(sets: dict[str, list[EvalCase]]) -> None:
    kinds = {
        "roots": "roots",
        "derivative": "expression",
        "function": "value",
        "integral-definite": "value",
        "integral-indefinite": "antiderivative",
        "closed": "value",
    }
    for case in sets["single"]:
        expected = case.turns[0].expected
        assert expected is not None
        kind = next(k for prefix, k in kinds.items() if case.category.startswith(prefix))
        assert expected.kind == kind, case.name
        if kind in ("roots", "antiderivative", "expression"):
            assert expected.variable, case.name


def test_variables_avoid_e_and_i(sets: dict[str, list[EvalCase]]) -> None:
    for case in sets["single"] + sets["sessions"]:
        for turn in case.turns:
            if turn.expected is not None and turn.expected.variable:
                assert turn.expected.variable not in "eiEIO", case.name


def test_roots_are_all_the_real_roots_of_the_question(sets: dict[str, list[EvalCase]]) -> None:
    """Every roots question (both wordings) is parsed back and solved again."""
    patterns = (
        r"Solve (?P<eq>.+) for (?P<v>\w)\.",
        r"(?:Let|Suppose) (?P<eq>.+)\. What is (?P<v>\w)\?",
        r"Find (?P<v>\w) such that (?P<eq>.+)\.",
        r"Determine (?P<v>\w) so that (?P<eq>.+)\.",
        r"solve for (?P<v>\w): (?P<eq>.+)",
        r"solve (?P<eq>.+)",
        r"(?:what are the roots|find the zeros) of (?P<eq>.+)",
        r"(?P<eq>.+), what's (?P<v>\w)\?",
        r"for which (?P<v>\w) is (?P<eq>.+)\?",
    )
    checked = 0
    for case in sets["single"]:
        if not case.category.startswith("roots"):
            continue
        turn = case.turns[0]
        assert turn.expected is not None and turn.expected.variable
        match = next(m for p in patterns if (m := re.fullmatch(p, turn.text)))
        reader = read if case.wording == "dataset" else read_chat
        lhs, _, rhs = match["eq"].partition("=")
        poly = reader(lhs) - (reader(rhs) if rhs else 0)
        v = sp.Symbol(turn.expected.variable)
        assert poly.free_symbols == {v}, case.name
        assert sp.degree(poly, v) == int(case.category[-1]), case.name
        solutions = sp.solve(poly, v)
        assert all(s.is_real for s in solutions), case.name  # no complex roots to leave out
        expected = [read(a) for a in turn.expected.answers]
        assert len(expected) == len(solutions) == len(set(solutions)), case.name
        for root in expected:
            assert sp.simplify(poly.subs(v, root)) == 0, (case.name, root)
        checked += 1
    assert checked >= 48


def test_dataset_derivatives(sets: dict[str, list[EvalCase]]) -> None:
    pattern = (
        r"(?:Differentiate|What is the (?:first |second |third )?derivative of"
        r"|Find the (?:first |second |third )?derivative of) (?P<f>.+?)"
        r"(?P<times> twice| three times)? (?:wrt|with respect to) (?P<v>\w)[.?]"
    )
    orders = {"first": 1, "second": 2, "third": 3, " twice": 2, " three times": 3}
    several = 0
    for case in single(sets, "dataset"):
        if not case.category.startswith("derivative"):
            continue
        turn = case.turns[0]
        match = re.fullmatch(pattern, turn.text)
        assert match, turn.text
        word = match["times"] or next((w for w in orders if w in turn.text), "first")
        order = orders[word]
        assert order == int(case.category[-1]), case.name
        f, v = read(match["f"]), sp.Symbol(match["v"])
        assert turn.expected is not None and turn.expected.variable == v.name
        assert sp.expand(read(turn.expected.answers[0]) - sp.diff(f, v, order)) == 0, case.name
        assert sp.diff(f, v, order) != 0, case.name
        several += len(f.free_symbols) > 1
    assert several >= 6  # partial derivatives are part of the set


def test_dataset_function_values(sets: dict[str, list[EvalCase]]) -> None:
    pattern = (
        r"(?:Let|Suppose) (?P<g>\w)\((?P<v>\w)\) = (?P<f>.+)\. "
        r"(?:Give|What is|Calculate|Determine) (?P=g)\((?P<a>[^)]+)\)[.?]"
    )
    for case in single(sets, "dataset"):
        if case.category != "function-value":
            continue
        turn = case.turns[0]
        match = re.fullmatch(pattern, turn.text)
        assert match and turn.expected is not None, turn.text
        assert match["g"] != match["v"], case.name
        value = read(match["f"]).subs(sp.Symbol(match["v"]), read(match["a"]))
        assert read(turn.expected.answers[0]) == value, case.name


def test_dataset_integrals_and_closed(sets: dict[str, list[EvalCase]]) -> None:
    definite = (
        r"Calculate the definite integral of (?P<f>.+) from (?P<a>\S+) to (?P<b>\S+)"
        r" with respect to (?P<v>\w)\.",
        r"What is the integral of (?P<f>.+) wrt (?P<v>\w) from (?P<a>\S+) to (?P<b>\S+)\?",
    )
    indefinite = (
        r"Find the indefinite integral of (?P<f>.+) with respect to (?P<v>\w)\.",
        r"What is an antiderivative of (?P<f>.+) wrt (?P<v>\w)\?",
    )
    closed = r"(?:What is the value of|What is|Calculate|Evaluate) (?P<e>.+)[.?]"
    for case in single(sets, "dataset"):
        turn = case.turns[0]
        expected = turn.expected
        assert expected is not None
        if case.category == "integral-definite":
            m = next(m for p in definite if (m := re.fullmatch(p, turn.text)))
            value = sp.integrate(read(m["f"]), (sp.Symbol(m["v"]), read(m["a"]), read(m["b"])))
            assert read(expected.answers[0]) == value, case.name
        elif case.category == "integral-indefinite":
            m = next(m for p in indefinite if (m := re.fullmatch(p, turn.text)))
            assert read(expected.answers[0]) == read(m["f"]), case.name
            assert expected.variable == m["v"], case.name
        elif case.category == "closed":
            m = re.fullmatch(closed, turn.text)
            assert m, turn.text
            assert read(expected.answers[0]) == read(m["e"]), case.name


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


def test_sessions_shape(sets: dict[str, list[EvalCase]]) -> None:
    sessions = sets["sessions"]
    assert len(sessions) >= 12
    orders = [tuple(t.text for t in case.turns) for case in sessions]
    assert len(set(orders)) == len(orders)
    for case in sessions:
        assert 8 <= len(case.turns) <= 15, case.name
        assert case.wording == "chat" and case.category == "chain"
        first_judged = next(t for t in case.turns if t.expected is not None)
        assert not first_judged.depends, case.name
        for turn in case.turns:
            if turn.expected is None:  # an introduction: not judged, needs nothing earlier
                assert not turn.depends, case.name
                assert "name" in turn.text or "I'm" in turn.text, turn.text
    judged = [t for case in sessions for t in case.turns if t.expected is not None]
    assert sum(t.depends for t in judged) / len(judged) >= 0.6
    assert any(t.expected is None for case in sessions for t in case.turns)


def test_sessions_back_references(sets: dict[str, list[EvalCase]]) -> None:
    texts = [t.text for case in sets["sessions"] for t in case.turns]
    for phrase in ("the first equation", "before last", "from before", "them", "that"):
        assert any(phrase in text for text in texts), phrase


# --- the judge agrees with the key ---------------------------------------------------------


def ideal_reply(expected: Expected) -> str:
    """How a right answer reads, built from the key alone."""
    answers = [read(a) for a in expected.answers]
    if expected.kind == "roots":
        return f"The roots are {', '.join(f'{expected.variable} = {a}' for a in answers)}."
    if expected.kind == "antiderivative":
        v = sp.Symbol(expected.variable or "x")
        return f"An antiderivative is {sp.integrate(answers[0], v)} + C."
    return f"The answer is {' and '.join(map(str, answers))}."


def test_judge_accepts_the_key_and_rejects_a_shifted_key(sets: dict[str, list[EvalCase]]) -> None:
    for cases in sets.values():
        for case in cases:
            for turn in case.turns:
                expected = turn.expected
                if expected is None or expected.kind == "asks":
                    continue
                verdict = judge(ideal_reply(expected), False, expected)
                assert verdict.ok, (case.name, turn.text, verdict.why)
                if expected.kind in ("value", "values", "expression"):
                    wrong = Expected(
                        expected.kind,
                        (f"({expected.answers[0]}) + 1", *expected.answers[1:]),
                        expected.variable,
                    )
                    assert not judge(ideal_reply(wrong), False, expected).ok, case.name
