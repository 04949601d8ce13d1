"""Earlier polynomials named in a request, each bound to the one it means."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from agent import wire
from agent.core.equation_index import equation_index
from agent.core.referents import bind, polynomials
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from tools.registry import compute


def task(call_id: str, tool: str, asked: str = "", **arguments: object) -> list[Message]:
    """A finished task whose tool result is what the real tool returns."""
    result = compute(tool, dict(arguments))
    return [
        UserMessage(text=asked or f"please {tool} that"),
        ToolCall(call_id=call_id, tool=tool, arguments=dict(arguments)),
        ToolResultMessage(call_id=call_id, tool=tool, ok=result.ok, text=result.text),
        AssistantMessage(text=f"It is {result.text}.", task_status="COMPLETED"),
    ]


# A chat like the eval's sessions: two equations, arithmetic on roots, a derivative of the
# latest, an integral of new math, then a third equation.
CHAT = [
    *task("a", "solve", equation="q^2 + 6q + 8 = 0", variable="q"),
    *task("s", "evaluate", expression="-4 + -2", at=""),
    *task("b", "solve", equation="q^4 + 8q^3 + 17q^2 - 2q - 24 = 0"),
    *task("d", "derivative", expression="q^4 + 8q^3 + 17q^2 - 2q - 24"),
    *task("i", "integral", expression="2r^3", lower="-2", upper="1"),
    *task("c", "solve", equation="x^3 - 13x + 12 = 0"),
]


def named(request: str, chat: list[Message] = CHAT) -> dict[str, str]:
    return {b.phrase: b.polynomial.text for b in bind(request, chat)}


def test_the_chat_s_polynomials_are_the_equations_and_the_math_brought_not_results() -> None:
    found = polynomials(CHAT)
    assert [p.text for p in found] == [
        "q^2 + 6q + 8",
        "q^4 + 8q^3 + 17q^2 - 2q - 24",  # the derivative's input is no new polynomial
        "2r^3",
        "x^3 - 13x + 12",
    ]
    assert [p.kind for p in found] == ["quadratic", "quartic", "cubic", "cubic"]
    assert found[1].roots == (-4, -3, -2, 1)


@pytest.mark.parametrize(
    ("request_text", "phrase", "polynomial"),
    [
        ("and the second derivative of the first polynomial", "the first polynomial",
         "q^2 + 6q + 8"),
        ("what were the roots of the first equation again?", "the first equation",
         "q^2 + 6q + 8"),
        ("go back to the equation before the last one: its derivative?",
         "the equation before the last one", "q^4 + 8q^3 + 17q^2 - 2q - 24"),
        ("differentiate the polynomial of the penultimate equation", "the penultimate equation",
         "q^4 + 8q^3 + 17q^2 - 2q - 24"),
        ("integrate the second-to-last equation's polynomial", "the second-to-last equation",
         "q^4 + 8q^3 + 17q^2 - 2q - 24"),
        ("now integrate the polynomial itself from 0 to 1", "the polynomial itself",
         "x^3 - 13x + 12"),
        ("integrate the original polynomial from 0 to 1", "the original polynomial",
         "x^3 - 13x + 12"),
        ("what's f(1) for the cubic from before?", "the cubic", "x^3 - 13x + 12"),
        ("the quartic's value at 2", "the quartic", "q^4 + 8q^3 + 17q^2 - 2q - 24"),
        ("evaluate the first cubic at 1", "the first cubic", "x^3 - 13x + 12"),
        ("and the third polynomial at 2?", "the third polynomial", "2r^3"),
        ("the last polynomial at 2", "the last polynomial", "x^3 - 13x + 12"),
        ("the previous equation's roots", "the previous equation", "x^3 - 13x + 12"),
        # Bare: the latest, unless a precise phrase names one.
        ("and the second derivative of the polynomial?", "the polynomial", "x^3 - 13x + 12"),
        ("what's the derivative of that polynomial?", "that polynomial", "x^3 - 13x + 12"),
        ("differentiate the equation", "the equation", "x^3 - 13x + 12"),
    ],
)  # fmt: skip
def test_a_phrase_names_the_polynomial_a_person_means(
    request_text: str, phrase: str, polynomial: str
) -> None:
    assert named(request_text) == {phrase: polynomial}


@pytest.mark.parametrize(
    "request_text",
    [
        "evaluate that at 3",  # "that" is the model's to read
        "differentiate the polynomial x^2 + 1",  # the request's own math
        "what is the second derivative of it?",  # a derivative's order, not a position
        "the fourth equation",  # the chat has three
        "the quintic",  # none was solved
        "the second quadratic",  # one quadratic was solved
    ],
)
def test_nothing_is_bound_that_the_chat_does_not_hold(request_text: str) -> None:
    assert named(request_text) == {}


def test_two_phrases_and_the_largest_root_of_one() -> None:
    bindings = bind("plug the largest root of the first equation into the last polynomial", CHAT)
    assert [b.phrase for b in bindings] == ["the first equation", "the last polynomial"]
    assert bindings[0].extreme_root == ("largest", -2)
    assert bindings[1].extreme_root is None
    assert '- the largest root of "the first equation" is -2' in bindings[0].line()
    smallest = bind("the smallest root of the equation before last", CHAT)[0]
    assert smallest.extreme_root == ("smallest", -4)


def test_irrational_and_complex_roots() -> None:
    chat = [
        *task("a", "solve", equation="x^2 + 5x + 5 = 0"),
        *task("b", "solve", equation="x^2 + 1 = 0"),
    ]
    first, second = polynomials(chat)
    assert first.roots == (-sp.Rational(5, 2) - sp.sqrt(5) / 2, -sp.Rational(5, 2) + sp.sqrt(5) / 2)
    assert second.roots == ()  # no real root: "the largest" says nothing
    binding = bind("the largest root of the first equation", chat)[0]
    assert binding.extreme_root == ("largest", -sp.Rational(5, 2) + sp.sqrt(5) / 2)
    assert bind("the largest root of the last equation", chat)[0].extreme_root is None


def test_an_equation_with_a_right_side_is_shown_as_its_polynomial() -> None:
    chat = task("a", "solve", equation="x^2 = 5x - 6")
    assert named("the first polynomial", chat) == {"the first polynomial": "x^2 - 5*x + 6"}


def test_a_failed_call_brings_nothing() -> None:
    chat: list[Message] = [
        UserMessage(text="solve it"),
        ToolCall(call_id="a", tool="solve", arguments={"equation": "x^2 - 4 = 0"}),
        ToolResultMessage(call_id="a", tool="solve", ok=False, text="timed out"),
    ]
    assert polynomials(chat) == []
    assert bind("the first equation", chat) == []


def test_a_call_for_a_named_polynomial_brings_no_new_one() -> None:
    # The model differentiated other math for "the first polynomial": that math is its
    # reading of the name, not a polynomial the person brought ("the last polynomial" next).
    wrong = task(
        "w", "derivative", "the second derivative of the first polynomial",
        expression="5x^3 + 2x", order=2,
    )  # fmt: skip
    assert [p.text for p in polynomials([*CHAT, *wrong])] == [p.text for p in polynomials(CHAT)]
    assert named("the last polynomial", [*CHAT, *wrong]) == {
        "the last polynomial": "x^3 - 13x + 12"
    }
    # Math the request writes is brought, named polynomial or not.
    own = task("o", "derivative", "and the cubic 5x^3 + 2x?", expression="5x^3 + 2x")
    assert polynomials([*CHAT, *own])[-1].text == "5x^3 + 2x"


def test_the_index_note_shows_the_bindings_instead_of_the_list() -> None:
    note = equation_index(CHAT, "and the second derivative of the first polynomial")
    assert note is not None
    lines = note.splitlines()
    assert lines[0] == wire.REFERENTS_HEADER
    assert lines[1] == (
        '- "the first polynomial" is q^2 + 6q + 8 (from the equation q^2 + 6q + 8 = 0; '
        "roots q = -4, q = -2)"
    )
    assert len(lines) == 2
    assert equation_index(CHAT, "evaluate that at 3") is None


@settings(max_examples=60, deadline=None)
@given(
    roots=st.lists(st.integers(-9, 9), min_size=1, max_size=3, unique=True),
    position=st.integers(1, 3),
)
def test_the_nth_equation_is_the_nth_solved_whatever_the_roots(
    roots: list[int], position: int
) -> None:
    x = sp.Symbol("x")
    chat: list[Message] = []
    equations = []
    for shift in range(3):  # three different polynomials with these roots, shifted
        poly = sp.expand(sp.prod([x - (r + shift) for r in roots]))
        equation = str(poly).replace("**", "^") + " = 0"
        equations.append(poly)
        chat += task(f"c{shift}", "solve", equation=equation)
    ordinal = ["first", "second", "third"][position - 1]
    (binding,) = bind(f"the largest root of the {ordinal} equation", chat)
    assert sp.expand(binding.polynomial.expr - equations[position - 1]) == 0
    assert binding.extreme_root == ("largest", max(roots) + position - 1)


@pytest.mark.parametrize(
    "request_text", ["what are their squares?", "square each of them", "add those up"]
)
def test_their_are_all_the_roots_of_the_equation_just_solved(request_text: str) -> None:
    (binding,) = bind(request_text, CHAT)
    assert binding.roots_only and binding.polynomial.text == "x^3 - 13x + 12"
    assert binding.line().endswith(
        "are the 3 roots of the equation x^3 - 13x + 12 = 0: x = -4, x = 1, x = 3"
    )


def test_their_after_arithmetic_on_the_roots_are_still_the_roots() -> None:
    chat = [*CHAT, *task("e", "evaluate", "what's their sum?", expression="-4 + 1 + 3", at="")]
    assert [b.roots_only for b in bind("what are their squares?", chat)] == [True]
    # an unrelated sum in between: "their" is no longer sure to mean those roots
    other = [
        *CHAT,
        *task("e", "evaluate", "unrelated: what's 4*4 - 27?", expression="4*4 - 27", at=""),
    ]
    assert bind("what are their squares?", other) == []


@pytest.mark.parametrize(
    "later",
    [
        task("f", "derivative", expression="x^3"),  # "them" may be anything after this
        task("g", "evaluate", expression="x^2", at="2"),
    ],
)
def test_their_is_not_bound_after_other_math(later: list[Message]) -> None:
    assert bind("what are their squares?", [*CHAT, *later]) == []


def test_their_is_not_bound_with_math_of_the_request_or_a_single_root() -> None:
    assert bind("evaluate them at x = 2", CHAT) == []
    assert bind("square them", task("a", "solve", equation="2q - 8 = 0")) == []


def test_their_after_a_request_for_an_earlier_equation_s_roots_are_those_roots() -> None:
    chat = [*CHAT, UserMessage(text="remind me: the roots of the first equation?")]
    chat.append(AssistantMessage(text="They are q = -4 and q = -2.", task_status="COMPLETED"))
    (binding,) = bind("what are their squares?", chat)
    assert binding.roots_only and binding.polynomial.text == "q^2 + 6q + 8"
    # the open request may already be the conversation's last message
    (same,) = bind("what are their squares?", [*chat, UserMessage(text="what are their squares?")])
    assert same == binding


@pytest.mark.parametrize(
    ("request_text", "name", "point"),
    [
        ("what's f(1) for the cubic from before?", "f", "1"),
        ("give g(-2) for the first polynomial", "g", "-2"),
        ("and h(1/2), with h the last equation's polynomial?", "h", "1/2"),
    ],
)
def test_a_value_in_function_notation_is_said_to_be_the_polynomial_s_value(
    request_text: str, name: str, point: str
) -> None:
    (binding,) = bind(request_text, CHAT)
    assert binding.function_value == (name, point)
    p = binding.polynomial
    definition, value_line = binding.line().splitlines()[-1].removeprefix("- so ").split(", and ")
    assert definition == f"{name}({p.variable}) = {p.text}"
    assert value_line == f"{name}({point}) is its value at {p.variable} = {point}"
    # What the line tells the model to send is what the tool computes right.
    sent = compute("evaluate", {"expression": definition, "at": point})
    assert sent.ok, sent.text
    expected = p.expr.subs(p.variable, sp.Rational(point))
    assert sp.sympify(sent.text.split(" = ")[-1].split("≈")[0].replace("^", "**")) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "what's the cubic from before?",  # no value asked
        "compare f(1) and f(2) for the cubic from before",  # two values: read as written
        "f(1) for the first polynomial and the last equation",  # two polynomials
    ],
)
def test_no_function_value_unless_one_value_of_one_polynomial(request_text: str) -> None:
    assert all(b.function_value is None for b in bind(request_text, CHAT))


# The chat's latest turn: "differentiate it" after solving a^2 + 4a - 5 = 0.
DIFFERENTIATED = [
    *task("a1", "solve", equation="a^2 + 4a - 5 = 0"),
    *task("a2", "derivative", "differentiate it", expression="a^2 + 4a - 5", variable="a"),
]


@pytest.mark.parametrize(
    ("request_text", "phrase"),
    [
        ("plug a = -1 into it", "it"),
        ("substitute a=-1 in that", "that"),
        ("evaluate it at a = -1", "it"),
        ("what is it at a = -1?", "it"),
    ],
)
def test_it_right_after_a_derivative_is_that_derivative(request_text: str, phrase: str) -> None:
    (binding,) = bind(request_text, DIFFERENTIATED)
    assert binding.phrase == phrase and binding.point == "a = -1"
    assert binding.line() == (
        f'- "{phrase}" is 2*a + 4, the derivative found last\n'
        "- so the request asks for the value of 2*a + 4 at a = -1"
    )
    # What the line says to compute is what the evaluate tool computes.
    assert compute("evaluate", {"expression": "2*a + 4", "at": "a = -1"}).text == "2"


def test_it_is_a_constant_derivative_too_and_a_point_in_another_letter_is_left_out() -> None:
    second = [
        *task("b1", "solve", equation="b^2 + b - 12 = 0"),
        *task("b2", "derivative", "its second derivative?", expression="b^2 + b - 12", order=2),
    ]
    (binding,) = bind("plug b = 2 into it", second)
    assert binding.polynomial.text == "2" and binding.point == "b = 2"
    (other,) = bind("plug x = 2 into it", DIFFERENTIATED)
    assert other.point is None and other.polynomial.text == "2*a + 4"


@pytest.mark.parametrize(
    ("chat", "request_text"),
    [
        (DIFFERENTIATED, "differentiate it again"),  # no value asked
        (DIFFERENTIATED[:4], "plug a = -1 into it"),  # after a solve: "it" is the polynomial
        (  # after a definite integral, a number
            [*DIFFERENTIATED, *task("i", "integral", "integrate it", expression="2a + 4",
                                    lower="0", upper="1")],
            "plug a = 1 into it",
        ),
        (  # a turn between: "it" may be anything
            [*DIFFERENTIATED, UserMessage(text="thanks!"),
             AssistantMessage(text="You're welcome.", task_status="COMPLETED")],
            "plug a = 1 into it",
        ),
    ],
)  # fmt: skip
def test_it_is_bound_only_to_a_result_just_found(chat: list[Message], request_text: str) -> None:
    assert all(b.result_of is None for b in bind(request_text, chat))
