"""A function applied to another's value, and a function fact's noun echoed in its field."""

from __future__ import annotations

import pytest

from agent.calls.resolve import resolve_arguments
from agent.calls.said_once import said_once
from agent.messages import UserMessage
from agent.workspace.building import build


@pytest.mark.parametrize(
    ("expression", "resolved"),
    [
        ("f(g(3))", "(35)"),
        ("f(g(x))", "(4*x**2 - 1)"),
        ("g(f(g(1)))", "(6)"),
        ("f(g(x)) + g(2)", "(4*x**2 - 1) + (4)"),
    ],
)
def test_a_function_of_a_functions_value_takes_that_value(expression: str, resolved: str) -> None:
    composed = build([UserMessage(text="f(x) = x^2 - 1 and g(x) = 2x")])
    arguments = resolve_arguments("evaluate", {"expression": expression, "at": []}, composed)
    assert arguments["expression"] == resolved


def test_the_name_of_a_function_fact_before_its_math_is_the_call_itself() -> None:
    defined = build([UserMessage(text="let h(t) = e^(2t) - 1. its inverse?")])
    assert said_once("inverse", {"expression": "inverse of h"}, defined) == {"expression": "h"}
    assert said_once("domain", {"expression": "domain of h"}, defined) == {"expression": "h"}


@pytest.mark.parametrize("written", ["k^-1(x)", "k^(-1)(x)", "k⁻¹(x)", "k^-1", " k^( -1 ) "])
def test_an_inverse_call_on_the_inverses_notation_is_on_the_function(written: str) -> None:
    defined = build([UserMessage(text="k(x) = 4/(x - 1). find k^-1(x)")])
    assert said_once("inverse", {"expression": written}, defined) == {"expression": "k"}
    assert (
        said_once("evaluate", {"expression": written, "at": []}, defined)["expression"] == written
    )
