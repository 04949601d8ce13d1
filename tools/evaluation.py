"""Substitute values into an expression and give the exact number.

``at`` is a number, a text value (``"3"``, ``"-1/2"``, ``"pi"``), several assignments
(``"x=1, y=2"``) or a mapping ``{"x": 1}``. Values stay exact (``0.1`` is ``1/10``). Where the
expression is undefined (``1/x`` at 0) the error says so and, when it exists, gives the limit.

Function notation with any letters (``g(t) = ...`` at ``"g(-2)"``, or a whole question "Let
g(t) = ... . Give g(-2).") is read by ``tools.function_notation``; the text then names the
call (``g(-2) = 14``), and a point given both in the expression and in ``at`` must agree.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from tools.errors import LimitError, ToolError
from tools.extraneous import with_real_odd_roots
from tools.formatting import exact, tidy, with_decimal
from tools.function_notation import Function, Reading, Target, read, read_call, substitute
from tools.inputs import (
    choose_variable,
    in_sentence,
    keep,
    names_of,
    read_function,
    read_variable,
    to_value,
)
from tools.operators import expand_listing
from tools.parsing import parse_assignments, parse_name
from tools.result import ToolResult

TOOL = "evaluate"
#: Most values one expression may list ("(-3)^2, (-2)^2, ..."), as for points in the agent.
MAX_TARGETS = 20


def evaluate(expression: str, at: object, variable: str | None = None) -> ToolResult:
    """The exact value of ``expression`` at ``at``; a list written as code
    (``[x**2 for x in [-4, 1]]``) is read as the values it lists (`tools.operators`)."""
    expression = expand_listing(expression) or expression
    name = read_variable(variable)
    reading = read(expression, name, at)
    if reading is not None:
        return _evaluate_reading(reading, at, name)
    if _no_point(at):
        return _closed_value(expression, name)
    named = _read_assignments(at, name)
    keys = [k for k, _ in named] if named is not None else []
    expr, _ = read_function(expression, TOOL, name, keys)
    if named is None:
        value = to_value(at, "The value", keep(name))
        var = choose_variable(
            expr.free_symbols, name, "use the value for", "expression"
        ) or sp.Symbol(name or "x")
        named = [(var.name, value)]
    mapping = {sp.Symbol(k): v for k, v in named}
    result, shown = _value(expr, mapping)
    summary = f"{exact(expr)} at {shown}"
    # The text says what was evaluated: a call by id never showed the model that math, and
    # "the value of #1 at 3" read as "the left side" when #1 was an equation (lhs - rhs).
    text = f"{exact(expr)} = {with_decimal(result)} at {shown}"
    return ToolResult.success(TOOL, summary, result, text)


def _value(
    expr: sp.Expr, mapping: dict[sp.Symbol, sp.Expr], bounded: bool = False
) -> tuple[sp.Expr, str]:
    """``expr`` at ``mapping`` (every variable needs a value) and the point as shown.

    ``bounded`` checks each power and factorial as it is rebuilt, for definitions composed
    into each other (``f(n) = n!`` twice is refused, not computed).
    """
    shown = ", ".join(f"{k} = {exact(v)}" for k, v in mapping.items())
    missing = expr.free_symbols - set(mapping)
    if missing and not mapping:
        raise ToolError(_where_to_evaluate(missing))
    if missing:
        raise ToolError(
            f"The expression also contains {names_of(missing)}: give a value for "
            f"{'it' if len(missing) == 1 else 'each'} too, e.g. "
            f"'{', '.join(f'{s}=1' for s in sorted(mapping | dict.fromkeys(missing), key=str))}'."
        )
    result = _bounded(expr, mapping, shown) if bounded else expr.subs(mapping, simultaneous=True)
    if result in (sp.oo, -sp.oo):
        raise ToolError(f"The expression is infinite ({result}) at {shown}.")
    if result.has(sp.nan, sp.zoo) or (result.is_number and result.is_finite is False):
        raise ToolError(_undefined(expr, mapping, shown))
    result = _real_odd_roots(tidy(result))
    if result.free_symbols:
        raise ToolError(f"After substituting {shown} the result still contains variables.")
    return result, shown


def _evaluate_reading(reading: Reading, at: object, name: str | None) -> ToolResult:
    """Function notation: each target at the point its call, its clauses and ``at`` give."""
    call = None
    if not _no_point(at):
        call = read_call(at, reading.keep, reading.functions, any_name=True)
    targets = reading.targets or [_whole_function(reading, call)]
    if len(targets) > MAX_TARGETS:
        raise ToolError(
            f"Too many values asked at once ({len(targets)}): evaluate at most {MAX_TARGETS}."
        )
    done: list[tuple[str, str, sp.Expr]] = []
    for target in targets:
        try:
            done.append(_evaluate_target(target, reading, at, call, name, len(targets) > 1))
        except ToolError as exc:
            if len(targets) == 1:
                raise
            raise ToolError(f"{target.label}: {exc.message}") from None
    if len(done) == 1:
        ((label, summary, result),) = done
        shown = f"{label} = {with_decimal(result)}" if label else with_decimal(result)
        return ToolResult.success(TOOL, summary, result, shown)
    text = "; ".join(f"{label} = {with_decimal(result)}" for label, _, result in done)
    summary = "; ".join(label for label, _, _ in done)
    return ToolResult.success(TOOL, summary, [result for _, _, result in done], text)


def _evaluate_target(
    target: Target,
    reading: Reading,
    at: object,
    call: tuple[str, list[sp.Expr]] | None,
    name: str | None,
    several: bool,
) -> tuple[str, str, sp.Expr]:
    """(label, summary, value) of one target; a point given twice must be the same point."""
    if call is not None:
        _bind_call(target, call, reading, at, name)
    mapping = dict(target.point)
    where = f"the expression ({target.label})" if target.label else "the expression"
    _merge(mapping, [(sp.Symbol(k), v) for k, v in reading.values], where, "the expression")
    if call is None and not _no_point(at):
        _merge(mapping, _at_values(at, target, reading, name), where, "at")
    result, shown = _value(target.expr, mapping, bounded=True)
    summary = f"{exact(target.expr)} at {shown}" if mapping else exact(target.expr)
    function = target.function
    if function is not None and all(p in mapping for p in function.params):
        label = target.label or function.call(mapping[p] for p in function.params)
    elif several or (reading.functions and target.label):
        label = f"{target.label} at {shown}" if target.expr.free_symbols else str(target.label)
    else:
        label = ""
    return label, summary, result


def _whole_function(reading: Reading, call: tuple[str, list[sp.Expr]] | None) -> Target:
    """Nothing asked in the expression: the function ``at`` calls, else the last defined."""
    if not reading.functions:
        given = ", ".join(f"{k} = {exact(v)}" for k, v in reading.values)
        raise ToolError(f"The expression only gives values ({given}): send what to evaluate too.")
    function = list(reading.functions.values())[-1]
    if call is not None and call[0] in reading.functions:
        function = reading.functions[call[0]]
    return Target(function.body, function)


def _bind_call(
    target: Target,
    call: tuple[str, list[sp.Expr]],
    reading: Reading,
    at: object,
    name: str | None,
) -> None:
    """``at`` written as a call (``g(-2)``): its values go to the function's variables."""
    called, args = call
    if target.function is None and not reading.functions:
        if len(args) != 1:
            letters = ", ".join(["x", "y", "z", "w"][: len(args)])
            raise ToolError(
                f"at '{_short(at)}' gives {called} {len(args)} values but the expression does not "
                f"say their order: send expression '{called}({letters}) = ...' with that at."
            )
        var = choose_variable(
            target.expr.free_symbols, name, "use the value for", "expression"
        ) or sp.Symbol(name or "x")
        target.function = Function(called, (var,), target.expr)
        target.label = None
    function = target.function
    if function is None or function.name != called:
        asked = target.label or (function.call(function.params) if function else "")
        raise ToolError(
            f"at '{_short(at)}' calls {called}, but the expression asks for {asked}: give the "
            "point once, in the expression or in at."
        )
    if len(args) != len(function.params):
        raise ToolError(
            f"{function.call(function.params)} takes {len(function.params)} value(s), but at "
            f"'{_short(at)}' gives {len(args)}."
        )
    where = f"the expression ({target.label})" if target.label else "the expression"
    _merge(target.point, list(zip(function.params, args, strict=True)), where, "at")


def _at_values(
    at: object, target: Target, reading: Reading, name: str | None
) -> list[tuple[sp.Symbol, sp.Expr]]:
    """The point in ``at``: named values, or one bare value for the function's variable."""
    named = _read_assignments(at, name)
    if named is not None:
        return [(sp.Symbol(k), v) for k, v in named]
    value = to_value(at, "The value", reading.keep)
    function = target.function
    if function is None:
        free = target.expr.free_symbols
        var = choose_variable(free, name, "use the value for", "expression")
        return [(var or sp.Symbol(name or "x"), value)]
    if name is not None and sp.Symbol(name) in function.params:
        return [(sp.Symbol(name), value)]
    if len(function.params) == 1:
        return [(function.params[0], value)]
    params = ", ".join(p.name for p in function.params)
    raise ToolError(
        f"{function.name} takes {len(function.params)} values ({params}): send at as "
        f"'{function.name}({', '.join('...' for _ in function.params)})' or "
        f"'{', '.join(f'{p}=...' for p in function.params)}'."
    )


def _merge(
    mapping: dict[sp.Symbol, sp.Expr],
    pairs: list[tuple[sp.Symbol, sp.Expr]],
    first: str,
    second: str,
) -> None:
    """Add ``pairs`` to ``mapping``; the same variable with two different values is an error."""
    for key, value in pairs:
        if key in mapping and not _same(mapping[key], value):
            raise ToolError(
                f"Two different points: {first} gives {key} = {exact(mapping[key])} but {second} "
                f"gives {key} = {exact(value)}: send one point (or the same one in both)."
            )
        mapping[key] = value


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    if a == b:
        return True
    try:
        return bool(sp.simplify(a - b) == 0)
    except Exception:
        return False


def _short(value: object) -> str:
    flat = " ".join(str(value).split())
    return flat if len(flat) <= 40 else flat[:37] + "..."


def _bounded(expr: sp.Expr, mapping: dict[sp.Symbol, sp.Expr], shown: str) -> sp.Expr:
    try:
        return substitute(expr, mapping)
    except LimitError as exc:
        detail = exc.message.split("': ", 1)[-1]
        raise LimitError(f"The value at {shown} is too large to compute: {detail}") from None


def _no_point(at: object) -> bool:
    return at is None or (
        isinstance(at, (str, list, tuple, set, Mapping))
        and not (at.strip() if isinstance(at, str) else at)
    )


def _where_to_evaluate(missing: set[sp.Basic]) -> str:
    """An expression in letters with no point: where to evaluate, or the tool meant instead."""
    return (
        f"No value to substitute was given for {names_of(missing)}: say where to evaluate "
        "(to expand, factor or simplify it instead, those are tools of their own)."
    )


def _closed_value(expression: str, name: str | None) -> ToolResult:
    """No point given: an expression without variables ("(-3)^2 + (-2)^2") is just computed;
    one with variables needs a point, and the error says which."""
    expr, _ = read_function(expression, TOOL, name, [])
    if expr.free_symbols:
        raise ToolError(_where_to_evaluate(expr.free_symbols))
    result = _real_odd_roots(tidy(expr))
    if result.has(sp.nan, sp.zoo) or (result.is_number and result.is_finite is False):
        raise ToolError(f"{expression.strip()} is undefined (a division by zero or the like).")
    return ToolResult.success(TOOL, exact(expr), result, with_decimal(result))


def _read_assignments(at: object, name: str | None) -> list[tuple[str, sp.Expr]] | None:
    """Named values from a mapping or ``"x=1, y=2"``; None for a single bare value."""
    if isinstance(at, Mapping):
        if not at:
            raise ToolError("No value to substitute was given: say where to evaluate.")
        pairs = []
        for key, raw in at.items():
            key_name = parse_name(key.name if isinstance(key, sp.Symbol) else key)  # type: ignore[arg-type]
            pairs.append((key_name, to_value(raw, f"The value of {key_name}", keep(key_name))))
        return pairs
    if isinstance(at, (list, tuple, set)):
        raise ToolError("Give one point at a time, e.g. '3' or 'x=1, y=2'.")
    if isinstance(at, str) and "=" in at:
        names = [part.split("=")[0].strip() for part in at.split(",") if "=" in part]
        return parse_assignments(at, keep(name, *names))
    if isinstance(at, str) and not at.strip():
        raise ToolError("No value to substitute was given: say where to evaluate.")
    return None


def _undefined(expr: sp.Expr, mapping: dict[sp.Symbol, sp.Expr], shown: str) -> str:
    """Why there is no value, with the limit when one variable approaches a finite point."""
    message = f"The expression is undefined at {shown}"
    if len(mapping) == 1:
        ((var, point),) = mapping.items()
        try:
            limit = sp.limit(expr, var, point)
        except Exception:
            limit = None
        if limit is not None and limit.is_finite and not limit.has(sp.Limit):
            return f"{message}; its limit there is {in_sentence(limit)}."
    return f"{message} (division by zero or similar)."


def _real_odd_roots(value: sp.Expr) -> sp.Expr:
    """A number that is complex only through an odd root of a negative number (``cbrt(-8)``,
    ``(-8)**(2/3)``) as the real value people mean (-2, 4); any other value as it is."""
    if not value.is_number or value.is_real is not False:
        return value
    real = tidy(with_real_odd_roots(value))
    return real if real.is_real else value
