"""Hostile and odd input to the tools of issue 29: a ToolResult every time, never an exception,
nothing executed, nothing left running.

As in ``test_tools_hostile``, the bound on time is the worker's own limit: every call passes
``timeout=LIMIT``, so a computation that runs past it is killed and comes back as a refusal
("took too long") instead of hanging the test.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tools
from tests.tools.test_tools_hostile import FRAGMENTS, HOSTILE, MATHY, _clean, _no_side_effects
from tools import ToolResult

LIMIT = 1.0  # seconds: the worker's limit for each call here
HUGE = "x" * 1_000_000
NESTED = "(" * 10_000 + "x" + ")" * 10_000


def _calls(text: str) -> list[Callable[[], ToolResult]]:
    """The text in every text argument of every new tool."""
    return [
        lambda: tools.solve("x^2 - 4", None, text, timeout=LIMIT),
        lambda: tools.solve(text, None, "x >= 0", timeout=LIMIT),
        lambda: tools.solve_system(text, timeout=LIMIT),
        lambda: tools.solve_system(["x + y = 1", text], timeout=LIMIT),
        lambda: tools.solve_system("x + y = 1, x - y = 0", text, timeout=LIMIT),
        lambda: tools.extrema(text, timeout=LIMIT),
        lambda: tools.extrema("x^2", None, text, "1", timeout=LIMIT),
        lambda: tools.extrema("x^2", None, None, None, text, timeout=LIMIT),
        lambda: tools.tangent(text, "1", timeout=LIMIT),
        lambda: tools.tangent("x^2", text, timeout=LIMIT),
        lambda: tools.transform(text, "factor", timeout=LIMIT),
        lambda: tools.transform("x^2 - 1", text, timeout=LIMIT),
        lambda: tools.limit(text, "0", timeout=LIMIT),
        lambda: tools.limit("1/x", text, timeout=LIMIT),
        lambda: tools.limit("1/x", "0", None, text, timeout=LIMIT),
        lambda: tools.series(text, timeout=LIMIT),
        lambda: tools.series("sin x", text, timeout=LIMIT),
        lambda: tools.series("sin x", "0", text, timeout=LIMIT),
    ]


def _check(result: object) -> None:
    assert isinstance(result, ToolResult)
    if not result.ok:
        assert result.error and result.text == result.error
        assert "\n" not in result.error and len(result.error) < 400, result.error


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(h[:30]) for h in HOSTILE])
def test_hostile_text_in_every_argument(text: str) -> None:
    _clean()
    for call in _calls(text):
        _check(call())
    _no_side_effects()


# ---------------------------------------------------------------------------------------------
# Inputs that must be refused, each with one sentence

REFUSED: list[tuple[str, Callable[[], ToolResult]]] = [
    ("domain-import", lambda: tools.solve("x^2-4", None, "x > __import__('os')", timeout=LIMIT)),
    ("domain-lambda", lambda: tools.solve("x^2-4", None, "lambda: 1", timeout=LIMIT)),
    ("domain-integers", lambda: tools.solve("x^2-4", None, "integers", timeout=LIMIT)),
    ("domain-word-like-R", lambda: tools.solve("x^2-4", None, "Rabbit", timeout=LIMIT)),
    (
        "system-condition-only",
        lambda: tools.solve_system(["x + y = 3", "x > 0"], timeout=LIMIT),
    ),
    (
        "system-condition-on-no-unknown",
        lambda: tools.solve_system(["x + y = 3", "x - y = 1", "5 > 0"], timeout=LIMIT),
    ),
    (
        "system-condition-import",
        lambda: tools.solve_system(
            ["x + y = 3", "x - y = 1", "x > __import__('os')"], timeout=LIMIT
        ),
    ),
    (
        "system-too-many-conditions",
        lambda: tools.solve_system("x + y = 3, x - y = 1" + ", x > 0" * 7, timeout=LIMIT),
    ),
    ("domain-parameter", lambda: tools.solve("x^2-4", None, "x >= y", timeout=LIMIT)),
    ("domain-unclosed", lambda: tools.solve("x^2-4", None, "[0, 5", timeout=LIMIT)),
    ("domain-empty", lambda: tools.solve("x^2-4", None, "5 < x < 1", timeout=LIMIT)),
    ("domain-not-equal", lambda: tools.solve("x^2-4", None, "x != 0", timeout=LIMIT)),
    ("domain-number", lambda: tools.solve("x^2-4", None, 12, timeout=LIMIT)),  # type: ignore[arg-type]
    ("domain-huge", lambda: tools.solve("x^2-4", None, HUGE, timeout=LIMIT)),
    ("domain-nested", lambda: tools.solve("x^2-4", None, f"x > {NESTED}", timeout=LIMIT)),
    ("domain-brackets", lambda: tools.solve("x^2-4", None, "[" * 1000, timeout=LIMIT)),
    ("domain-wrong-variable", lambda: tools.solve("x^2-4", None, "t >= 0", timeout=LIMIT)),
    ("domain-power", lambda: tools.solve("x^2-4", None, "x > 9^9^9^9", timeout=LIMIT)),
    ("system-four", lambda: tools.solve_system("x=1, y=2, z=3, w=4", timeout=LIMIT)),
    ("system-four-list", lambda: tools.solve_system(["x=1", "y=2", "z=3", "x+y=4"])),
    ("system-four-unknowns", lambda: tools.solve_system("a+b+c+d=1, a=b", timeout=LIMIT)),
    ("system-one", lambda: tools.solve_system("x + y = 1", timeout=LIMIT)),
    ("system-import", lambda: tools.solve_system("__import__('os')=1, x=2", timeout=LIMIT)),
    ("system-not-text", lambda: tools.solve_system(["x+y=1", 5], timeout=LIMIT)),  # type: ignore[list-item]
    ("system-nested-list", lambda: tools.solve_system([["x=1"], "y=2"], timeout=LIMIT)),  # type: ignore[list-item]
    ("system-many-items", lambda: tools.solve_system(["x=1"] * 60, timeout=LIMIT)),
    ("system-huge", lambda: tools.solve_system(HUGE, timeout=LIMIT)),
    ("system-mapping", lambda: tools.solve_system({"x": 1}, timeout=LIMIT)),  # type: ignore[arg-type]
    ("system-power", lambda: tools.solve_system("x^100000 = y, x + y = 1", timeout=LIMIT)),
    ("system-trig", lambda: tools.solve_system("sin(x) = y, x + y = 1", timeout=LIMIT)),
    ("system-variables-code", lambda: tools.solve_system("x+y=1, x-y=0", "os.system")),
    ("extrema-power", lambda: tools.extrema("x^100000", timeout=LIMIT)),
    ("extrema-nested", lambda: tools.extrema(NESTED, timeout=LIMIT)),
    ("extrema-import", lambda: tools.extrema("__import__('os')", timeout=LIMIT)),
    ("extrema-lambda", lambda: tools.extrema("lambda x: x", timeout=LIMIT)),
    ("extrema-huge", lambda: tools.extrema(HUGE, timeout=LIMIT)),
    ("extrema-kind", lambda: tools.extrema("x^2", kind="median", timeout=LIMIT)),
    ("extrema-kind-type", lambda: tools.extrema("x^2", kind=3, timeout=LIMIT)),  # type: ignore[arg-type]
    ("extrema-bound-object", lambda: tools.extrema("x^2", None, object(), timeout=LIMIT)),
    ("extrema-bound-words", lambda: tools.extrema("x^2", None, "foo bar", timeout=LIMIT)),
    ("extrema-backwards", lambda: tools.extrema("x^2", None, 5, 1, timeout=LIMIT)),
    ("tangent-import", lambda: tools.tangent("x^2", "__import__('os')", timeout=LIMIT)),
    ("tangent-triple", lambda: tools.tangent("x^2", [1, 2, 3], timeout=LIMIT)),
    ("tangent-object", lambda: tools.tangent("x^2", object(), timeout=LIMIT)),
    ("tangent-infinity", lambda: tools.tangent("x^2", "oo", timeout=LIMIT)),
    ("tangent-huge", lambda: tools.tangent(HUGE, 1, timeout=LIMIT)),
    ("tangent-corner", lambda: tools.tangent("|x|", 0, timeout=LIMIT)),
    ("derivative-at-import", lambda: tools.derivative("x^2", at="__import__('os')", timeout=LIMIT)),
    ("derivative-at-infinity", lambda: tools.derivative("x^2", at="oo", timeout=LIMIT)),
    ("derivative-at-pole", lambda: tools.derivative("1/x", at="0", timeout=LIMIT)),
    ("derivative-at-other-letter", lambda: tools.derivative("x^2", at="t = 1", timeout=LIMIT)),
    ("derivative-at-object", lambda: tools.derivative("x^2", at=object(), timeout=LIMIT)),
    ("derivative-at-corner", lambda: tools.derivative("|x - 1|", at="1", timeout=LIMIT)),
    ("derivative-at-pair", lambda: tools.derivative("x^2", at=[1, 2], timeout=LIMIT)),
    ("derivative-at-huge", lambda: tools.derivative("x^2", at=HUGE, timeout=LIMIT)),
    ("derivative-at-power", lambda: tools.derivative("x^3", at="9^9^9^9", timeout=LIMIT)),
    ("transform-eval", lambda: tools.transform("x^2", "eval", timeout=LIMIT)),
    ("transform-how-none", lambda: tools.transform("x^2", None, timeout=LIMIT)),  # type: ignore[arg-type]
    ("transform-how-number", lambda: tools.transform("x^2", 5, timeout=LIMIT)),  # type: ignore[arg-type]
    ("transform-import", lambda: tools.transform("__import__('os')", "factor", timeout=LIMIT)),
    ("transform-power", lambda: tools.transform("9^9^9^9", "factor", timeout=LIMIT)),
    ("transform-huge", lambda: tools.transform(HUGE, "expand", timeout=LIMIT)),
    ("transform-nested", lambda: tools.transform(NESTED, "simplify", timeout=LIMIT)),
    ("limit-direction", lambda: tools.limit("x", 0, None, "sideways", timeout=LIMIT)),
    ("limit-point-lambda", lambda: tools.limit("x", "lambda: 0", timeout=LIMIT)),
    ("limit-point-none", lambda: tools.limit("x", None, timeout=LIMIT)),
    ("limit-import", lambda: tools.limit("__import__('os')", 0, timeout=LIMIT)),
    ("series-degree-huge", lambda: tools.series("sin x", "0", 10**9, timeout=LIMIT)),
    ("series-degree-negative", lambda: tools.series("sin x", "0", -1, timeout=LIMIT)),
    ("series-degree-21", lambda: tools.series("sin x", "0", 21, timeout=LIMIT)),
    ("series-degree-code", lambda: tools.series("sin x", "0", "6; import os", timeout=LIMIT)),  # type: ignore[arg-type]
    ("series-degree-bool", lambda: tools.series("sin x", "0", True, timeout=LIMIT)),
    ("series-point-import", lambda: tools.series("sin x", "__import__('os')", timeout=LIMIT)),
]
# Within the grammar but too much work: stopped by the worker's limit (or its memory cap).
TOO_LONG: list[tuple[str, Callable[[], ToolResult]]] = [
    ("expand-huge-power", lambda: tools.transform("(x+y+z+w)^1000", "expand", timeout=LIMIT)),
    ("extrema-degree-999", lambda: tools.extrema("x^999 - 7x^500 + 3x^2 + x", timeout=LIMIT)),
]


def test_refusal_lists_are_big_enough() -> None:
    assert len(REFUSED) >= 50


@pytest.mark.parametrize("call", [c for _, c in REFUSED], ids=[i for i, _ in REFUSED])
def test_refused_with_one_sentence(call: Callable[[], ToolResult]) -> None:
    _clean()
    result = call()
    assert isinstance(result, ToolResult)
    assert not result.ok, result.text
    assert result.error and result.text == result.error
    assert "\n" not in result.error and len(result.error) < 400, result.error
    assert result.error.rstrip().endswith("."), result.error
    _no_side_effects()


@pytest.mark.parametrize("call", [c for _, c in TOO_LONG], ids=[i for i, _ in TOO_LONG])
def test_runaway_work_is_stopped_by_the_worker_limit(call: Callable[[], ToolResult]) -> None:
    result = call()
    assert not result.ok
    assert "took too long" in result.error or "memory" in result.error, result.error
    assert tools.transform("x^2 + 5x + 6", "factor").ok  # the next call works


# ---------------------------------------------------------------------------------------------
# Property-based

NEW_TOOLS = ["solve_system", "extrema", "tangent", "transform", "limit", "series"]
SECOND = {"tangent": "1", "transform": "factor", "limit": "0"}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NEW_TOOLS), st.one_of(st.text(max_size=80), MATHY, FRAGMENTS))
def test_new_tools_never_raise(tool: str, text: str) -> None:
    _clean()
    args: tuple[object, ...] = (text, SECOND[tool]) if tool in SECOND else (text,)
    _check(getattr(tools, tool)(*args, timeout=2.0))
    _no_side_effects()


ODD = st.one_of(
    st.none(),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.text(max_size=20),
    st.lists(st.one_of(st.integers(), st.text(max_size=5)), max_size=4),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ODD)
def test_odd_arguments_never_raise(value: object) -> None:
    for result in (
        tools.solve("x^2 - 1", None, value, timeout=2.0),  # type: ignore[arg-type]
        tools.solve_system(value, timeout=2.0),  # type: ignore[arg-type]
        tools.solve_system("x + y = 1, x - y = 0", value, timeout=2.0),  # type: ignore[arg-type]
        tools.extrema("x^2", None, value, None, timeout=2.0),
        tools.extrema("x^2", None, None, None, value, timeout=2.0),  # type: ignore[arg-type]
        tools.tangent("x^2", value, timeout=2.0),
        tools.transform("x^2", value, timeout=2.0),  # type: ignore[arg-type]
        tools.limit("x", value, None, None, timeout=2.0),
        tools.limit("x", 0, None, value, timeout=2.0),  # type: ignore[arg-type]
        tools.series("sin x", value, timeout=2.0),
        tools.series("sin x", "0", value, timeout=2.0),  # type: ignore[arg-type]
    ):
        _check(result)


def test_a_huge_value_in_an_error_sentence_is_its_decimal() -> None:
    # found by the property above: a point far off a curve stated a 200-digit value
    result = tools.tangent("x^20", [10**10, 10**10], timeout=LIMIT)
    _check(result)
    assert not result.ok and result.text.endswith("the value is ≈ 1.0e+200.")
