"""The fact extractor shared by the strategies' safety check and the benchmark's retention."""

from __future__ import annotations

import pytest

from agent.context.math_facts import extract_facts, is_distinctive, missing_facts, normalize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The roots are x = -3 and x = -2.", {"-3", "-2"}),
        ("x = -3, x = -2", {"-3", "-2"}),
        ('{"tool": "evaluate", "expression": "x^2", "at": ["-3", "-2"]}', {"x**2", "-3", "-2"}),
        ("The derivative is 4*x + 4.", {"4+4*x"}),
        ("d/dx (2*x**2 + 4*x - 6) = 4*x + 4", {"2*x**2+4*x-6", "4+4*x"}),
        ("∫ from 0 to 1 of x**2 dx = 1/3 ≈ 0.3333", {"0", "1", "x**2", "1/3"}),
        ("x = -1/2 ≈ -0.5", {"-1/2"}),
        ("sqrt(2)/2 and -sqrt(2)/2", {"sqrt(2)/2", "-sqrt(2)/2"}),
        ("√2 is irrational", {"sqrt(2)"}),
        ("x − 3 = 13", {"13", "x-3"}),
        ("Hello, how can I help?", set()),
        ("d2/dx2 (x**3) = 6*x", {"x**3", "6*x"}),
    ],
)
def test_extracts_numbers_roots_and_expressions(text: str, expected: set[str]) -> None:
    assert set(extract_facts(text)) == expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("4*x + 4", "4x+4"),
        ("x^2 + 5x + 6", "x**2 + 5*x + 6"),
        ("9 - x**2", "-x^2 + 9"),
        ("(4*x + 4)", "4*x + 4"),
        ("+3", "3"),
        ("2·x", "2*x"),
        ("x²", "x**2"),
    ],
)
def test_normalisation_ignores_spelling(a: str, b: str) -> None:
    assert normalize(a) == normalize(b)


def test_matching_is_by_whole_segment() -> None:
    """A root is found as a value, never as a piece of another number or expression."""
    assert missing_facts(["-3"], ["x - 3 = 0"]) == ["-3"]
    assert missing_facts(["3"], ["x = 13"]) == ["3"]
    assert missing_facts(["-3", "4*x+4"], ["roots: [-3, -2]; f'(x) = 4x + 4"]) == []


def test_missing_facts_lists_each_once_in_order() -> None:
    assert missing_facts(["9", "4", "9", "-3"], ["4"]) == ["9", "-3"]


def test_small_integers_are_not_distinctive() -> None:
    assert not is_distinctive("3") and not is_distinctive("-2")
    assert is_distinctive("12") and is_distinctive("1/3") and is_distinctive("4+4*x")
