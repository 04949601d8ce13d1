"""The `problems` set: drawn per seed, worded by disjoint families, answered as the tools do.

Why these tests: the test part only measures wordings nobody tuned to if no dev frame is a
test frame; a category read in one sentence would be learnt, so each has five wordings per
part; and a key computed by the generator's own SymPy could still disagree with what this
repo's tools return for the same math (a landing time from the wrong root, a system's values
swapped), so the tool calls that answer each question are replayed on `tools.api` here, and
the tools' own sentence, given as the reply, must be judged right.
"""

from __future__ import annotations

import itertools
import re
import string
from collections import Counter
from typing import Any

import pytest
import sympy as sp

import tools
from agent.eval.cases import PARTS, Expected
from agent.eval.generate import make_cases
from agent.eval.generate_problems import (
    ASKS,
    BUILDERS,
    CATEGORY_KEYS,
    PER_CATEGORY,
    WORD_CATEGORIES,
    problem_draws,
)
from agent.eval.judge import judge
from agent.eval.problem import Problem
from agent.eval.wordings import PROBLEM_SLOTS, family
from tests.eval.reading import edit_distance, masked, read, words

SEEDS = (1, 5)


# --- seeds and parts -------------------------------------------------------------------------


@pytest.mark.parametrize("part", PARTS)
def test_a_seed_gives_the_same_problems_and_another_seed_others(part: str) -> None:
    cases = make_cases("problems", part, 3)
    assert cases == make_cases("problems", part, 3)
    other = make_cases("problems", part, 4)
    texts = {c.turns[0].text for c in cases}
    assert len(texts & {c.turns[0].text for c in other}) < len(texts) / 4
    assert [c.name for c in cases] == [f"problems-{part}-3-{i:03d}" for i in range(len(cases))]


def test_the_parts_differ_for_one_seed() -> None:
    dev = {c.turns[0].text for c in make_cases("problems", "dev", 1)}
    assert not dev & {c.turns[0].text for c in make_cases("problems", "test", 1)}


# --- categories and wordings -----------------------------------------------------------------


def test_the_tables_name_the_same_categories_and_every_key_once() -> None:
    assert ASKS.keys() == BUILDERS.keys() == CATEGORY_KEYS.keys()
    assert set(WORD_CATEGORIES) <= set(ASKS)
    keys = [k for ks in CATEGORY_KEYS.values() for k in ks]
    assert len(keys) == len(set(keys))
    for part in PARTS:
        assert set(family("problems", part)) == set(keys) == set(PROBLEM_SLOTS)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_category_has_three_cases_each_kind_and_one_turn(part: str, seed: int) -> None:
    cases = make_cases("problems", part, seed)
    assert 36 <= len(cases) <= 48
    counts = Counter(c.category for c in cases)
    assert set(counts) == set(ASKS)
    assert all(n >= 3 for n in counts.values()), counts
    assert all(len(c.turns) == 1 and c.turns[0].expected is not None for c in cases)
    for case in cases:
        assert case.wording == ("word" if case.category in WORD_CATEGORIES else "direct")
    drawn = problem_draws(seed, part)
    for category, asks in ASKS.items():
        if len(asks) <= PER_CATEGORY:  # three questions show every kind of the category
            keys = {p.key for c, p in drawn if c == category}
            assert len(keys) == min(len(asks), PER_CATEGORY), (category, keys)


def _templates(part: str, category: str) -> list[str]:
    words_ = family("problems", part)
    return [t for key in CATEGORY_KEYS[category] for t in words_[key]]


@pytest.mark.parametrize("part", PARTS)
def test_every_category_has_five_wordings_per_part(part: str) -> None:
    for category in ASKS:
        assert len(set(_templates(part, category))) >= 5, (part, category)


def test_no_wording_frame_is_shared_between_the_parts() -> None:
    """Any dev and test template of one category (any of its keys) differ by three words or
    more once numbers, letters and placeholders are masked."""
    for category in ASKS:
        dev, test = _templates("dev", category), _templates("test", category)
        assert not {masked(t) for t in dev} & {masked(t) for t in test}, category
        close = [
            (a, b) for a, b in itertools.product(dev, test) if edit_distance(words(a), words(b)) < 3
        ]
        assert not close, (category, close)


def _slots(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_template_gives_the_math_its_answer_needs() -> None:
    for part in PARTS:
        for key, templates in family("problems", part).items():
            for template in templates:
                have = _slots(template)
                assert any(need <= have for need in PROBLEM_SLOTS[key]), (part, key, template)


# What a word problem's answer is measured in, and how its templates must say so.
UNITS = {
    "projectile-landing": r"second|\bs\b",
    "projectile-reach": r"second|\bs\b",
    "projectile-peak": r"metre|\bm\b",
    "area-max": r"metre|m²|\bm\b",
    "area-side": r"metre|\bm\b",
    "area-circle": r"metre|\bm\b|m²",
    "rate-position": r"metre|m/s|\bm\b",
    "rate-cost": r"dollar",
    "cost-break-even": r"dollar|\$",
    "cost-average": r"dollar|\$",
    "cost-profit": r"dollar",
    "system-tickets": r"dollar|\$",
}


def test_word_problems_state_their_units() -> None:
    for part in PARTS:
        words_ = family("problems", part)
        for key, unit in UNITS.items():
            for template in words_[key]:
                assert re.search(unit, template, re.IGNORECASE), (part, key, template)


def _filled(template: str) -> re.Pattern[str]:
    out = ""
    for literal, name, _, _ in string.Formatter().parse(template):
        out += re.escape(literal) + (".+?" if name else "")
    return re.compile(out)


@pytest.mark.parametrize("part", PARTS)
def test_each_question_is_a_template_of_its_key_filled_in(part: str) -> None:
    words_ = family("problems", part)
    for category, problem in problem_draws(1, part):
        assert problem.key in CATEGORY_KEYS[category]
        assert any(_filled(t).fullmatch(problem.text) for t in words_[problem.key]), problem.text


# --- the expected answers are what this repo's tools return ----------------------------------------


def _replay(problem: Problem) -> tools.ToolResult:
    """The problem's tool calls in turn; `{previous}` is the value of the call before."""
    previous: Any = None
    result = None
    for step in problem.steps:
        arguments = {
            name: value.replace("{previous}", sp.sstr(previous))
            if isinstance(value, str)
            else value
            for name, value in step.arguments.items()
        }
        result = getattr(tools, step.tool)(**arguments)
        assert result.ok, (problem.text, step, result.error)
        previous = result.value
    assert result is not None
    return result


def _answers(problem: Problem, value: Any) -> list[sp.Expr]:
    """What the tools' value says the answer is, in the key's order."""
    if isinstance(value, list) and value and isinstance(value[0], dict):
        (solution,) = value
        names = str(problem.steps[-1].arguments["variables"]).split(",")
        return [solution[sp.Symbol(n.strip())] for n in names]
    if not isinstance(value, list):
        return [value]
    ordered = sorted(value, key=float)
    return {"largest": ordered[-1:], "smallest": ordered[:1], "all": ordered}[problem.pick]


def _equal(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.simplify(sp.sympify(a) - b) == 0


def _check(problem: Problem) -> None:
    expected: Expected = problem.expected
    result = _replay(problem)
    keyed = [read(a) for a in expected.answers]
    found = _answers(problem, result.value)
    assert len(found) == len(keyed), (problem.text, found, keyed)
    assert all(_equal(f, k) for f, k in zip(found, keyed, strict=True)), (problem.text, found)
    if expected.kind == "factored":
        assert isinstance(result.value, (sp.Mul, sp.Pow)), (problem.text, result.value)
    verdict = judge(result.text, False, expected)
    assert verdict.ok, (problem.text, result.text, verdict.why)


@pytest.mark.parametrize("part", PARTS)
def test_every_expected_answer_is_what_the_tools_return_seed_1(part: str) -> None:
    """Every question of the committed part: the tool calls give the key, and the tool's own
    sentence, given as the reply, is judged right."""
    for _, problem in problem_draws(1, part):
        _check(problem)


@pytest.mark.parametrize("part", PARTS)
@pytest.mark.parametrize("seed", (2, 9))
def test_expected_answers_of_other_seeds_are_what_the_tools_return(part: str, seed: int) -> None:
    """A sample of other seeds: one question of each kind."""
    seen = set()
    for _, problem in problem_draws(seed, part):
        if problem.key not in seen:
            seen.add(problem.key)
            _check(problem)
