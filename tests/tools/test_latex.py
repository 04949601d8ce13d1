"""LaTeX, from a model or pasted by a person, becomes plain text that keeps the math's grouping."""

from __future__ import annotations

import pytest
import sympy as sp

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.testing.in_process import InProcessModel
from baml_client import b
from tools import api
from tools.latex import json_escapes_undone, plain_latex, plain_math
from tools.parsing import parse


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


@pytest.mark.parametrize(
    ("pasted", "plain", "value"),
    [
        (r"\frac{x^2 - 1}{x + 1}", "(x^2 - 1)/(x + 1)", "(x**2 - 1)/(x + 1)"),
        (r"\frac{1}{2x}", "1/(2x)", "1/(2*x)"),
        (r"e^{2x} + \sqrt{2x}", "e^(2x) + √(2x)", "exp(2*x) + sqrt(2*x)"),
        (r"\dfrac{1}{2}x^{2} - 3", "1/2x^2 - 3", "x**2/2 - 3"),
        (r"x^{-1/2} \cdot \sqrt[3]{x+1}", "x^(-1/2) · ∛(x+1)", "(x + 1)**(1/3)/sqrt(x)"),
        (r"\left|x - 1\right| + \pi r^2", "|x - 1| + π r^2", "Abs(x - 1) + pi*r**2"),
        (r"\sin^2 x + \ln(x)", "sin^2 x + ln(x)", "sin(x)**2 + log(x)"),
        (r"\sin(30^\circ) + \cos 60^{\circ}", "sin(30°) + cos 60°", "1"),
        (r"\binom{10}{3} + 17 \bmod 5", "binomial(10, 3) + 17 mod 5", "122"),
        (r"50\% \cdot 8", "50% · 8", "4"),
    ],
)
def test_pasted_latex_is_read_as_the_math_it_writes(pasted: str, plain: str, value: str) -> None:
    assert plain_latex(pasted) == plain
    assert parse(pasted).lhs == sp.sympify(value)  # every tool's input is read the same way


def test_leibniz_written_as_a_fraction_stays_an_operation() -> None:
    assert plain_latex(r"\frac{d}{dx} x^3") == "d/dx x^3"
    assert plain_latex(r"\frac{d^{2}y}{dx^{2}}") == "d^2y/dx^2"
    assert plain_latex(r"\frac{dx}{2}") == "dx/2"  # not a derivative: a fraction


def test_a_tool_reads_latex_a_model_copied_into_its_call() -> None:
    assert str(api.derivative(r"\frac{x^2 - 1}{x + 1}")) == str(api.derivative("(x^2 - 1)/(x + 1)"))
    assert api.evaluate("\frac{1}{2} + 3", at=[]).value == sp.Rational(7, 2)  # `\f`: JSON's


def test_an_inequality_in_latex_is_solved_as_one() -> None:
    assert api.solve(r"x^{2} - 4 \geq 0").text.startswith("x <= -2 or x >= 2")
    assert api.solve(r"x^2 = 4", domain=r"x \geq 0").value == [2]


@pytest.mark.parametrize(
    ("written", "value"),
    [("log_2 8", "3"), ("log_3(81) + 1", "5"), (r"\log_{2} 8", "3"), ("log_b(x)", "log(x)/log(b)")],
)
def test_a_logarithm_to_a_base_written_with_an_underscore(written: str, value: str) -> None:
    assert parse(written).lhs == sp.sympify(value)
    assert parse("v_max + x_1").lhs == sp.Symbol("v_max") + sp.Symbol("x_1")  # names stay names
