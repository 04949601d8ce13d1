"""Tool calls checked against what a request names: the polynomial ("the first polynomial",
"the cubic from before") or the roots ("their", "them") that `referents` binds.

Why: shown the binding line (`- "the first polynomial" is q^2 + 6q + 8 ...`), the 1.5B model
still sent the call on the wrong math about one time in three on the full `sessions` set:
"the second derivative of the first polynomial" differentiated the derivative just found,
"what's f(4) for the cubic from before?" repeated the previous call or substituted 4 into the
quartic by hand, "plug the largest root of the first equation into the last polynomial"
evaluated a multiple of it; shown "their" bound to three roots, it squared one. Each such
call is questioned once with one sentence naming what the request names; the same call sent
again runs, so a reading this module gets wrong costs one step, never a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sympy as sp

from agent.core.referents import FUNCTION_VALUE, Binding, Polynomial, result_math, same_expression
from tools import function_notation
from tools.calculus import read_derivative, read_integral
from tools.errors import ToolError
from tools.formatting import exact
from tools.inputs import read_function, read_variable
from tools.parsing import parse_expression

# A number written as a value (not an exponent).
_NUMBER_IN = re.compile(r"(?<![\d.^])(?<!\*\*)\d")
# The tools whose math a request can name.
CHECKED_TOOLS = ("derivative", "integral", "evaluate")


def left_out_roots(bindings: list[Binding], math: str) -> str | None:
    """One sentence for the model when "their"/"them" in the request are roots (`bindings`:
    the request's, from `referents.bind`) and the arithmetic it sent (`math`: an evaluate
    call's expression and points) leaves some out.

    Seen with `ledger`: shown "their" bound to the three roots, the model squared -4 alone.
    Only rational roots are looked for (as written, signs aside; an exponent is not a value).
    """
    plural = [b for b in bindings if b.roots_only]
    if len(plural) != 1 or not all(r.is_rational for r in plural[0].polynomial.roots):
        return None
    roots = plural[0].polynomial.roots
    missing = [r for r in roots if not _writes_value(math, abs(r))]
    if not missing or (len(missing) == len(roots) and not _NUMBER_IN.search(math)):
        return None
    listed = ", ".join(exact(r) for r in roots)
    left = ", ".join(exact(r) for r in missing)
    return (
        f'Check the values: "{plural[0].phrase}" in the request are the {len(roots)} roots '
        f"{listed}, and this call leaves out {left}. Send one call with all of them, or send "
        "this same call again if it is right."
    )


def _writes_value(math: str, value: sp.Expr) -> bool:
    """Whether `math` writes the number `value` (not as an exponent: "^2" is no 2)."""
    p, q = sp.fraction(sp.Rational(value))
    text = rf"{p}\s*/\s*{q}" if q != 1 else str(p)
    return re.search(rf"(?<![\d.^])(?<!\*\*){text}(?![\d.]|\s*/\s*\d)", math) is not None


def ignored_polynomial(
    bindings: list[Binding],
    tool: str,
    arguments: dict[str, object],
    turn_results: Sequence[str] = (),
) -> str | None:
    """One sentence for the model when a derivative, integral or evaluate call works on math
    other than the polynomial the request names, or None.

    A call on math with a variable must be that polynomial (its letter may differ), or, for
    evaluate and integral, one of its first three derivatives (the request may name "the
    derivative of the first polynomial"), or a result computed earlier in the turn. A value
    sent as closed arithmetic is checked only where the request fixes it: `f(1)` of the named
    polynomial, or the named polynomial at "the largest root of" another. `bindings`: the
    request's (`referents.bind`); `turn_results`: the texts of this turn's tool results so
    far."""
    if tool not in CHECKED_TOOLS:
        return None
    bindings = [b for b in bindings if not b.roots_only]
    if not bindings:
        return None
    targets = [b for b in bindings if b.extreme_root is None] or bindings
    math = _call_math(tool, arguments)
    if math is None:
        return None
    if isinstance(math, str):  # "f(1)" alone, no definition
        return _value_sentence(bindings, math)
    if not math.free_symbols:
        return _closed_value_reason(tool, bindings, targets, math)
    derived = tool != "derivative"
    found = [e for text in turn_results for e in result_math(text, arguments.get("variable"))]
    if any(_same_up_to_letter(math, e) for e in found):
        return None
    if any(_is_or_derives(math, b.polynomial, derived) for b in targets):
        return None
    if any(b.function_value is not None for b in bindings):
        return _value_sentence(bindings)
    named = "; ".join(f'"{b.phrase}" in the request is {b.polynomial.text}' for b in targets)
    wanted = " or ".join(f'"{b.polynomial.text}"' for b in targets)
    return (
        f"Check the math: {named}, and this call works on {_shown(math)}. Send the same tool "
        f"with expression {wanted}, or send this same call again if it is right."
    )


def _call_math(tool: str, arguments: dict[str, object]) -> sp.Expr | str | None:
    """The math a call works on, read as its tool reads it (operators, integral signs, `dx`
    and `f(x) =` taken off); the text of a bare `f(1)`; None when it cannot be read (the
    tool will say why)."""
    text = arguments.get("expression")
    if not isinstance(text, str) or not text.strip():
        return None
    variable = read_variable(arguments.get("variable"))
    try:
        if tool == "derivative":
            return read_derivative(text, variable, arguments.get("order") or 1).expr
        if tool == "integral":
            return read_integral(
                text, variable, arguments.get("lower"), arguments.get("upper")
            ).expr
        if FUNCTION_VALUE.fullmatch(text.strip()):  # "f(1)" sent alone
            return text.strip()
        reading = function_notation.read(text, variable, arguments.get("at"))
        if reading is not None:
            bodies = [f.body for f in reading.functions.values()]
            bodies = bodies or [t.expr for t in reading.targets]
            return bodies[0] if len(bodies) == 1 else None
        expr, _ = read_function(text, tool, variable)
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    return expr if isinstance(expr, sp.Expr) else None


def _closed_value_reason(
    tool: str, bindings: list[Binding], targets: list[Binding], value: sp.Expr
) -> str | None:
    """Closed arithmetic sent where the request fixes the value: `f(1)` of the named
    polynomial, or the named polynomial at "the largest root of" another."""
    if tool != "evaluate":
        return None
    expected = _fixed_value(bindings, targets)
    if expected is None or _same_value(value, expected[0]):
        return None
    return expected[1]


def _fixed_value(bindings: list[Binding], targets: list[Binding]) -> tuple[sp.Expr, str] | None:
    """The value the request asks for when its words fix it, and the sentence that says so."""
    for binding in bindings:
        p = binding.polynomial
        if binding.function_value is not None and p.variable is not None:
            point = binding.function_value[1]
            try:
                at = parse_expression(point)
            except ToolError:
                return None
            sentence = _value_sentence([binding])
            return (p.expr.subs(p.variable, at), sentence) if sentence else None
    sources = [b for b in bindings if b.extreme_root is not None]
    if len(sources) != 1 or len(targets) != 1 or targets[0] is sources[0]:
        return None
    target, (which, root) = targets[0].polynomial, sources[0].extreme_root
    if target.variable is None:
        return None
    sentence = (
        f'Check the math: the request asks for "{targets[0].phrase}", {target.text}, at the '
        f'{which} root of "{sources[0].phrase}", {exact(root)}, and this call computes '
        f'something else. Send expression "{target.text}" with at '
        f'"{target.variable} = {exact(root)}", or send this same call again if it is right.'
    )
    return target.expr.subs(target.variable, root), sentence


def _value_sentence(bindings: list[Binding], call: str | None = None) -> str | None:
    """What to send for `f(1)` of the polynomial the request names (`call`: what the model
    sent instead, when it was a bare `f(1)`)."""
    named = [(b, b.function_value) for b in bindings if b.function_value is not None]
    if len(named) != 1 or named[0][0].polynomial.variable is None:
        return None
    binding, (name, point) = named[0]
    p = binding.polynomial
    call = call or f"{name}({point})"
    definition = f"{name}({p.variable}) = {p.text}"
    return (
        f'Check the math: {call} in the request is the value of "{binding.phrase}", '
        f"{definition}, at {p.variable} = {point}, and this call does not compute that. "
        f'Send expression "{definition}" with at "{point}", or send this same call again if '
        "it is right."
    )


def _is_or_derives(expr: sp.Expr, polynomial: Polynomial, derived: bool) -> bool:
    """Whether `expr` is the polynomial, or (when `derived`) one of its first derivatives."""
    if _same_up_to_letter(expr, polynomial.expr):
        return True
    if not derived or polynomial.variable is None:
        return False
    found = polynomial.expr
    for _ in range(3):
        found = sp.diff(found, polynomial.variable)
        if _same_up_to_letter(expr, found):
            return True
    return False


def _same_up_to_letter(expr: sp.Expr, other: sp.Expr) -> bool:
    """Equal, or equal once the one letter of each is the same (x^2 + 1 is q^2 + 1)."""
    if same_expression(expr, other):
        return True
    mine, theirs = expr.free_symbols, other.free_symbols
    if len(mine) != 1 or len(theirs) != 1:
        return False
    return same_expression(expr.subs(next(iter(mine)), next(iter(theirs))), other)


def _same_value(a: sp.Expr, b: sp.Expr) -> bool:
    try:
        return abs(complex(sp.N(a - b))) < 1e-9
    except (TypeError, ValueError, RecursionError):
        return False


def _shown(expr: sp.Expr) -> str:
    return exact(expr).replace("**", "^")
