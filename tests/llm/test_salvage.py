"""A tool call with its math under `response` is read as the call it meant; nothing else is."""

from __future__ import annotations

import pytest

from agent.calls.pending import as_run
from agent.llm.salvage import math_fields, misplaced_response, names_a_math_tool
from baml_client.types import (
    ExtremaFinder,
    QuadraticEvaluator,
    QuadraticSolver,
    Rewriter,
    TaskRecall,
)


def test_each_tool_has_its_math_field_from_the_generated_union() -> None:
    # solve_system's math is a list (a `response` is one text): it has no such field.
    assert math_fields() == {
        "solve": "equation",
        "derivative": "expression",
        "evaluate": "expression",
        "integral": "expression",
        "extrema": "expression",
        "maximum": "expression",
        "minimum": "expression",
        "tangent": "expression",
        "simplify": "expression",
        "factor": "expression",
        "expand": "expression",
        "domain": "expression",
        "range": "expression",
        "inverse": "expression",
        "limit": "expression",
        "series": "expression",
        "recall": "query",
    }


def test_each_literal_of_the_rewriting_class_is_its_own_tool() -> None:
    step = misplaced_response('{"response": "x^2 - 1", "tool": "factor"}')
    assert step == Rewriter(tool="factor", expression="x^2 - 1")


def test_the_reply_seen_on_the_embedded_model_is_the_evaluate_call_it_meant() -> None:
    step = misplaced_response('{"response": "12 + (5 - 2) - -6", "tool": "evaluate", "at": []}')
    assert step == QuadraticEvaluator(tool="evaluate", expression="12 + (5 - 2) - -6", at=[])


def test_fenced_replies_and_other_tools_too() -> None:
    fenced = '```json\n{"response": "x^2 - 1 = 0", "tool": "solve", "variable": "x"}\n```'
    assert misplaced_response(fenced) == QuadraticSolver(
        tool="solve", equation="x^2 - 1 = 0", variable="x"
    )
    recall = misplaced_response('{"response": "question 3", "tool": "recall"}')
    assert recall == TaskRecall(tool="recall", query="question 3")


def test_with_no_tool_field_a_field_only_one_tool_has_names_it() -> None:
    # seen in a full `sessions` run: the user got "not a valid tool call"
    step = misplaced_response('{"response": "4 * (9s^2 - 9s)", "at": []}')
    assert step == QuadraticEvaluator(tool="evaluate", expression="4 * (9s^2 - 9s)", at=[])
    # several tools take the field: the one that requires it (evaluate its list of points, a
    # tangent its one point), not one that only may take it (a derivative's points, a series')
    step = misplaced_response('{"response": "x^2", "at": ["3"]}')
    assert step == QuadraticEvaluator(tool="evaluate", expression="x^2", at=["3"])
    tangent = misplaced_response('{"response": "x^2", "at": "3"}')
    assert tangent is not None and tangent.tool == "tangent" and tangent.at == "3"
    kind = misplaced_response('{"response": "x^2", "kind": "min"}')
    assert kind is not None and kind.expression == "x^2"  # named by the class's first literal
    assert as_run(kind) == ExtremaFinder(tool="extrema", expression="x^2", kind="min")
    direction = misplaced_response('{"response": "1/x", "to": "0", "direction": "left"}')
    assert direction is not None and direction.tool == "limit" and direction.to == "0"


@pytest.mark.parametrize(
    "raw",
    [
        '{"response": "x^2", "variable": "x"}',  # every tool has a variable: which one?
        '{"response": "x^2"}',  # nothing names a tool
        '{"response": "x^2", "tool": "integrate"}',  # no such tool
        # integral and extrema both take bounds: which one?
        '{"response": "x^2", "lower": "0", "upper": "1"}',
        '{"response": "hi", "tool": "solve", "equation": "x = 1"}',  # its field is there
        '{"response": "   ", "tool": "solve"}',  # no math
        '{"response": 5, "tool": "solve"}',
        # An answer mislabelled as a call (seen too): a sentence is not math.
        '{"response": "The value of the expression at p = 3 is 0.", "tool": "evaluate", "at": ["3"]}',
        '{"response": "The roots are 1 and 2.", "tool": "message_to_user", "task_status": "X"}',
        '{"response": "x^2", "tool": "integral", "lower": ',  # not JSON
        "I think it is five.",
        "[1, 2]",
    ],
)
def test_anything_else_is_left_to_the_repair_round(raw: str) -> None:
    assert misplaced_response(raw) is None


def test_a_combination_of_values_named_as_a_tool_is_its_evaluate_call() -> None:
    step = misplaced_response('{"tool": "min", "expression": "#2", "at": []}')
    assert step is not None and step.tool == "evaluate" and step.expression == "min(#2)"
    assert misplaced_response('{"tool": "median", "expression": "#2"}') is None


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ('```json { "response": "The line is y = 10 (#1).", "tool": "tangent", "a', True),
        ('{"tool": "evaluate", "expression": ', True),
        ('{"response": "x = 2", "tool": "message_to_user", "task_status": "COMPLETED"', False),
        ('{"tool": "recall", "query": ', False),
        ("the roots are coming", False),
    ],
)
def test_a_bad_reply_that_names_a_math_tool_meant_its_call(raw: str, named: bool) -> None:
    assert names_a_math_tool(raw) is named
