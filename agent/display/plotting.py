"""`/plot`: functions of the chat drawn in the terminal (plotext), or saved as an image.

The REPL parses nothing but the command word; this module reads the request (`f, g from -2
to 3`, `#4 -1 1`, `x^2 - 1 -2 2`), turns ids and names into math with the workspace's own
resolver (`agent.calls.resolve`), reads it with the project's safe parser (never eval),
samples it with plain float evaluation (SymPy `lambdify` to `math`, `mpmath` for the rest), and
marks what the workspace already knows about each function: its roots, and the points where
it was evaluated. This data (`Plot`) is computed apart from the drawing
(`agent.display.plot_drawing`), so tests check the numbers, and the terminal chart and the image
are drawn from the same data.

Plain float evaluation instead of numpy: numpy is not a core dependency, and 401 samples are
quick.
"""

from __future__ import annotations

import cmath
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import sympy as sp

from agent.calls.resolve import ReferenceProblem, resolve_math
from agent.display.pretty import pretty
from agent.workspace.record import Item, Workspace
from agent.workspace.results import CRITICAL_POINTS
from tools.errors import ToolError
from tools.parsing import parse, parse_expression
from tools.tokens import split_top_level

MAX_FUNCTIONS = 5
SAMPLES = 400
DEFAULT_RANGE = (-10.0, 10.0)
USAGE = (
    "Say what to plot: /plot f, /plot f, g from -2 to 3, /plot #4 -1 1 or "
    "/plot x^2 - 1 -2 2 (up to 5 functions; the range defaults to -10 to 10)."
)
_FROM_TO = re.compile(r"^(?P<what>.*?)\s+from\s+(?P<lower>\S+)\s+to\s+(?P<upper>\S+)\s*$", re.S)
_BRACKETED = re.compile(r"^(?P<what>.*?)\s*\[\s*(?P<lower>[^,\]]+)\s*,\s*(?P<upper>[^\]]+)\]\s*$")
_TRAILING = re.compile(r"^(?P<what>.*\S)\s+(?P<lower>\S+)\s+(?P<upper>\S+)\s*$", re.S)
_NAME = re.compile(r"[A-Za-z]\w*'*")
# A chat message that starts with one of these words asks for a plot, drawn as /plot draws it
# (the model has no plotting tool: a drawing is not math to compute).
PLOT_WORDS = ("plot", "graph")
# "f and g" lists functions as "f, g" does.
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
# A bare name is a function of the workspace, except these usual variables (`/plot x, 2x`).
_VARIABLES = {"x", "t"}
_ID = re.compile(r"#(\d+)")
_POINT = re.compile(r"\s*(?:[A-Za-z]\w*\s*=\s*)?(?P<value>.+?)\s*$")


class PlotError(Exception):
    """A request /plot cannot draw, said in one sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class PlotRequest:
    """What to plot (as written) and over which x range (None: the default)."""

    specs: tuple[str, ...]
    lower: float | None = None
    upper: float | None = None


@dataclass(frozen=True)
class Curve:
    """One function sampled: `ys[i]` is f(`xs[i]`), None where f is undefined or not real."""

    name: str  # as the request wrote it: "f", "#4", "x^2 - 1"
    label: str  # for the legend: "f: x² + 1"
    expression: sp.Expr
    variable: str | None
    xs: tuple[float, ...]
    ys: tuple[float | None, ...]


# A root (on the axis), an evaluated point, or a critical point the extrema tool found.
MarkKind = Literal["root", "point", "critical"]


@dataclass(frozen=True)
class Mark:
    """A point the workspace holds for a plotted function: a root, an evaluated value or a
    critical point."""

    kind: MarkKind
    x: float
    y: float
    item: str  # the id of the item it comes from ("#2")
    curve: str  # the name of its curve, as the request wrote it
    text: str  # as the workspace holds it: "-sqrt(3)" for a root, "(2, 5)" for a point


@dataclass(frozen=True)
class Plot:
    curves: tuple[Curve, ...]
    marks: tuple[Mark, ...]
    lower: float
    upper: float
    bottom: float
    top: float
    variables: tuple[str, ...] = field(default=())

    def segments(self, curve: Curve) -> list[list[tuple[float, float]]]:
        """The curve's visible pieces: broken where it is undefined, leaves the chart, or
        jumps across it between two samples (a pole, as tan has)."""
        pieces: list[list[tuple[float, float]]] = []
        current: list[tuple[float, float]] = []
        jump = (self.top - self.bottom) / 2
        for x, y in zip(curve.xs, curve.ys, strict=True):
            if y is None or not self.bottom <= y <= self.top:
                if current:
                    pieces.append(current)
                current = []
                continue
            if current and abs(y - current[-1][1]) > jump:
                pieces.append(current)
                current = []
            current.append((x, y))
        if current:
            pieces.append(current)
        return pieces


# -- the request ----------------------------------------------------------------------------


def plot_request_in(message: str) -> str | None:
    """What a chat message asks to plot ("plot f and g from -2 to 3" -> "f and g from -2 to
    3"), or None when it asks something else."""
    word, _, rest = message.strip().partition(" ")
    if word.lower().rstrip(":") not in PLOT_WORDS or not rest.strip():
        return None
    return rest.strip()


def parse_request(text: str) -> PlotRequest:
    """`f, g from -2 to 3`, `f and g [-2, 3]`, `#4 -1 1`, `x^2 - 1 -2 2` or `f` alone."""
    text = text.strip()
    if not text:
        raise PlotError(USAGE)
    what, lower, upper = text, None, None
    match = _FROM_TO.match(text) or _BRACKETED.match(text)
    if match is not None:
        what = match.group("what")
        lower = _bound(match.group("lower"), strict=True)
        upper = _bound(match.group("upper"), strict=True)
    elif (match := _TRAILING.match(text)) is not None:
        low, high = _bound(match.group("lower")), _bound(match.group("upper"))
        if low is not None and high is not None:  # else the last words are math: no range
            what, lower, upper = match.group("what"), low, high
    if lower is not None and upper is not None and not lower < upper:
        raise PlotError(
            f"The range must go from a smaller number to a larger one, not "
            f"{_number(lower)} to {_number(upper)}."
        )
    specs = tuple(s.strip() for s in split_top_level(_AND.sub(", ", what)) if s.strip())
    if not specs:
        raise PlotError(USAGE)
    if len(specs) > MAX_FUNCTIONS:
        raise PlotError(
            f"That is {len(specs)} functions; /plot draws at most {MAX_FUNCTIONS} at once."
        )
    return PlotRequest(specs, lower, upper)


def _bound(text: str, strict: bool = False) -> float | None:
    """A range end (`-2`, `3.5`, `pi`, `-pi/2`) as a float; None (or, strict, an error)
    when it is not a real number."""
    try:
        value = parse_expression(text)
        if value.free_symbols:
            raise ToolError("not a number")
        number = complex(sp.N(value))
    except (ToolError, TypeError, ValueError):
        if strict:
            raise PlotError(f"'{text}' is not a number for the range.") from None
        return None
    if number.imag != 0 or not math.isfinite(number.real):
        if strict:
            raise PlotError(f"'{text}' is not a finite real number for the range.")
        return None
    return number.real


def _number(value: float) -> str:
    return f"{value + 0.0:g}"  # + 0.0: no "-0"


# -- what each spec means -------------------------------------------------------------------


def _expression(spec: str, workspace: Workspace) -> sp.Expr:
    """The math of one spec: ids and names resolved; an equation `y = rhs` is its right side,
    any other equation its left side minus its right (zero where it holds)."""
    bare = _NAME.fullmatch(spec) and spec not in _VARIABLES
    if bare and spec.rstrip("'") not in workspace.named:
        known = ", ".join(sorted(workspace.named)) or "none yet"
        raise PlotError(
            f"There is no function {spec.rstrip(chr(39))} in the workspace (functions: "
            f"{known}); write its math, e.g. /plot x^2 - 1."
        )
    try:
        (resolved,) = resolve_math(spec, workspace)
        parsed = parse(resolved, what=f"'{spec}'")
    except ReferenceProblem as exc:
        raise PlotError(exc.message) from None
    except ToolError as exc:
        raise PlotError(exc.message) from None
    except (ValueError, TypeError, RecursionError):
        raise PlotError(f"Could not read '{spec}' as a function.") from None
    if parsed.rhs is None:
        return parsed.lhs
    if isinstance(parsed.lhs, sp.Symbol) and parsed.lhs not in parsed.rhs.free_symbols:
        return parsed.rhs
    return parsed.lhs - parsed.rhs


def _target(spec: str, expression: sp.Expr, workspace: Workspace) -> Item | None:
    """The workspace item a spec plots: its id, its name, or the person's item with the
    same math (so `/plot x^2 - 1` finds the roots of `x^2 - 1 = 0`)."""
    if (match := re.fullmatch(r"\s*#(\d+)\s*", spec)) is not None:
        return workspace.get(int(match.group(1)))
    if spec in workspace.named:
        return workspace.named[spec]
    for item in reversed(workspace.items):
        if item.origin != "you" or item.kind not in ("equation", "expression", "function"):
            continue
        try:
            parsed = parse(item.body)
        except (ToolError, ValueError, TypeError, RecursionError):
            continue
        own = parsed.lhs - parsed.rhs if parsed.rhs is not None else parsed.lhs
        if _same_function(own, expression):
            return item
    return None


_PROBES = (-1.37, -0.29, 0.61, 1.83, 2.71)


def _same_function(a: sp.Expr, b: sp.Expr) -> bool:
    """a = ±b, compared by value at a few points (never by expanding: a big power would
    stall the REPL)."""
    if a.free_symbols != b.free_symbols or len(a.free_symbols) > 1:
        return False
    variable = next(iter(a.free_symbols), None)
    first, second = _sampler(a, variable), _sampler(b, variable)
    pairs = [(first(p), second(p)) for p in _PROBES]
    values = [(u, v) for u, v in pairs if u is not None and v is not None]
    if len(values) < 3:
        return False

    def close(u: float, v: float) -> bool:
        return abs(u - v) <= 1e-9 * max(1.0, abs(u), abs(v))

    return all(close(u, v) for u, v in values) or all(close(u, -v) for u, v in values)


def _sampler(expression: sp.Expr, variable: sp.Symbol | None) -> Callable[[float], float | None]:
    """f as a float function: None where it is undefined or not real."""
    args = [variable] if variable is not None else [sp.Dummy()]
    try:
        function = sp.lambdify(args, expression, modules=["math", "mpmath"])
    except Exception:  # SymPy's printer has no numeric form for it
        raise PlotError(f"{sp.sstr(expression)} cannot be evaluated as numbers.") from None

    def value(x: float) -> float | None:
        try:
            y = complex(function(x))
        except Exception:  # undefined there (log(0), sqrt(-1) in math, a pole, no convergence)
            return None
        if abs(y.imag) > 1e-9 * max(1.0, abs(y.real)) or not cmath.isfinite(y):
            return None
        return y.real

    return value


def _real(text: str) -> float | None:
    try:
        value = complex(sp.N(parse_expression(text)))
    except (ToolError, TypeError, ValueError):
        return None
    if abs(value.imag) > 1e-12 or not math.isfinite(value.real):
        return None
    return value.real


def _marks(curve: Curve, target: Item | None, workspace: Workspace) -> list[Mark]:
    """The roots the workspace found for `target`, its critical points, and the points where it
    was evaluated, each on the curve (its y computed, so a root of `f = 3` sits where f is 3)."""
    if target is None:
        return []
    value = _sampler(curve.expression, _symbol(curve))
    marks: list[Mark] = []
    ours = (target.id, target.name)
    for item in workspace.items:
        if item.source != target.number and not any(
            o and item.origin.endswith(f" of {o}") for o in ours
        ):
            continue
        if item.kind == "roots":
            for text, x, y in _on_curve(item.values, value):
                # A root of f = 0 is on the axis; a root of f = 3 or of f' = 0 is a point of f.
                kind: MarkKind = "root" if abs(y) < 1e-9 else "point"
                shown = text if kind == "root" else f"({text}, {_number(y)})"
                marks.append(Mark(kind, x, y, item.id, curve.name, shown))
        elif item.kind == "values" and item.origin.startswith(CRITICAL_POINTS):
            for text, x, y in _on_curve(item.values, value):
                marks.append(Mark("critical", x, y, item.id, curve.name, f"({text}, {_number(y)})"))
        elif item.kind in ("value", "values") and " at " in item.origin:
            marks += _evaluated(item, curve, workspace)
    return marks


def _on_curve(
    texts: tuple[str, ...], value: Callable[[float], float | None]
) -> list[tuple[str, float, float]]:
    """Each x value held as text with f's y there; those not real, or where f is undefined,
    left out."""
    points = []
    for text in texts:
        x = _real(text)
        y = value(x) if x is not None else None
        if x is not None and y is not None:
            points.append((text, x, y))
    return points


def _evaluated(item: Item, curve: Curve, workspace: Workspace) -> list[Mark]:
    """`f at x = 2, x = 3` with values (5, 10): the points (2, 5) and (3, 10)."""
    xs: list[str] = []
    for point in item.origin.rsplit(" at ", 1)[1].split(", "):
        cited = _ID.fullmatch(point.strip())
        held = workspace.get(int(cited.group(1))) if cited else None
        if held is not None:
            xs += list(held.values or (held.body,))
            continue
        match = _POINT.fullmatch(point)
        xs.append(match.group("value") if match else "")
    ys = list(item.values or (item.body,))
    if len(xs) != len(ys):
        return []
    marks = []
    for x_text, y_text in zip(xs, ys, strict=True):
        x, y = _real(x_text), _real(y_text)
        if x is not None and y is not None:
            marks.append(Mark("point", x, y, item.id, curve.name, f"({x_text}, {y_text})"))
    return marks


def _symbol(curve: Curve) -> sp.Symbol | None:
    return sp.Symbol(curve.variable) if curve.variable else None


def _curve(spec: str, expression: sp.Expr, lower: float, upper: float) -> Curve:
    symbols = sorted(expression.free_symbols, key=str)
    if len(symbols) > 1:
        names = ", ".join(map(str, symbols))
        raise PlotError(
            f"{spec} has more than one variable ({names}): /plot draws functions of one variable."
        )
    variable = symbols[0] if symbols else None
    value = _sampler(expression, variable)
    step = (upper - lower) / SAMPLES
    xs = tuple(lower + i * step for i in range(SAMPLES + 1))
    math_text = pretty(sp.sstr(expression))
    label = math_text if pretty(spec) == math_text else f"{spec}: {math_text}"
    if len(label) > 40:
        label = label[:39] + "…"
    ys = tuple(map(value, xs))
    return Curve(spec, label, expression, str(variable) if variable else None, xs, ys)


def _vertical_limits(curves: list[Curve], marks: list[Mark]) -> tuple[float, float]:
    """The y range shown: every value when they are of one size; else the bulk of them (2nd
    to 98th percentile, widened), so that a pole does not flatten the rest of the curve."""
    values = sorted(y for c in curves for y in c.ys if y is not None)
    values += [m.y for m in marks]
    values.sort()
    low, high = values[0], values[-1]
    bulk_low = values[int(0.02 * (len(values) - 1))]
    bulk_high = values[int(0.98 * (len(values) - 1))]
    span = bulk_high - bulk_low or max(abs(bulk_high), 1.0)
    if low < bulk_low - 2 * span or high > bulk_high + 2 * span:
        low, high = max(low, bulk_low - span / 2), min(high, bulk_high + span / 2)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    margin = (high - low) * 0.05
    return low - margin, high + margin


def make_plot(request: PlotRequest, workspace: Workspace) -> Plot:
    """The sampled curves and their marks, or a PlotError that says what is wrong."""
    lower = request.lower if request.lower is not None else DEFAULT_RANGE[0]
    upper = request.upper if request.upper is not None else DEFAULT_RANGE[1]
    curves: list[Curve] = []
    marks: list[Mark] = []
    for spec in request.specs:
        expression = _expression(spec, workspace)
        curve = _curve(spec, expression, lower, upper)
        curves.append(curve)
        target = _target(spec, expression, workspace)
        marks += [m for m in _marks(curve, target, workspace) if lower <= m.x <= upper]
    if not any(y is not None for c in curves for y in c.ys):
        shown = ", ".join(request.specs)
        raise PlotError(
            f"{shown} has no real values from {_number(lower)} to {_number(upper)}; try "
            "another range."
        )
    bottom, top = _vertical_limits(curves, marks)
    variables = tuple(dict.fromkeys(c.variable for c in curves if c.variable))
    return Plot(tuple(curves), tuple(marks), lower, upper, bottom, top, variables)
