"""Tool calls checked against what a request names: the polynomial ("the first polynomial",
"the cubic from before") or the roots ("their", "them") that `referents` binds.

Why: shown the binding line (`- "the first polynomial" is q^2 + 6q + 8 ...`), the 1.5B model
still sent the call on the wrong math about one time in three on the full `sessions` set:
"the second derivative of the first polynomial" differentiated the derivative just found,
"what's f(4) for the cubic from before?" repeated the previous call or substituted 4 into the
quartic by hand, "plug the largest root of the first equation into the last polynomial"
evaluated a multiple of it; shown "their" bound to three roots, it squared one. Each such
call is questioned once with one sentence naming what the request names and, where one
polynomial is named, the call to send written out (told "send the call on q^2 + 6q + 8, or this
same call again if it is right", the model sent the same call again four times in five on
one `ledger` run). The same call sent again still runs, so a reading this module gets wrong
costs one step, never a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from agent.core.referents import FUNCTION_VALUE, Binding, Polynomial, result_math, same_expression
from agent.messages import written_call
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
    derivative_asked: bool = True,
) -> str | None:
    """One sentence for the model when a derivative, integral or evaluate call works on math
    other than the polynomial the request names, or None.

    A call on math with a variable must be that polynomial (its letter may differ), or, for
    evaluate and integral when the request speaks of a derivative (`derivative_asked`), one
    of its first three derivatives ("the derivative of the first polynomial"), or a result
    computed earlier in the turn. (Seen with `ledger`: "integrate the polynomial itself"
    integrated the derivative just found, which passed while any derivative did.) A value
    sent as closed arithmetic, or a list of such values, is checked only where the request
    fixes it: `f(1)` of the named polynomial, or the named polynomial at "the largest root of"
    another. `bindings`: the request's (`referents.bind`); `turn_results`: the texts of this
    turn's tool results so far."""
    if tool not in CHECKED_TOOLS:
        return None
    bindings = [b for b in bindings if not b.roots_only]
    if not bindings:
        return None
    targets = [b for b in bindings if b.extreme_root is None] or bindings
    math = _call_math(tool, arguments)
    if math is None and tool == "evaluate":  # "4, 24" for f(4): a list of closed values
        values = _closed_values(arguments.get("expression"))
        if len(values) > 1:
            fixed = _fixed_value(bindings, targets)
            if fixed is not None and not any(_same_value(v, fixed.value) for v in values):
                return fixed.sentence
    if math is None:
        return None
    if isinstance(math, str):  # "f(1)" alone, no definition
        return _value_sentence(bindings, math)
    if not math.free_symbols:
        return _closed_value_reason(tool, bindings, targets, math)
    derived = tool != "derivative" and derivative_asked
    found = [e for text in turn_results for e in result_math(text, arguments.get("variable"))]
    if any(_same_up_to_letter(math, e) for e in found):
        return None
    if any(_is_or_derives(math, b.polynomial, derived) for b in targets):
        return _letter_reason(tool, arguments, math, targets)
    if any(b.function_value is not None or b.point is not None for b in bindings):
        fixed = _fixed_value(bindings, targets)
        return fixed.sentence if fixed is not None else None
    named = "; ".join(f'"{b.phrase}" in the request is {b.polynomial.text}' for b in targets)
    question = f"Check the math: {named}, and this call works on {_shown(math)}."
    # The call to send, written out (the model copies it); an evaluate call may be meant on
    # a derivative of the polynomial, which this does not know.
    if len(targets) == 1 and tool != "evaluate":
        return f"{question} Send this call instead: {_on(tool, arguments, targets[0].polynomial)}"
    wanted = " or ".join(f'"{b.polynomial.text}"' for b in targets)
    return f"{question} Send the same tool with expression {wanted}."


def _on(tool: str, arguments: dict[str, object], polynomial: Polynomial) -> str:
    """The call as the model writes it, on the polynomial: what the sent call said around
    its math (an order, bounds written in the expression) kept as fields, the variable the
    polynomial's letter."""
    changed: dict[str, object] = {**arguments, "expression": polynomial.text}
    if polynomial.variable is not None:
        changed["variable"] = polynomial.variable.name
    text, variable = str(arguments.get("expression")), read_variable(arguments.get("variable"))
    try:
        if tool == "derivative":
            order = read_derivative(text, variable, arguments.get("order") or 1).order
            changed["order"] = order if order > 1 else None
        if tool == "integral":
            read = read_integral(text, variable, arguments.get("lower"), arguments.get("upper"))
            changed["lower"], changed["upper"] = read.lower, read.upper
    except (ToolError, ValueError, TypeError, RecursionError):
        pass  # the call as sent is unreadable: its fields stay as they were
    return written_call(tool, changed)


def _letter_reason(
    tool: str, arguments: dict[str, object], math: sp.Expr, targets: list[Binding]
) -> str | None:
    """The named polynomial differentiated or integrated in another letter: right math, but
    the person reads an answer in x for their polynomial in w (seen on `none` and `window`:
    "the second derivative of the first polynomial" answered 6x + 16 for w^3 + 8w^2 + ...)."""
    if tool not in ("derivative", "integral") or len(targets) != 1:
        return None
    polynomial = targets[0].polynomial
    letters = math.free_symbols
    if polynomial.variable is None or len(letters) != 1 or polynomial.variable in letters:
        return None
    if not _same_up_to_letter(math, polynomial.expr):
        return None
    return (
        f'Check the letter: "{targets[0].phrase}" in the request is {polynomial.text}, in '
        f"{polynomial.variable}, and this call writes it in {next(iter(letters))}. Send this "
        f"call instead: {_on(tool, arguments, polynomial)}"
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


def value_call(bindings: list[Binding]) -> str | None:
    """The evaluate call the request's words fix (`f(1)` of the named polynomial, the named
    polynomial at "the largest root of" another), written as the model writes a call; None
    when they fix none. Sent with the request for a tool when the model answered such a
    request by hand (it stated f(4) = 80 for 0, twice)."""
    bindings = [b for b in bindings if not b.roots_only]
    targets = [b for b in bindings if b.extreme_root is None] or bindings
    fixed = _fixed_value(bindings, targets)
    return fixed.call if fixed is not None else None


def _closed_values(text: object) -> list[sp.Expr]:
    """The values of a list of closed expressions ("4, 24"); [] when it is anything else."""
    if not isinstance(text, str):
        return []
    values = []
    for part in re.split(r"[,;]", text):
        try:
            value = parse_expression(part)
        except ToolError:
            return []
        if not isinstance(value, sp.Expr) or value.free_symbols:
            return []
        values.append(value)
    return values


def _closed_value_reason(
    tool: str, bindings: list[Binding], targets: list[Binding], value: sp.Expr
) -> str | None:
    """Closed arithmetic sent where the request fixes the value: `f(1)` of the named
    polynomial, or the named polynomial at "the largest root of" another."""
    if tool != "evaluate":
        return None
    expected = _fixed_value(bindings, targets)
    if expected is None or _same_value(value, expected.value):
        return None
    return expected.sentence


@dataclass(frozen=True)
class _FixedValue:
    """A value the request's words fix, the call that computes it, and the question that
    says so when a call computed something else."""

    value: sp.Expr
    call: str
    sentence: str


def _fixed_value(bindings: list[Binding], targets: list[Binding]) -> _FixedValue | None:
    """The value the request asks for when its words fix it."""
    for binding in bindings:
        p = binding.polynomial
        if binding.function_value is not None and p.variable is not None:
            try:
                at = parse_expression(binding.function_value[1])
            except ToolError:
                return None
            call, sentence = _function_value_call(binding), _value_sentence([binding])
            return _FixedValue(p.expr.subs(p.variable, at), call, sentence) if sentence else None
        if binding.point is not None and p.variable is not None:
            return _point_value(binding, p.variable)
    sources = [b for b in bindings if b.extreme_root is not None]
    if len(sources) != 1 or len(targets) != 1 or targets[0] is sources[0]:
        return None
    target, (which, root) = targets[0].polynomial, sources[0].extreme_root
    if target.variable is None:
        return None
    call = written_call(
        "evaluate", {"expression": target.text, "at": [f"{target.variable} = {exact(root)}"]}
    )
    sentence = (
        f'Check the math: the request asks for "{targets[0].phrase}", {target.text}, at the '
        f'{which} root of "{sources[0].phrase}", {exact(root)}, and this call computes '
        f"something else. Send this call instead: {call}"
    )
    return _FixedValue(target.expr.subs(target.variable, root), call, sentence)


def _point_value(binding: Binding, variable: sp.Symbol) -> _FixedValue | None:
    """ "plug a = -1 into it": the result found last at that point."""
    assert binding.point is not None
    p = binding.polynomial
    try:
        at = parse_expression(binding.point.split("=", 1)[1])
    except ToolError:
        return None
    call = written_call("evaluate", {"expression": p.text, "at": [binding.point]})
    sentence = (
        f'Check the math: "{binding.phrase}" in the request is {p.text}, {binding.result_of}, '
        f"and the request asks for its value at {binding.point}; this call computes something "
        f"else. Send this call instead: {call}"
    )
    return _FixedValue(p.expr.subs(variable, at), call, sentence)


def _function_value_call(binding: Binding) -> str:
    """`{"tool": "evaluate", "expression": "f(q) = q^2 + 1", "at": ["4"]}` for f(4)."""
    assert binding.function_value is not None
    name, point = binding.function_value
    p = binding.polynomial
    return written_call(
        "evaluate", {"expression": f"{name}({p.variable}) = {p.text}", "at": [point]}
    )


def _value_sentence(bindings: list[Binding], call: str | None = None) -> str | None:
    """What to send for `f(1)` of the polynomial the request names (`call`: what the model
    sent instead, when it was a bare `f(1)`)."""
    named = [(b, b.function_value) for b in bindings if b.function_value is not None]
    if len(named) != 1 or named[0][0].polynomial.variable is None:
        return None
    binding, (name, point) = named[0]
    p = binding.polynomial
    call = call or f"{name}({point})"
    return (
        f'Check the math: {call} in the request is the value of "{binding.phrase}", '
        f"{name}({p.variable}) = {p.text}, at {p.variable} = {point}, and this call does not "
        f"compute that. Send this call instead: {_function_value_call(binding)}"
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
