"""The labelled list of solved equations shown with a small model's request."""

from __future__ import annotations

import pytest

from agent import wire
from agent.core.equation_index import MAX_EQUATIONS, equation_index, solved_equations
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage

# Names the first task while a later one was the last: the index is shown.
FAR_BACK = "what were the roots of the very first one?"


def solved(call_id: str, equation: str, roots: str, ok: bool = True, **args: str) -> list[Message]:
    return [
        UserMessage(text=f"please solve {equation}"),
        ToolCall(call_id=call_id, tool="solve", arguments={"equation": equation, **args}),
        ToolResultMessage(call_id=call_id, tool="solve", ok=ok, text=roots),
        AssistantMessage(text=f"The roots are {roots}.", task_status="COMPLETED"),
    ]


def unrelated(call_id: str) -> list[Message]:
    """A finished task that solves nothing, so the equations before it are not the last task."""
    return [
        UserMessage(text="what is 6*7?"),
        ToolCall(call_id=call_id, tool="evaluate", arguments={"expression": "6*7", "at": []}),
        ToolResultMessage(call_id=call_id, tool="evaluate", ok=True, text="6*7 = 42"),
        AssistantMessage(text="It is 42.", task_status="COMPLETED"),
    ]


def test_nothing_solved_means_no_index() -> None:
    talk: list[Message] = [
        UserMessage(text="differentiate x^3"),
        ToolCall(call_id="d", tool="derivative", arguments={"expression": "x^3"}),
        ToolResultMessage(call_id="d", tool="derivative", ok=True, text="3*x**2"),
    ]
    assert equation_index(talk, FAR_BACK) is None
    assert equation_index([], FAR_BACK) is None


def test_every_equation_is_labelled_by_position_and_kind() -> None:
    talk = [
        *solved("a", "x^2 + 5x + 6 = 0", "x = -3, x = -2"),
        *solved("b", "t^3 + 9t^2 + 26t + 24 = 0", "t = -4, t = -3, t = -2", variable="t"),
        *solved("c", "2q - 8 = 0", "q = 4"),
    ]
    lines = equation_index(talk, FAR_BACK).splitlines()
    assert lines[1] == "- first; quadratic in x: x^2 + 5x + 6 = 0 -> x = -3, x = -2"
    assert lines[2].startswith("- second, before last; cubic in t: t^3 + 9t^2")
    assert lines[2].endswith("-> t = -4, t = -3, t = -2")
    assert lines[3] == "- third, last; linear in q: 2q - 8 = 0 -> q = 4"


def test_a_single_equation_is_the_only_one() -> None:
    talk = solved("a", "w^4 - 5w^2 + 4 = 0", "w = -2, w = -1, w = 1, w = 2")
    text = equation_index(talk, "which quartic did I give?")
    assert "- first, the only one; quartic in w: w^4 - 5w^2 + 4 = 0" in text


def test_two_equations_the_first_is_also_before_last() -> None:
    talk = [*solved("a", "x^2 - 1 = 0", "x = -1, x = 1"), *solved("b", "y^2 - 4", "y = -2, y = 2")]
    lines = equation_index(talk, FAR_BACK).splitlines()
    assert lines[1].startswith("- first, before last; quadratic in x")
    assert lines[2].startswith("- second, last; quadratic in y: y^2 - 4 ->")


def test_failed_repeated_and_non_polynomial_solves() -> None:
    talk = [
        *solved("a", "x^2 +* = 0", "Could not read the equation", ok=False),
        *solved("b", "sin(x) = 0", "general solution: x = pi*n (n any integer)"),
        *solved("c", "sin(x)  =  0", "general solution: x = pi*n (n any integer)"),
        *solved("d", "a*x^2 + b = 0", "x = ..."),
    ]
    equations = solved_equations(talk)
    assert [e.equation for e in equations] == ["sin(x) = 0", "a*x^2 + b = 0"]
    lines = equation_index(talk, FAR_BACK).splitlines()
    # No kind when it is not a polynomial, or the variable is not said among several letters.
    assert (
        lines[1] == "- first, before last: sin(x) = 0 -> general solution: x = pi*n (n any integer)"
    )
    assert lines[2] == "- second, last: a*x^2 + b = 0 -> x = ..."


def test_a_named_variable_among_several_letters_gives_the_kind() -> None:
    talk = solved("a", "a*x^2 + b = 0", "x = ...", variable="x")
    text = equation_index([*talk, *unrelated("e")], FAR_BACK)
    assert "quadratic in x" in text


def test_a_long_session_lists_its_latest_equations_with_their_true_positions() -> None:
    talk = [
        m for n in range(MAX_EQUATIONS + 2) for m in solved(f"c{n}", f"x - {n} = 0", f"x = {n}")
    ]
    lines = equation_index(talk, FAR_BACK).splitlines()[1:]
    assert len(lines) == MAX_EQUATIONS
    assert lines[0].startswith("- third; linear in x: x - 2 = 0")
    assert lines[-1].startswith(f"- #{MAX_EQUATIONS + 2}, last;")


def test_long_root_lists_are_not_copied() -> None:
    roots = ", ".join(f"x = {n}" for n in range(60))
    talk = [*solved("a", "x^60 - 1 = 0", roots), *unrelated("e")]
    assert "(see the tool result)" in equation_index(talk, FAR_BACK)


GATE_TALK = [
    *solved("a", "x^2 + 5x + 6 = 0", "x = -3, x = -2"),
    *solved("b", "t^3 + 9t^2 + 26t + 24 = 0", "t = -4, t = -3, t = -2"),
    *unrelated("e"),
]


@pytest.mark.parametrize(
    "request_text",
    [
        "plug the largest root of the first equation into the last polynomial",
        "differentiate the polynomial of the equation before last",
        "what's f(4) for the cubic from before?",
        "go back to the quadratic: what was its derivative?",
        "two questions back, what did you find?",
        "the 2nd problem's roots, please",
        "what did you get for question 1?",
    ],
)
def test_shown_with_a_request_that_names_an_earlier_task_or_an_equations_kind(
    request_text: str,
) -> None:
    assert equation_index(GATE_TALK, request_text) is not None


@pytest.mark.parametrize(
    "request_text",
    [
        "evaluate that at t = 2",  # "that", "it", "them": the latest result, which the list
        "add them up",  # would draw the model away from
        "differentiate it",
        "what's the last result times 3?",  # the previous task, named by position
        "solve y^2 - 4 = 0",
        "solve y^2 - 4 and give its roots",  # roots of a new equation
        "find the roots of the derivative",  # roots of something: a new task
        "I'm Ana, by the way",
    ],
)
def test_not_shown_with_a_request_about_the_latest_result_or_a_new_one(request_text: str) -> None:
    assert equation_index(GATE_TALK, request_text) is None


@pytest.mark.parametrize(
    "request_text",
    ["what were the roots again?", "which roots did you find?", "multiply the solutions together"],
)
def test_roots_asked_for_again_show_the_latest_equation_alone(request_text: str) -> None:
    # "the roots", named no other way, are the latest ones: shown the whole list, the model
    # gave every root of the chat.
    shown = equation_index(GATE_TALK, request_text)
    assert shown == (
        f"{wire.LAST_EQUATION_HEADER}\n"
        "- last; cubic in t: t^3 + 9t^2 + 26t + 24 = 0 -> t = -4, t = -3, t = -2"
    )


def test_roots_of_a_named_equation_show_that_equation_alone() -> None:
    shown = equation_index(GATE_TALK, "what were the roots of the first equation again?")
    assert shown is not None and shown.startswith(wire.REFERENTS_HEADER)
    assert '"the first equation" is x^2 + 5x + 6' in shown and "t^3" not in shown
