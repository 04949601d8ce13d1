"""The boundary inside the worker: tool name -> computation, every exception -> ToolResult.

Why a registry of names: the parent process sends only a tool name and plain arguments over
the pipe, never code. Two private entries (``_spin``, ``_crash``) are test hooks for the
timeout and crash handling; the public API never sends them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import sympy as sp

from tools.calculus import derivative, integral
from tools.domains import solve_in_domain
from tools.errors import ToolError
from tools.evaluation import evaluate
from tools.extrema import extrema
from tools.function_facts import function_fact
from tools.limit_tool import limit
from tools.result import ToolResult
from tools.series import series
from tools.systems import solve_system
from tools.tangent import tangent
from tools.transforms import transform


def _spin(seconds: float = 60.0) -> ToolResult:
    """Test hook: burn CPU (not sleep) so only a real kill can stop it."""
    end = time.monotonic() + float(seconds)
    while time.monotonic() < end:
        sum(range(1000))
    return ToolResult.success("_spin", f"spin {seconds}", sp.Integer(0), "done spinning")


def _crash() -> ToolResult:
    """Test hook: die the way a segfault or the OOM killer would."""
    os._exit(3)


COMPUTE: dict[str, Callable[..., ToolResult]] = {
    "solve": solve_in_domain,
    "derivative": derivative,
    "evaluate": evaluate,
    "integral": integral,
    "solve_system": solve_system,
    "extrema": extrema,
    "tangent": tangent,
    "transform": transform,
    "function_fact": function_fact,
    "limit": limit,
    "series": series,
    "_spin": _spin,
    "_crash": _crash,
}


def summarize(tool: str, kwargs: dict[str, Any]) -> str:
    """The raw request as one short line, used when parsing never got far enough."""
    main = next(iter(kwargs.values()), "") if kwargs else ""
    text = " ".join(str(main).split())
    if len(text) > 80:
        text = text[:77] + "..."
    extras = [f"{k}={v!r}"[:40] for k, v in list(kwargs.items())[1:] if v is not None]
    return text + (f" ({', '.join(extras)})" if extras else "")


def compute(tool: str, kwargs: dict[str, Any]) -> ToolResult:
    """Run one tool in this process and never raise."""
    func = COMPUTE.get(tool)
    if func is None:
        return ToolResult.failure(tool, summarize(tool, kwargs), f"Unknown tool '{tool}'.")
    try:
        return func(**kwargs)
    except ToolError as exc:
        return ToolResult.failure(tool, summarize(tool, kwargs), exc.message)
    except RecursionError:
        message = "The expression is too deeply nested for the math engine; simplify it."
    except MemoryError:
        message = "The computation ran out of memory; try smaller numbers or a simpler input."
    except (ZeroDivisionError, OverflowError) as exc:
        message = f"The computation failed ({type(exc).__name__}): check for division by zero."
    except Exception as exc:
        detail = " ".join(str(exc).split())[:160] or type(exc).__name__
        message = f"SymPy could not do this {tool}: {detail}."
    return ToolResult.failure(tool, summarize(tool, kwargs), message)
