"""What each tool's value becomes in the workspace, and that every tool's math fields resolve."""

from __future__ import annotations

import pytest
import sympy as sp

from agent.calls.resolve import MATH_FIELDS
from agent.llm.step_schema import literal_tools, step_members
from agent.workspace.results import result_kind, result_values
from baml_client.types import MessageToUser, TaskRecall

x, y = sp.symbols("x y")


@pytest.mark.parametrize(
    ("value", "texts"),
    [
        ([sp.Integer(-3), sp.Integer(-2)], ("-3", "-2")),
        (sp.Integer(21), ("21",)),
        (sp.oo, ("oo",)),  # no maximum: the supremum, which a later call reads back
        ([{x: 2, y: 1}], ("x = 2, y = 1",)),  # a system's solution: a point
        ([{x: 3 - y, y: y}], ("x = 3 - y, y = y",)),  # a free unknown stays itself
        (sp.Eq(x, 0), ("x = 0",)),  # a vertical tangent
        ([-sp.oo, sp.oo], ("-oo", "oo")),  # one-sided limits that differ
        (sp.AccumBounds(-1, 1), ()),  # an oscillating limit: nothing to point at
        ([], ()),  # no root in the domain, no solution of the system
        (None, ()),
        (list(range(51)), ()),  # more than an id could stand for
    ],
)
def test_each_value_shape_becomes_texts_a_tool_reads_back(value: object, texts: tuple) -> None:
    assert result_values(value) == texts


@pytest.mark.parametrize(
    ("tool", "arguments", "values", "kind"),
    [
        ("solve", {"domain": "real"}, ("1",), "roots"),
        ("solve_system", {}, ("x = 2, y = 1",), "solutions"),
        ("extrema", {"kind": "max"}, ("21",), "value"),
        ("extrema", {"kind": None}, ("2",), "values"),  # the critical points, even one
        ("tangent", {}, ("6*x - 9",), "expression"),
        ("tangent", {}, ("x = 0",), "equation"),
        ("factor", {}, ("(x - 1)*(x + 1)",), "expression"),
        ("limit", {}, ("2",), "value"),
        ("limit", {}, ("-oo", "oo"), "values"),
        ("series", {}, ("x - x**3/6",), "expression"),
        ("integral", {"lower": "0"}, ("1/3",), "value"),
        ("integral", {"lower": "0"}, ("pi/4",), "value"),
        ("integral", {"lower": "0", "upper": "t"}, ("t**4 - t**2",), "expression"),  # of t
        ("derivative", {}, ("2*x",), "expression"),
    ],
)
def test_each_result_has_a_kind(tool: str, arguments: dict, values: tuple, kind: str) -> None:
    assert result_kind(tool, arguments, values) == kind


def test_every_math_tool_of_the_union_has_its_math_fields_resolved() -> None:
    """A tool added to baml_src/ without its MATH_FIELDS would run on `#3` as text."""
    for member in step_members():
        if member in (MessageToUser, TaskRecall):
            continue
        for tool in literal_tools(member):
            fields = MATH_FIELDS.get(tool)
            assert fields, f"{tool} has no math fields in MATH_FIELDS"
            assert set(fields) <= set(member.model_fields), tool
