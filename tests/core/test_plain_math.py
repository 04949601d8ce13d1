"""LaTeX in answers becomes plain text that keeps the math's grouping."""

from __future__ import annotations

import pytest

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.core.plain_math import json_escapes_undone, plain_math
from agent.testing.in_process import InProcessModel
from baml_client import b


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


def _answer(response_json: str) -> str:
    """What a model's `response`, written as JSON text, reads as once parsed by the real BAML
    parser and written plainly."""
    raw = (
        '{"response": "'
        + response_json
        + '", "tool": "message_to_user", "task_status": "COMPLETED"}'
    )
    return plain_math(b.parse.MathChat(raw).response)


@pytest.mark.parametrize(
    ("written", "plain"),
    [
        # one backslash in JSON: `\f`, `\t`, `\b`, `\r`, `\n` are escapes, and ate the command's
        (r"x = \frac{1}{3}", "x = 1/3"),
        (r"2 \times 3 = 6, \theta = \pi", "2 × 3 = 6, θ = π"),
        (r"\beta = 2", "β = 2"),
        (r"\left( x + 1 \right)^2, \rho", "( x + 1 )^2, ρ"),
        (r"x \neq 0 and \nabla f", "x ≠ 0 and ∇ f"),
        (r"\lim_{x \to 0} \frac{\sin x}{x} = 1", "lim_(x → 0) (sin x)/x = 1"),
        # two backslashes are one backslash: the same answer
        (r"x = \\frac{1}{3}", "x = 1/3"),
    ],
)
def test_latex_a_model_writes_in_json_comes_through_as_latex(written: str, plain: str) -> None:
    assert _answer(written) == plain


def test_a_real_newline_stays_a_newline() -> None:
    # a line may begin with a command's tail ("e", "u"...) or with any word
    written = r"The roots:\nx = 1\nequals two\nnext\ne = 2.7\nu = 3"
    assert _answer(written) == "The roots:\nx = 1\nequals two\nnext\ne = 2.7\nu = 3"
    assert json_escapes_undone("tab\there") == "tab\there"  # "there" is no command


def test_the_loop_shows_the_model_s_latex_as_math_not_a_broken_line() -> None:
    reply = (
        r'{"response": "It is \frac{1}{3}.", "tool": "message_to_user", "task_status": "COMPLETED"}'
    )
    agent = Agent(InProcessModel([reply]), make_strategy("none"))
    assert agent.run_turn("one third as a fraction?").reply.text == "It is 1/3."
