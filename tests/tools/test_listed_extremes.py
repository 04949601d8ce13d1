"""The extrema tool on a list of numbers: the largest and smallest of a finite set, exact,
with bounds, and clear refusals (an id of roots resolves to such a list)."""

from __future__ import annotations

import time

import pytest
import sympy as sp

import tools


@pytest.mark.parametrize(
    ("call", "value", "said"),
    [
        (
            lambda: tools.extrema("(-3), (-2), (-1), (4)", kind="max"),
            4,
            "the largest of -3, -2, -1, 4 is 4",
        ),
        (
            lambda: tools.extrema("[sqrt(2), 3/2, -pi]", kind="min"),
            -sp.pi,
            "the smallest of sqrt(2), 3/2, -pi is -pi",
        ),
        (lambda: tools.extrema("-3, -2, -1, 4", None, "0", None, "min"), 4, "in [0, oo) is 4"),
        (lambda: tools.extrema("-3, -2, 4", None, None, "x = 0", "max"), -2, "in (-oo, 0] is -2"),
        (
            lambda: tools.extrema("5, -7/2, 1"),
            [sp.Rational(-7, 2), 5],
            "the smallest is -7/2 ≈ -3.5, the largest 5",
        ),
        (lambda: tools.extrema("10^40 + 1, 10^40", kind="max"), 10**40 + 1, "is 1000"),
    ],
)
def test_the_largest_and_smallest_of_listed_numbers(call, value, said) -> None:  # type: ignore[no-untyped-def]
    result = call()
    assert result.ok, result.text
    assert result.value == value
    assert said in result.text


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: tools.extrema("1, 2", None, 5, 6, "max"), "None of 1, 2 lies in [5, 6]"),
        (lambda: tools.extrema("1, 2*I", kind="max"), "Only real numbers"),
        (lambda: tools.extrema("9^9^9, 1", kind="max"), "too large"),
        (lambda: tools.extrema("1, 2", None, "a", None, "max"), "lower bound"),
    ],
)
def test_listed_numbers_refused_in_one_clear_sentence(call, fragment) -> None:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    result = call()
    assert not result.ok and fragment in result.text
    assert result.text.count(". ") == 0 or result.text.endswith(".")
    assert time.monotonic() - started < 5  # the worker may start here; refusals are instant


def test_a_function_is_still_read_as_a_function() -> None:
    assert tools.extrema("x^2 - 1", kind="min").text == "minimum -1 at x = 0"
