"""BAML tool class -> tools/ function. The only place that knows both sides.

Adding a tool: a class with a literal `tool` in baml_src/math_chat.baml, a function in
tools/, and one branch here.
"""

from __future__ import annotations

from collections.abc import Callable

import tools
from agent.llm.model import ToolStep
from baml_client.types import (
    ExtremaFinder,
    IntegralSolver,
    LimitFinder,
    QuadraticDerivative,
    QuadraticEvaluator,
    QuadraticSolver,
    Rewriter,
    SeriesExpansion,
    SystemSolver,
    TangentLine,
)
from tools import ToolResult
from tools.calculus import AT_A_POINT
from tools.function_facts import FACTS
from tools.worded import worded_arithmetic


def run_tool(step: ToolStep) -> ToolResult:
    """Run the SymPy tool a step asks for; tools never raise, and neither does this."""
    if isinstance(step, QuadraticSolver):
        return tools.solve(step.equation, step.variable, step.domain)
    if isinstance(step, SystemSolver):
        return tools.solve_system(step.equations, step.variables)
    if isinstance(step, QuadraticDerivative):
        if not step.at:
            return tools.derivative(step.expression, step.variable, step.order or 1)
        return _at_each_point(
            "derivative",
            step.expression,
            step.at,
            lambda point: tools.derivative(step.expression, step.variable, step.order or 1, point),
        )
    if isinstance(step, QuadraticEvaluator):
        return _evaluate_points(step)
    if isinstance(step, IntegralSolver):
        return tools.integral(step.expression, step.variable, step.lower, step.upper)
    if isinstance(step, ExtremaFinder):
        return tools.extrema(step.expression, step.variable, step.lower, step.upper, step.kind)
    if isinstance(step, TangentLine):
        return tools.tangent(step.expression, step.at, step.variable)
    if isinstance(step, Rewriter) and step.tool in FACTS:  # a function's domain, range, inverse
        return tools.function_fact(step.expression, what=step.tool)
    if isinstance(step, Rewriter):  # the literal says how: simplify, factor or expand
        return tools.transform(step.expression, how=step.tool)
    if isinstance(step, LimitFinder):  # direction "left"/"right": the tool reads both words
        return tools.limit(step.expression, step.to, step.variable, step.direction)
    if isinstance(step, SeriesExpansion):
        at = step.at if step.at is not None else "0"
        degree = step.degree if step.degree is not None else 5  # 0 is a degree (the value)
        return tools.series(step.expression, at, degree, step.variable)
    return ToolResult.failure("unknown", repr(step), f"Unknown tool call: {step!r}")


MAX_EVALUATION_POINTS = 20


def _evaluate_points(step: QuadraticEvaluator) -> ToolResult:
    """One evaluation per requested point, reported together (a bounded number of points)."""
    points = step.at or []
    if not points:  # a closed expression is just computed; one with variables says it needs a point
        return tools.evaluate(step.expression, None, step.variable)
    # "sum of the roots" at the roots: the arithmetic the words name, on those values.
    if (written := worded_arithmetic(step.expression, points)) is not None:
        return tools.evaluate(written, None, step.variable)
    return _at_each_point(
        "evaluate",
        step.expression,
        points,
        lambda point: tools.evaluate(step.expression, point, step.variable),
    )


def _at_each_point(
    tool: str, expression: str, points: list[str], run: Callable[[str], ToolResult]
) -> ToolResult:
    """One run per point (a bounded number), reported together as one result."""
    if len(points) > MAX_EVALUATION_POINTS:
        return ToolResult.failure(
            tool,
            expression,
            f"Too many points ({len(points)}): give at most {MAX_EVALUATION_POINTS} at once.",
        )
    results = [run(point) for point in points]
    if len(results) == 1:
        return results[0]
    ok = all(r.ok for r in results)
    # a value's text says its point ("x**2 = 9 at x = -3"); an error's does not
    text = "; ".join(
        r.text if r.ok else f"at {point}: {r.text}"
        for point, r in zip(points, results, strict=True)
    )
    if ok:
        text = _said_once(text, [r.text for r in results])
    errors = [r.error for r in results if r.error]
    return ToolResult(
        ok=ok,
        value=[r.value for r in results],
        text=text,
        error="; ".join(errors) if errors else None,
        tool=tool,
        input=f"{expression} at {', '.join(points)}",
    )


def _said_once(joined: str, texts: list[str]) -> str:
    """`d/dx (f) = f', which at x = 1 is 0, at x = 2 is 9`: the derivative the values share
    is stated once, not before each value."""
    cut = texts[0].rfind(AT_A_POINT)
    head = texts[0][: cut + len(AT_A_POINT)]
    if cut < 0 or not all(t.startswith(head) for t in texts):
        return joined
    return head + ", ".join(t[len(head) :] for t in texts)
