"""Answers show math as people write it in the terminal; `/raw` gives back the stored text.

The strings are the kind a small model writes (SymPy spelling, a little LaTeX and Markdown,
prose with hyphens and ids); the expected output is what a person should read.
"""

from __future__ import annotations

import io

import pytest
import sympy as sp
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rich.console import Console

from agent.app.render import displayed
from agent.app.repl import Repl
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.display.pretty import RAW_MARKERS, pretty
from agent.llm.providers import Provider
from agent.runtime.single import Runtime
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, solve
from tools.parsing import parse_expression

CASES = [
    # roots lists
    ("x = -3, x = -2", "x = −3, x = −2"),
    ("The roots are x = -3 and x = -2.", "The roots are x = −3 and x = −2."),
    ("x = (-5 - sqrt(13))/2, x = (-5 + sqrt(13))/2", "x = (−5 − √13)/2, x = (−5 + √13)/2"),
    ("-5/2 ± √13/2", "−5/2 ± √13/2"),
    ("-5/2 - sqrt(13)/2, -5/2 + sqrt(13)/2", "−5/2 − √13/2, −5/2 + √13/2"),
    ("t = 2 - sqrt(105)/5 and t = 2 + sqrt(105)/5", "t = 2 − √105/5 and t = 2 + √105/5"),
    ("x = -1 - I, x = -1 + I", "x = −1 − I, x = −1 + I"),
    ("Done: at -3: 9; at -2: 4", "Done: at −3: 9; at −2: 4"),
    # calculus
    ("d/dx (x**2 + 5*x + 6) = 2*x + 5", "d/dx (x² + 5x + 6) = 2x + 5"),
    ("∫ x**2 dx = x**3/3 + C", "∫ x² dx = x³/3 + C"),
    ("f'(x) = 3*x**2 - 2", "f'(x) = 3x² − 2"),
    ("d/dx (2*x**2 + 4*x - 6) = 4*x + 4", "d/dx (2x² + 4x − 6) = 4x + 4"),
    ("sin(x)**2 + cos(x)**2 = 1", "sin(x)² + cos(x)² = 1"),
    ("exp(-x**2)", "exp(−x²)"),
    ("e**(-x) and e**x", "e^(−x) and e^x"),
    ("log(x) - 1", "log(x) − 1"),
    ("The limit is oo; from the left it is -oo.", "The limit is ∞; from the left it is −∞."),
    # roots and powers
    ("sqrt(13)/2", "√13/2"),
    ("sqrt(x + 1)", "√(x + 1)"),
    ("sqrt(x**2 + 1)", "√(x² + 1)"),
    ("2*sqrt(2)", "2√2"),
    ("sqrt(2)*x", "√2·x"),
    ("cbrt(5)", "∛5"),
    ("√(13)", "√13"),
    ("(-3)^2 = 9", "(−3)² = 9"),
    ("x**10 + x^3", "x¹⁰ + x³"),
    ("x**(n+1)/(n+1)", "x^(n+1)/(n+1)"),
    ("x^n", "x^n"),
    ("2**0.5", "2^0.5"),
    ("x^-1 = x**(-1)", "x⁻¹ = x⁻¹"),
    ("x^{2} + 1", "x² + 1"),
    ("x**2*y", "x²y"),
    # products
    ("5*x", "5x"),
    ("2 * x", "2x"),
    ("1.5*x - 0.25", "1.5x − 0.25"),
    ("x*y", "x·y"),
    ("(x + 2)*(x + 3)", "(x + 2)·(x + 3)"),
    ("2*(x + 1)", "2·(x + 1)"),
    ("3 * 4 = 12", "3 · 4 = 12"),
    ("pi*r**2 and 2*pi", "π·r² and 2π"),
    # comparisons
    ("x >= 2, y <= 3, z != 0", "x ≥ 2, y ≤ 3, z ≠ 0"),
    ("as x -> oo", "as x → ∞"),
    # what stays as it is
    ("#2[1]", "#2[1]"),
    ("square each of #2, then #3 - #4", "square each of #2, then #3 − #4"),
    ("≈ 0.333", "≈ 0.333"),
    ("1/3 ≈ 0.333333", "1/3 ≈ 0.333333"),
    ("1e-5", "1e-5"),
    (
        "The second-to-last root is on the x-axis; it is non-negative.",
        "The second-to-last root is on the x-axis; it is non-negative.",
    ),
    (
        "a well-known 2-step method, COVID-19, e-mail",
        "a well-known 2-step method, COVID-19, e-mail",
    ),
    ("- first\n- second", "- first\n- second"),
    (
        "What should I integrate, and over which interval?",
        "What should I integrate, and over which interval?",
    ),
    ("sin(x), log(x), ln(2)", "sin(x), log(x), ln(2)"),
    ("run math-agent chat --raw", "run math-agent chat --raw"),
    ("the *only* real root", "the *only* real root"),
    # Markdown and LaTeX a model writes out of habit
    ("**Answer:** x = **-3**", "Answer: x = −3"),
    ("\\(\\frac{1}{3}\\)", "1/3"),
    ("\\[x = \\frac{-5 \\pm \\sqrt{13}}{2}\\]", "x = (−5 ± √13)/2"),
    ("\\(x^{10}\\) and \\(\\pi r^2\\)", "x¹⁰ and π r²"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_answers_show_math_as_people_write_it(text: str, expected: str) -> None:
    assert pretty(text) == expected


@pytest.mark.parametrize("text", [text for text, _ in CASES])
def test_pretty_is_idempotent(text: str) -> None:
    once = pretty(text)
    assert pretty(once) == once


MATHY = "x2y^*()[]{}\\frac-+/ =#.,sqrtpio\n√−·e ab"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=MATHY, max_size=60) | st.text(max_size=60))
def test_nothing_printed_spells_python_powers_or_latex(text: str) -> None:
    shown = pretty(text)
    assert not any(bad in shown for bad in RAW_MARKERS), (text, shown)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=MATHY.replace("\\", ""), max_size=40))
@example("2**{x}")  # a power kept as `^` before a brace is LaTeX on the next pass
@example("2**{")
def test_pretty_is_idempotent_on_any_math_like_text(text: str) -> None:
    # (Without backslashes: stray ones are plain_math's to read, once.)
    once = pretty(text)
    assert pretty(once) == once, (text, once)


def _expressions() -> st.SearchStrategy[str]:
    """SymPy's own spelling of random expressions: what tools and models print."""
    x, y = sp.symbols("x y")
    atoms = st.sampled_from([x, y, sp.Integer(2), sp.Integer(-3), sp.Rational(1, 3), sp.pi])
    leaves = st.builds(lambda a, n: a**n, atoms, st.integers(-3, 12)) | atoms

    def combine(children: st.SearchStrategy[sp.Expr]) -> st.SearchStrategy[sp.Expr]:
        return (
            st.builds(sp.Add, children, children)
            | st.builds(sp.Mul, children, children)
            | st.builds(sp.sqrt, children)
            | st.builds(sp.sin, children)
        )

    return st.recursive(leaves, combine, max_leaves=6).map(sp.sstr)


@settings(max_examples=200, deadline=None)
@given(
    _expressions(),
    st.sampled_from(["", "The answer is ", "Roots: x = ", "so the second-to-last is "]),
)
def test_sympy_output_stays_the_same_math_and_the_prose_stays(expression: str, prose: str) -> None:
    shown = pretty(f"{prose}{expression}")
    assert not any(bad in shown for bad in RAW_MARKERS), (expression, shown)
    assert "sqrt" not in shown and "pi" not in shown
    assert shown.startswith(prose)
    assert pretty(shown) == shown
    # The project's parser reads what is shown (x², √2, 3x, ·, −) as the same math.
    before, after = parse_expression(expression), parse_expression(shown[len(prose) :])
    assert before == after or sp.simplify(before - after) == 0, (expression, shown)


def test_raw_shows_the_stored_text_and_is_still_safe() -> None:
    assert displayed("x = [bold]-3[/bold]**2", raw=True) == "x = \\[bold]-3\\[/bold]**2"
    assert displayed("x**2", raw=False) == "x²"


# -- /raw through the REPL ------------------------------------------------------------------


def make_repl(replies: list[str], interactive: bool = False) -> tuple[Repl, io.StringIO]:
    agent = Agent(model=InProcessModel(replies), strategy=make_strategy("window"))
    provider = Provider("scripted", "http://127.0.0.1:9/v1", "scripted", None, "test")
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    return Repl(Runtime(agent=agent, provider=provider), console, interactive), out


ANSWER = "x = -3, x = -2: x**2 + 5*x + 6 = (x + 3)*(x + 2), and sqrt(13) is not a root."
PRETTY = "x = −3, x = −2: x² + 5x + 6 = (x + 3)·(x + 2), and √13 is not a root."


def test_raw_toggles_between_readable_math_and_the_stored_text() -> None:
    repl, out = make_repl([solve("#1"), done(ANSWER), solve("#1"), done(ANSWER)])
    repl.raw = False  # as on a terminal
    repl.handle("solve x^2 + 5x + 6 = 0")
    assert PRETTY in out.getvalue()
    assert "x**2" not in out.getvalue()
    out.truncate(0)
    out.seek(0)
    repl.handle("/raw")
    assert "plain text as stored" in out.getvalue()
    repl.handle("solve x^2 + 5x + 6 = 0 again")
    assert ANSWER in out.getvalue()
    # The stored answer (what the model sees next time) never changed.
    replies = [
        m.text for m in repl.agent.session.conversation() if type(m).__name__ == "AssistantMessage"
    ]
    assert replies == [ANSWER, ANSWER]
    repl.handle("/raw off")
    assert repl.raw is False
    repl.handle("/raw maybe")
    assert "Say /raw to switch" in out.getvalue()


def test_piped_chat_prints_the_stored_text_until_raw_is_switched_off() -> None:
    repl, out = make_repl([solve("#1"), done(ANSWER)])
    assert repl.raw is True  # not a terminal: scripts read the answers
    repl.handle("/raw")
    repl.handle("solve x^2 + 5x + 6 = 0")
    assert PRETTY in out.getvalue()


def test_a_terminal_repl_prints_readable_math_by_default() -> None:
    repl, _ = make_repl([], interactive=True)
    assert repl.raw is False
    repl_raw = Repl(repl.runtime, repl.console, interactive=True, raw=True)
    assert repl_raw.raw is True


def test_chat_and_ask_take_raw() -> None:
    from agent.app.cli import build_parser

    assert build_parser().parse_args(["chat", "--raw"]).raw is True
    assert build_parser().parse_args(["ask", "--raw", "hi"]).raw is True
    assert build_parser().parse_args(["chat"]).raw is False
