"""Turning a tool's raw arguments into SymPy objects: which variable, which expression.

Shared by all four tools so that variable detection and its error messages are the same
everywhere: one free symbol is used automatically; several give an error naming them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

import sympy as sp

from tools.errors import ParseError, ToolError
from tools.formatting import decimal, with_decimal
from tools.function_notation import read_expression
from tools.parsing import Parsed, parse, parse_expression, parse_name
from tools.tokens import split_top_level

# "x = 3", "x -> 0", "x → oo": a point that names its variable.
_NAMED_POINT = re.compile(r"(?s)\s*(?P<name>[^\W\d]\w*)\s*(?:->|→|=)\s*(?P<value>.*)")
# A point written in square brackets, as evaluate's list of points: "[0]", "[t = 1]", "[]".
_LISTED = re.compile(r"(?s)\s*\[(?P<inner>.*)\]\s*")


def read_variable(variable: object) -> str | None:
    """The variable's name, or None when the caller left it out."""
    if variable is None:
        return None
    if isinstance(variable, sp.Symbol):
        return variable.name
    if isinstance(variable, str) and not variable.strip():
        return None
    return parse_name(variable)  # type: ignore[arg-type]


def keep(*names: str | None) -> set[str]:
    """Names the parser must keep whole (``rate``, or ``e`` when the user means a variable)."""
    return {n for n in names if n}


def names_of(symbols: Iterable[sp.Symbol]) -> str:
    return ", ".join(sorted(s.name for s in symbols))


def choose_variable(
    free: set[sp.Symbol], name: str | None, purpose: str, kind: str = "expression"
) -> sp.Symbol | None:
    """The variable to work with; None when there is none and none was named.

    ``purpose`` finishes the sentence "say which one to ..." (e.g. "solve for").
    """
    if name is not None:
        return sp.Symbol(name)
    symbols = sorted(free, key=lambda s: s.name)
    if len(symbols) == 1:
        return symbols[0]
    if not symbols:
        return None
    raise ParseError(
        f"The {kind} has several variables ({names_of(symbols)}): say which one to {purpose}."
    )


def read_function(
    text: object, tool: str, variable: str | None, extra_names: Iterable[str] = ()
) -> tuple[sp.Expr, Parsed]:
    """An expression for derivative/integral/evaluate; ``y = ...`` and ``f(x) = ...`` allowed.

    A real equation (``x^2 + y^2 = 1``) is refused: these tools need one expression.
    """
    parsed = parse(text, keep(variable, *extra_names), "The expression")  # type: ignore[arg-type]
    if parsed.rhs is None:
        return parsed.lhs, parsed
    lhs, rhs = parsed.lhs, parsed.rhs
    if (
        isinstance(lhs, sp.Symbol)
        and lhs not in rhs.free_symbols
        and (variable is None or lhs.name != variable)
    ):
        return rhs, parsed
    raise ParseError(
        f"'{short(text)}' is an equation; the {tool} tool needs an expression such as "
        f"'{short(lhs - rhs)}' (or use the solve tool)."
    )


def read_univariate(
    expression: object, variable: object, tool: str, purpose: str
) -> tuple[sp.Expr, sp.Symbol]:
    """One expression and its variable (``x`` when it has none), read as derivative reads them.

    Function notation (``h(t) = ...``) and ``y = ...`` are allowed; ``purpose`` finishes
    "say which one to ..." when the expression has several variables.
    """
    expr, name = read_one(expression, read_variable(variable), tool)
    var = choose_variable(expr.free_symbols, name, purpose) or sp.Symbol(name or "x")
    return expr, var


def read_one(expression: object, name: str | None, tool: str) -> tuple[sp.Expr, str | None]:
    """One expression, from function notation or plain text, and the variable it names."""
    notation = read_expression(expression, name, tool)
    if notation is not None:
        return notation
    expr, _ = read_function(expression, tool, name)
    return expr, name


def as_real(expr: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Symbol]:
    """The same expression with ``var`` declared real (SymPy then knows d|x|/dx = sign(x))."""
    real = sp.Symbol(var.name, real=True)
    return expr.xreplace({var: real}), real


def one_point(raw: object) -> object:
    """A one-point field written as a list, the form of evaluate's points (``[0]``,
    ``"[t = 1]"``, ``["x = 2"]``): its one entry; an empty list (``[]``) is no point (None).
    Anything else is returned as it is."""
    if isinstance(raw, (list, tuple)) and len(raw) <= 1:
        return raw[0] if raw else None
    if isinstance(raw, str) and (listed := _LISTED.fullmatch(raw)) is not None:
        entries = [e.strip().strip("'\"") for e in split_top_level(listed["inner"])]
        entries = [e for e in entries if e]
        if len(entries) <= 1:
            return entries[0] if entries else None
    return raw


def read_point(raw: object, var: sp.Symbol | None, what: str) -> sp.Expr:
    """A point on ``var``'s axis: a number, text, or ``"x = 3"`` / ``"x -> 0"`` naming it
    (``var=None``: a point on a line of numbers, whatever letter names it); written as a list
    of one (``[3]``), that one."""
    raw = one_point(raw)
    if raw is None:
        raise ToolError(f"{what} is missing: give one number, such as 0 or x = 2.")
    if isinstance(raw, str):
        match = _NAMED_POINT.fullmatch(raw)
        if match is not None:
            named = read_variable(match.group("name"))
            if var is not None and named != var.name:
                raise ToolError(
                    f"{what} '{short(raw)}' is about {named}, but the expression's variable is "
                    f"{var}."
                )
            raw = match.group("value")
    if var is None:
        return to_value(raw, what)
    value = to_value(raw, what, keep(var.name))
    if var in value.free_symbols:
        raise ToolError(f"{what} cannot contain the variable {var} itself.")
    return value


def whole_number(raw: object, what: str, low: int, high: int) -> int:
    """A count or an order (``2``, ``"2"``, ``2.0``) as an int in ``low..high``."""
    if isinstance(raw, bool):
        raise ToolError(f"{what} must be a whole number such as 1 or 2.")
    if isinstance(raw, str) and raw.strip().isdigit() and len(raw.strip()) <= 6:
        raw = int(raw.strip())
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if not isinstance(raw, int):
        raise ToolError(f"{what} must be a whole number such as 1 or 2, not {quoted(raw)}.")
    if not low <= raw <= high:
        raise ToolError(f"{what} must be between {low} and {high}, not {raw}.")
    return raw


def to_value(raw: object, what: str, names: Iterable[str] = ()) -> sp.Expr:
    """A number or text (``"3"``, ``"-1/2"``, ``"pi"``, ``"oo"``) as an exact SymPy value."""
    if isinstance(raw, bool):
        raise ParseError(f"{what} must be a number or text such as '3' or 'pi', not {raw}.")
    if isinstance(raw, int):
        return sp.Integer(raw)
    if isinstance(raw, Fraction):
        return sp.Rational(raw.numerator, raw.denominator)
    if isinstance(raw, float):
        if raw != raw:
            raise ParseError(f"{what} is not a number (NaN).")
        if raw in (float("inf"), float("-inf")):
            return sp.oo if raw > 0 else -sp.oo
        return sp.Rational(repr(raw))
    if isinstance(raw, sp.Basic):
        if not isinstance(raw, sp.Expr):
            raise ParseError(f"{what} must be a number or an expression.")
        return raw
    if isinstance(raw, str):
        return parse_expression(raw, names, what)
    if isinstance(raw, Decimal) and raw.is_finite():
        return sp.Rational(str(raw))
    raise ParseError(
        f"{what} must be a number or text such as '3' or 'pi', not {type(raw).__name__}."
    )


def quoted(raw: object) -> str:
    """A caller's argument as it is echoed in an error: its repr, at most 40 characters."""
    text = repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."


def short(value: object) -> str:
    """Text or a SymPy object as echoed in a sentence: one line, at most 60 characters."""
    text = sp.sstr(value) if isinstance(value, sp.Basic) else str(value)
    flat = " ".join(text.split())
    return flat if len(flat) <= 60 else flat[:57] + "..."


def in_sentence(value: sp.Expr) -> str:
    """A computed value as a sentence states it: exact when short, else its decimal."""
    text = with_decimal(value)
    if len(text) <= 60:
        return text
    approx = decimal(value)
    return f"≈ {approx}" if approx is not None else short(text)
