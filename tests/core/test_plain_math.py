"""LaTeX in answers becomes plain text that keeps the math's grouping."""

from __future__ import annotations

import pytest

from agent.core.plain_math import plain_math


@pytest.mark.parametrize(
    ("latex", "plain"),
    [
        (r"The roots are \(x = -3\) and \(x = -2\).", "The roots are x = -3 and x = -2."),
        (r"x = \frac{-5 \pm \sqrt{13}}{2}", "x = (-5 ± √13)/2"),
        (r"\frac{1}{3} x^{3} + x^{2} + C", "1/3 x^3 + x^2 + C"),
        (r"\int_0^1 x^2 \, dx = \frac{1}{3}", "∫_0^1 x^2 dx = 1/3"),
        (r"e^{-x} \cdot x^{10}", "e^(-x) · x^10"),
        (r"\boxed{9}", "9"),
        (r"\sqrt[3]{8} = 2", "∛8 = 2"),
        (r"\left( x + 1 \right)^{2}", "( x + 1 )^2"),
        (r"\[ 4x + 4 \]", "4x + 4"),
    ],
)
def test_latex_is_written_plainly(latex: str, plain: str) -> None:
    assert plain_math(latex) == plain


@pytest.mark.parametrize(
    "text", ["x^2 + 5*x + 6 = 0 has roots -3, -2", "a 5% rise costs $3", "2*x**2 - 1"]
)
def test_text_without_latex_is_left_alone(text: str) -> None:
    assert plain_math(text) == text
