"""Arithmetic named in words over listed values (tools.worded), and the evaluate call that
sends it (agent.core.tool_calls)."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from agent.core.tool_calls import run_tool
from baml_client.types import QuadraticEvaluator
from tools.worded import worded_arithmetic


@pytest.mark.parametrize(
    ("words", "written"),
    [
        ("sum of the roots", "(-4) + (1) + (3)"),
        ("the sum", "(-4) + (1) + (3)"),
        ("product of the solutions", "(-4)*(1)*(3)"),
        ("square of the roots", "(-4)^2, (1)^2, (3)^2"),
        ("squares of them", "(-4)^2, (1)^2, (3)^2"),
        ("cubes", "(-4)^3, (1)^3, (3)^3"),
        ("sum of the squares of the roots", "(-4)^2 + (1)^2 + (3)^2"),
        ("average of the values", "((-4) + (1) + (3))/3"),
    ],
)
def test_words_are_read_as_the_arithmetic_they_name(words: str, written: str) -> None:
    assert worded_arithmetic(words, ["-4", "1", "3"]) == written


@pytest.mark.parametrize(
    ("words", "values"),
    [
        ("x^2 + 1", ["-4", "1"]),  # math, not words
        ("sum of the roots", []),  # nothing to add
        ("sum of the roots", ["a", "1"]),  # a value that is not a number
        ("difference of the roots", ["-4", "1"]),  # order matters: not guessed
        ("the roots of the sum", ["-4", "1"]),
    ],
)
def test_anything_else_is_left_to_the_parser(words: str, values: list[str]) -> None:
    assert worded_arithmetic(words, values) is None


def test_an_evaluate_call_in_words_is_computed() -> None:
    summed = run_tool(
        QuadraticEvaluator(tool="evaluate", expression="sum of the roots", at=["-4", "1", "3"])
    )
    assert summed.ok and summed.value == 0
    squared = run_tool(
        QuadraticEvaluator(tool="evaluate", expression="square of the roots", at=["-4", "1", "3"])
    )
    assert squared.ok and squared.value == [16, 1, 9]


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=6))
def test_the_sum_and_product_are_those_of_the_values(values: list[int]) -> None:
    texts = [str(v) for v in values]
    total = sp.sympify(worded_arithmetic("sum of the roots", texts).replace("^", "**"))
    product = sp.sympify(worded_arithmetic("product of them", texts).replace("^", "**"))
    assert total == sum(values)
    assert product == sp.prod(values)
