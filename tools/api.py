"""The public tools. Each returns a ToolResult and never raises.

Why a thin layer: argument checks that are cheap and need no SymPy (types, text length)
happen here, so a 1 MB string never reaches the worker; everything else runs in the bounded
worker process (see ``tools.worker``). Each function takes an optional keyword-only
``timeout`` in seconds that overrides ``MATH_AGENT_TOOL_TIMEOUT`` and ``limits.set_timeout``.
KeyboardInterrupt and SystemExit are deliberately not swallowed (the worker is replaced first).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import sympy as sp

from tools import limits, worker
from tools.errors import ToolError
from tools.registry import summarize
from tools.result import ToolResult

_PLAIN = (str, int, float, Fraction, Decimal, sp.Basic, type(None))


def solve(
    equation: str,
    variable: str | None = None,
    domain: str | None = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """Roots of an equation (or of an expression set to 0); value is a list of exact roots.

    ``domain`` ("real", "positive", "nonnegative", "t >= 0", "0 <= x <= 5", "[0, 5]",
    "(0, oo)") keeps only the roots in it; None keeps today's answer (complex roots included).
    An inequality (``x^2 - 4 > 0``, ``|x - 1| < 3``, ``-1 < 2x + 3 <= 7``) gives the set of
    real x where it holds (an ``Interval``/``Union``), cut to the domain when there is one.
    """
    kwargs: dict[str, Any] = {"equation": equation, "variable": variable}
    if domain is not None:
        kwargs["domain"] = domain
    return _run("solve", kwargs, timeout)


def solve_system(
    equations: str | list[str],
    variables: str | list[str] | None = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """2-3 linear or polynomial equations; value is a list of ``{Symbol: value}`` solutions."""
    return _run("solve_system", {"equations": equations, "variables": variables}, timeout)


def extrema(
    expression: str,
    variable: str | None = None,
    lower: Any = None,
    upper: Any = None,
    kind: str | None = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """Critical points and absolute extremes; ``kind="max"``/``"min"``: value is that extreme."""
    return _run(
        "extrema",
        {
            "expression": expression,
            "variable": variable,
            "lower": lower,
            "upper": upper,
            "kind": kind,
        },
        timeout,
    )


def tangent(
    expression: str, at: Any, variable: str | None = None, *, timeout: float | None = None
) -> ToolResult:
    """The tangent line at ``at``; value is the right side of ``y = m*x + b``."""
    return _run("tangent", {"expression": expression, "at": at, "variable": variable}, timeout)


def transform(expression: str, how: str, *, timeout: float | None = None) -> ToolResult:
    """``how`` is "simplify", "factor" (over the rationals) or "expand"; value is the result."""
    return _run("transform", {"expression": expression, "how": how}, timeout)


def function_fact(expression: str, what: str, *, timeout: float | None = None) -> ToolResult:
    """``what`` is "domain", "range" or "inverse" of a function of one variable, over the
    reals; value is the set or the inverse's expression."""
    return _run("function_fact", {"expression": expression, "what": what}, timeout)


def limit(
    expression: str,
    at: Any,
    variable: str | None = None,
    direction: str | None = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """The limit at a number or ``oo``; ``direction`` "+"/"-"/None (two-sided)."""
    return _run(
        "limit",
        {"expression": expression, "at": at, "variable": variable, "direction": direction},
        timeout,
    )


def series(
    expression: str,
    at: Any = "0",
    degree: int = 5,
    variable: str | None = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """The Taylor polynomial around ``at`` up to and including power ``degree``; value is the
    polynomial."""
    return _run(
        "series",
        {"expression": expression, "at": at, "degree": degree, "variable": variable},
        timeout,
    )


def derivative(
    expression: str,
    variable: str | None = None,
    order: int = 1,
    at: Any = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """The order-th derivative; value is a SymPy expression, or with a point ``at`` the
    derivative's value there."""
    arguments = {"expression": expression, "variable": variable, "order": order}
    return _run("derivative", arguments if at is None else {**arguments, "at": at}, timeout)


def evaluate(
    expression: str,
    at: Any,
    variable: str | None = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """The exact value at a point: ``at`` is a number, text, ``"x=1, y=2"`` or a mapping."""
    return _run("evaluate", {"expression": expression, "at": at, "variable": variable}, timeout)


def integral(
    expression: str,
    variable: str | None = None,
    lower: Any = None,
    upper: Any = None,
    *,
    timeout: float | None = None,
) -> ToolResult:
    """Antiderivative (text ends with ``+ C``) or definite integral (bounds may be infinite)."""
    return _run(
        "integral",
        {"expression": expression, "variable": variable, "lower": lower, "upper": upper},
        timeout,
    )


def _run(tool: str, kwargs: dict[str, Any], timeout: float | None) -> ToolResult:
    summary = tool
    try:
        summary = summarize(tool, kwargs)
        problem = _precheck(kwargs)
        if problem:
            return ToolResult.failure(tool, summary, problem)
        return worker.call(tool, kwargs, limits.get_timeout(timeout))
    except ToolError as exc:
        return ToolResult.failure(tool, summary, exc.message)
    except Exception as exc:
        detail = " ".join(str(exc).split())[:160]
        return ToolResult.failure(
            tool, summary, f"Internal error in the {tool} tool ({type(exc).__name__}): {detail}"
        )


def _precheck(kwargs: dict[str, Any]) -> str | None:
    """Refuse oversized or exotic arguments before they are sent to the worker."""
    for key, value in kwargs.items():
        if isinstance(value, Mapping):
            items = list(value.items())
        elif isinstance(value, (list, tuple)):
            items = [(None, item) for item in value]
        else:
            items = [(None, value)]
        if len(items) > 50:
            return f"Too many values in '{key}' (at most 50)."
        for sub_key, item in items:
            for part in (sub_key, item):
                if not isinstance(part, _PLAIN):
                    return f"'{key}' must be text or a number, not {type(part).__name__}."
                if isinstance(part, str):
                    problem = limits.check_text_length(part, f"The {key}")
                    if problem:
                        return problem
                if isinstance(part, sp.Basic) and len(sp.srepr(part)) > 20 * limits.MAX_INPUT_CHARS:
                    return f"The {key} is too large."
    return None
