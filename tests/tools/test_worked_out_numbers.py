"""A number that reading already worked out is shown as the person wrote it, never as
"already simplified"."""

from __future__ import annotations

import pytest

from tools import transform


@pytest.mark.parametrize(
    ("written", "how", "text"),
    [
        ("sqrt(72)", "simplify", "sqrt(72) = 6*sqrt(2)"),
        ("0.375", "simplify", "0.375 = 3/8"),
        ("12/18", "simplify", "12/18 = 2/3"),
        ("(2^3)^2", "expand", "(2^3)^2 = 64"),
    ],
)
def test_the_persons_form_stands_left_of_the_value(written: str, how: str, text: str) -> None:
    assert transform(written, how).text == text


@pytest.mark.parametrize(
    ("written", "text"),
    [
        ("2/3", "2/3 = 2/3 (already simplified)"),  # their form is the simplest
        ("2x + 1", "2*x + 1 = 2*x + 1 (already simplified)"),  # letters: as read
        (r"\frac{12}{18}", "2/3 = 2/3 (already simplified)"),  # LaTeX is never shown back
    ],
)
def test_what_was_simplest_as_written_or_is_no_number_reads_as_before(
    written: str, text: str
) -> None:
    assert transform(written, "simplify").text == text
