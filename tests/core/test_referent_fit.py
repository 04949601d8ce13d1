"""Tool calls checked against the polynomial or roots a request names."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.core.referent_fit import ignored_polynomial, left_out_roots, value_call
from agent.core.referents import bind
from agent.core.tool_fit import speaks_of_derivative
from tests.core.test_referents import CHAT, DIFFERENTIATED
from tools.registry import compute

# CHAT's polynomials: q^2 + 6q + 8 = 0 (first; roots -4, -2), q^4 + 8q^3 + 17q^2 - 2q - 24 = 0,
# 2r^3 (integrated), x^3 - 13x + 12 = 0 (last, the cubic; roots -4, 1, 3).
SECOND_OF_FIRST = "and the second derivative of the first polynomial"


def check(request: str, tool: str, done: tuple[str, ...] = (), **arguments: object) -> str | None:
    return ignored_polynomial(bind(request, CHAT), tool, dict(arguments), list(done))


def test_arithmetic_on_their_values_that_leaves_some_out_is_questioned() -> None:
    request = "what are their squares?"  # the roots of x^3 - 13x + 12 = 0: -4, 1, 3
    reason = left_out_roots(bind(request, CHAT), "(-4)^2")
    assert reason is not None and "-4, 1, 3" in reason and "leaves out 1, 3" in reason
    # Every root written (as values or as points); an exponent is not a value.
    assert left_out_roots(bind(request, CHAT), "(-4)^2, 1^2, 3^2") is None
    assert left_out_roots(bind(request, CHAT), "x^2 -4 1 3") is None
    assert left_out_roots(bind(request, CHAT), "(-4)^2, (-1)^3") is not None
    assert left_out_roots(bind(request, CHAT), "(-4)^3, 1^3") is not None
    # No plural reference to roots, or no number in the call: nothing to check.
    assert left_out_roots(bind("what is 4^2?", CHAT), "4^2") is None
    assert left_out_roots(bind(request, CHAT), "x^2") is None


def test_a_derivative_of_other_math_than_the_named_polynomial_is_questioned() -> None:
    # Seen: the quartic's derivative, or the latest polynomial, differentiated instead.
    reason = check(SECOND_OF_FIRST, "derivative", expression="4q^3 + 24q^2 + 34q - 2", order=2)
    assert reason is not None
    assert '"the first polynomial" in the request is q^2 + 6q + 8' in reason
    assert "works on 4*q^3 + 24*q^2 + 34*q - 2" in reason
    assert check(SECOND_OF_FIRST, "derivative", expression="x^3 - 13x + 12", order=2)


def sent_instead(reason: str | None) -> dict[str, object]:
    """The call a question writes out for the model to send."""
    assert reason is not None and "Send this call instead: " in reason
    return json.loads(reason.split("Send this call instead: ", 1)[1])


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        # The ledger's record of an earlier result, copied, in another letter and as order 2.
        ("derivative", {"expression": "2*(6*x**2 + 24*x + 17)", "variable": "x", "order": 2},
         {"expression": "q^2 + 6q + 8", "variable": "q", "order": 2}),
        ("derivative", {"expression": "d^2/dq^2 (4q^3 + 1)"},
         {"expression": "q^2 + 6q + 8", "variable": "q", "order": 2}),
        ("integral", {"expression": "integrate 2q + 7 from 0 to 2"},
         {"expression": "q^2 + 6q + 8", "variable": "q", "lower": "0", "upper": "2"}),
    ],
)  # fmt: skip
def test_the_question_writes_the_call_to_send_and_that_call_passes(
    tool: str, arguments: dict[str, object], expected: dict[str, object]
) -> None:
    request = (
        f"the {'second derivative' if tool == 'derivative' else 'integral'} of the first polynomial"
    )
    call = sent_instead(check(request, tool, **arguments))
    assert call == {"tool": tool, **expected}
    del call["tool"]
    assert check(request, tool, **call) is None
    assert compute(tool, call).ok


@pytest.mark.parametrize(
    "arguments",
    [
        {"expression": "q^2 + 6q + 8", "order": 2},
        {"expression": "8 + q*(q + 6)", "variable": "q", "order": 2},  # any form
        {"expression": "d/dq (q^2 + 6q + 8)", "order": 2},  # the operator written around it
        {"expression": "f(q) = q^2 + 6q + 8", "order": 2},
    ],
)
def test_a_derivative_of_the_named_polynomial_passes(arguments: dict[str, object]) -> None:
    assert check(SECOND_OF_FIRST, "derivative", **arguments) is None


@pytest.mark.parametrize(
    "arguments",
    [
        # How the model wrote "integrate the original polynomial from 0 to 2" (all right):
        # the check reads the math as the integral tool reads it.
        {"expression": "int_0^2 (q^2 + 6q + 8) dq", "variable": "q"},
        {"expression": "integrate (q^2 + 6q + 8) dq", "lower": "0", "upper": "2"},
        {"expression": "integrate q^2 + 6q + 8 from 0 to 2"},
        {"expression": "∫_0^2 q^2 + 6q + 8 dq"},
    ],
)
def test_an_integral_of_the_named_polynomial_in_any_notation_passes(
    arguments: dict[str, object],
) -> None:
    request = "integrate the first polynomial from 0 to 2"
    assert check(request, "integral", **arguments) is None
    wrong = {**arguments, "expression": str(arguments["expression"]).replace("8", "9")}
    assert check(request, "integral", **wrong) is not None


def test_the_named_polynomial_in_another_letter_is_questioned_with_the_call_in_its_own() -> None:
    # Seen on `none` and `window`: 6x + 16 answered for the first polynomial, in w.
    for tool, arguments in [
        ("derivative", {"expression": "x^2 + 6x + 8", "variable": "x", "order": 2}),
        ("integral", {"expression": "∫_0^2 x^2 + 6x + 8 dx"}),
    ]:
        reason = check(f"the {tool} of the first polynomial", tool, **arguments)
        assert reason is not None and "in q, and this call writes it in x" in reason
        call = sent_instead(reason)
        assert call["expression"] == "q^2 + 6q + 8" and call["variable"] == "q"


def test_results_of_the_turn_and_derivatives_of_the_named_polynomial_pass() -> None:
    # Differentiated once, then once more: the second call works on the first's result.
    first = "d/dq (q**2 + 6*q + 8) = 2*q + 6"
    assert check(SECOND_OF_FIRST, "derivative", (first,), expression="2q + 6") is None
    assert check(SECOND_OF_FIRST, "derivative", expression="2q + 6") is not None
    # "the derivative of the first polynomial at q = 1" may be evaluated from its derivative.
    request = "evaluate the derivative of the first polynomial at q = 1"
    assert check(request, "evaluate", expression="2q + 6", at=["q = 1"]) is None
    assert check("integrate the first polynomial", "integral", expression="2q + 6") is None
    assert check("integrate the first polynomial", "integral", expression="q^3 + 1") is not None


@pytest.mark.parametrize(
    ("arguments", "questioned"),
    [
        ({"expression": "4^4 - 15*4^2 + 10*4 + 24", "at": []}, True),  # another polynomial
        ({"expression": "1076/15", "at": []}, True),
        ({"expression": "f(4)", "at": ["4"]}, True),  # no definition
        ({"expression": "4 * (x^2 + 1)", "at": ["x=4"]}, True),
        ({"expression": "4^3 - 13*4 + 12", "at": []}, False),  # the value asked for: 24
        ({"expression": "f(x) = x^3 - 13x + 12", "at": ["4"]}, False),
        ({"expression": "m^3 - 13m + 12", "at": ["m = 4"]}, False),
    ],
)
def test_f_of_a_named_polynomial(arguments: dict[str, object], questioned: bool) -> None:
    reason = check("what's f(4) for the cubic from before?", "evaluate", **arguments)
    assert (reason is not None) is questioned
    if reason is not None:
        assert reason.endswith(
            'Send this call instead: {"tool": "evaluate", "expression": "f(x) = x^3 - 13x + 12", '
            '"at": ["4"]}'
        )


def test_the_named_polynomial_at_a_named_root() -> None:
    # The first equation's largest root is -2; the last polynomial there is 30.
    request = "plug the largest root of the first equation into the last polynomial"
    assert check(request, "evaluate", expression="x^3 - 13x + 12", at=["x = -2"]) is None
    assert check(request, "evaluate", expression="(-2)^3 - 13*(-2) + 12", at=[]) is None
    reason = check(request, "evaluate", expression="(-2)^2 + 6*(-2) + 8", at=[])
    assert reason is not None and '"at": ["x = -2"]' in reason
    reason = check(request, "evaluate", expression="4 * (x^3 - 13x + 12)", at=["x = -2"])
    assert reason is not None and "x^3 - 13x + 12" in reason


@pytest.mark.parametrize(
    ("request_text", "tool", "arguments"),
    [
        ("what's the derivative of x^5?", "derivative", {"expression": "x^5"}),  # names none
        ("solve the first polynomial", "solve", {"equation": "x^2 = 1"}),  # not checked
        ("what is 2 + 2?", "evaluate", {"expression": "2 + 2"}),
        # Closed arithmetic the request's words do not fix.
        ("evaluate the first polynomial", "evaluate", {"expression": "3^2", "at": []}),
        # Unreadable math: the tool says why.
        (SECOND_OF_FIRST, "derivative", {"expression": "q^^2"}),
    ],
)
def test_nothing_to_check(request_text: str, tool: str, arguments: dict[str, object]) -> None:
    assert check(request_text, tool, **arguments) is None


@settings(max_examples=40, deadline=None)
@given(
    letter=st.sampled_from("abcmnpqstwxyz"),
    shift=st.integers(-20, 20).filter(lambda k: k != 0),
    order=st.integers(1, 3),
)
def test_the_named_polynomial_in_any_form_passes_in_its_letter_and_a_shifted_one_never(
    letter: str, shift: int, order: int
) -> None:
    quartic = f"{letter}^4 + 8{letter}^3 + 17{letter}^2 - 2{letter} - 24"
    request = "the derivative of the quartic from before"  # q^4 + 8q^3 + ...
    reason = check(request, "derivative", expression=quartic, order=order)
    if letter == "q":
        assert reason is None
    else:  # right math in another letter: the person reads their own letter
        assert reason is not None and reason.startswith("Check the letter")
        assert sent_instead(reason)["variable"] == "q"
    assert check(request, "derivative", expression="8q^3 + q^4 - 24 + 17q^2 - 2q") is None
    shifted = f"{quartic} + ({shift})"
    reason = check(request, "derivative", expression=shifted, order=order)
    assert reason is not None and reason.startswith("Check the math")


def test_a_value_of_it_right_after_a_derivative_is_checked_against_that_derivative() -> None:
    # Seen: "plug b = 2 into it" after a constant second derivative evaluated the polynomial.
    request = "plug a = -1 into it"  # "it" is 2*a + 4, the derivative just found
    bindings = bind(request, DIFFERENTIATED)
    call = '{"tool": "evaluate", "expression": "2*a + 4", "at": ["a = -1"]}'
    assert value_call(bindings) == call
    wrong = ignored_polynomial(bindings, "evaluate", {"expression": "(-1)^2 + 4*(-1) - 5"})
    assert wrong is not None and wrong.endswith(f"Send this call instead: {call}")
    polynomial = {"expression": "a^2 + 4a - 5", "at": ["a = -1"]}
    assert ignored_polynomial(bindings, "evaluate", polynomial) is not None
    for right in (
        {"expression": "2*(-1) + 4", "at": []},
        {"expression": "2a + 4", "at": ["-1"]},
        {"expression": "f(a) = 2a + 4", "at": ["a = -1"]},
    ):
        assert ignored_polynomial(bindings, "evaluate", right) is None, right


def test_a_derivative_of_the_named_polynomial_passes_only_when_the_words_speak_of_one() -> None:
    # Seen with `ledger`: "integrate the polynomial itself" integrated the derivative just
    # found. "x^3 - 13x + 12" is the last polynomial; 3x^2 - 13 its derivative.
    for request, questioned in [
        ("now integrate the polynomial itself from 0 to 2", True),
        ("integrate the derivative of the last polynomial from 0 to 2", False),
        ("evaluate the slope of the last polynomial at x = 1", False),
    ]:
        arguments = {"expression": "3x^2 - 13", "lower": "0", "upper": "2"}
        tool = "integral" if "integrate" in request else "evaluate"
        if tool == "evaluate":
            arguments = {"expression": "3x^2 - 13", "at": ["x = 1"]}
        bindings = bind(request, CHAT)
        reason = ignored_polynomial(bindings, tool, arguments, (), speaks_of_derivative(request))
        assert (reason is not None) is questioned, request


def test_a_list_of_values_without_the_value_the_words_fix_is_questioned() -> None:
    # Seen: "f(4) for the cubic from before" sent as "4, 24" at m=4; the value is 24 here.
    request = "what's f(4) for the cubic from before?"
    assert check(request, "evaluate", expression="4, 0", at=["x=4"]) is not None
    assert check(request, "evaluate", expression="4, 24", at=["x=4"]) is None
    assert check("what are 4 and 0?", "evaluate", expression="4, 0", at=[]) is None
