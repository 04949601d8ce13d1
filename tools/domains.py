"""Solving on a domain: ``solve(..., domain="t >= 0")`` keeps only the roots that lie in it.

Why a module of its own: word problems often say where the answer must live (a time is
nonnegative, a length positive, an angle in ``[0, 2*pi]``), and a small model forgets to drop
the other roots. A domain is one interval of the real line, written as a word (``"real"``,
``"positive"``, ``"nonnegative"``, ``"negative"``, ``"nonpositive"``), an inequality on the
variable (``"t >= 0"``, ``"0 <= x <= 5"``, ``"x > 0 and x < 5"``), or an interval
(``"[0, 5]"``, ``"(0, oo)"``, ``"x in [0, 2*pi)"``). The tokenizer refuses ``<`` and ``>``, so
the text is cut at its relations (`tools.inequalities`) and every side is read by the project
parser; nothing is evaluated. An inequality to solve goes to `tools.inequalities`.

Roots outside the domain are dropped and named; complex roots are never in a domain; roots
with parameters (``1/a``) are kept with their condition. A general solution (``2*pi*n``) is
listed root by root on a bounded domain and re-indexed from ``n = 0`` on a half-line.
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import sympy as sp

from tools.errors import ParseError, ToolError
from tools.extraneous import is_real_number
from tools.formatting import approximate, decimal, degrees_text, with_decimal
from tools.inequalities import (
    GREATER,
    LESS,
    RELATION,
    inequality_domain,
    is_inequality,
    misplaced_inequality,
    read_inequality,
    solve_inequality,
)
from tools.inputs import keep, names_of, read_variable
from tools.intervals import bounds_text
from tools.latex import plain_math
from tools.parsing import parse_expression, parse_name
from tools.result import ToolResult
from tools.solving import TOOL, read_equation, root_text, solve_equation
from tools.tokens import _shown, split_top_level
from tools.vocabulary import ANGLE_IN_DEGREES, CONSTANTS

#: Most roots of a general solution listed one by one on a bounded domain.
MAX_LISTED = 50
#: Most dropped roots named in the text.
MAX_DROPPED_SHOWN = 10
# A left-out root longer than this (in SymPy's text) is shown by its decimal alone.
MAX_DROPPED_EXACT_CHARS = 40

_WORDS: dict[str, tuple[sp.Expr, sp.Expr, bool, bool]] = {
    "real": (-sp.oo, sp.oo, True, True),
    "reals": (-sp.oo, sp.oo, True, True),
    "positive": (sp.S.Zero, sp.oo, True, True),
    "negative": (-sp.oo, sp.S.Zero, True, True),
    "nonnegative": (sp.S.Zero, sp.oo, False, True),
    "nonpositive": (-sp.oo, sp.S.Zero, True, False),
}
# Conditions joined: "x > 0 and x < 5", "x > 0, x < 5".
_AND = re.compile(r"(?i)\s+and\s+|&&?|,")
_MEMBER = re.compile(r"(?s)\s*(?P<name>[^\W\d]\w*)\s*(?:\bin\b|∈)\s*(?P<interval>.*)")
_INTERVAL = re.compile(r"(?s)\s*(?P<open>[\[(])(?P<inner>.*)(?P<close>[\])])\s*")
_WORD = re.compile(r"[^\W\d]\w*")
# The set symbols of the reals ("R", "ℝ", "ℝ+", "R^+"), standing alone.
_SET_NAME = re.compile(r"(?<![\w])(?:ℝ|R)(\^?\+|₊)?(?![\w])")
_HELP = (
    "use 'real', 'positive', 'nonnegative', an inequality such as 't >= 0' or '0 <= x <= 5', "
    "or an interval such as '[0, 5]' or '(0, oo)'"
)


@dataclass(frozen=True)
class Domain:
    """One interval of the real line, and the variable its text named (if it named one)."""

    lower: sp.Expr
    upper: sp.Expr
    left_open: bool
    right_open: bool
    name: str | None = None

    @property
    def interval(self) -> sp.Set:
        return sp.Interval(self.lower, self.upper, self.left_open, self.right_open)

    def label(self, subject: object) -> str:
        """The domain as a condition on ``subject``: ``t >= 0``, ``0 < x <= 5``, ``real x``."""
        return bounds_text(self.lower, self.upper, self.left_open, self.right_open, subject)


# ---------------------------------------------------------------------------------------------
# Reading a domain


def read_domain(raw: object, name: str | None) -> Domain:
    """The domain a caller wrote; ``name`` is the variable the call named, if any."""
    if not isinstance(raw, str):
        raise ParseError(f"The domain must be text such as 't >= 0', not {type(raw).__name__}.")
    text = raw.strip()
    if not text:
        raise ParseError(f"The domain is empty: {_HELP}.")
    named = _domain_word(text)
    if named is not None:
        word, given = named
        return Domain(*_WORDS[word], read_variable(given) if given else None)
    if "≠" in text or "!=" in text:
        raise ParseError(f"The domain '{_shown(text)}' excludes a point; {_HELP}.")
    if RELATION.search(text):
        pieces = [p for p in _AND.split(text) if p.strip()]
        _refuse_several_variables({v for p in pieces if (v := _lone_variable(p))}, text)
        domains = [_inequality(p, name, text) for p in pieces]
        return _intersect(domains, text)
    member = _MEMBER.fullmatch(text)
    if member is not None and _INTERVAL.fullmatch(member.group("interval")):
        given = read_variable(member.group("name"))
        domain = _interval(member.group("interval"), name or given, text)
        return Domain(domain.lower, domain.upper, domain.left_open, domain.right_open, given)
    if _INTERVAL.fullmatch(text):
        return _interval(text, name, text)
    raise ParseError(f"Could not read the domain '{_shown(text)}': {_HELP}.")


def _domain_word(text: str) -> tuple[str, str | None] | None:
    """The key of ``_WORDS`` a domain in words or set symbols names ("all real numbers",
    "positive reals", "non-negative", "R", "ℝ+", "x ∈ ℝ"), and the variable it names if it
    names one; None for anything else."""
    words = _SET_NAME.sub(lambda m: " positive" if m.group(1) else " real", text)
    words = words.replace("∈", " in ").replace("-", "").replace("_", " ").split()
    name = None
    if len(words) >= 3 and words[1].lower() == "in" and _WORD.fullmatch(words[0]):
        name, words = words[0], words[2:]
    words = [w.lower() for w in words]
    while words and words[0] in ("all", "the"):
        words = words[1:]
    if words and words[-1] in ("number", "numbers"):
        words = words[:-1]
    if len(words) > 1 and words[-1] in ("real", "reals"):
        words = words[:-1]
    key = "".join(words) or "real"
    return (key, name) if key in _WORDS else None


def _interval(text: str, name: str | None, whole: str) -> Domain:
    match = _INTERVAL.fullmatch(text)
    assert match is not None
    parts = split_top_level(match.group("inner"))
    if len(parts) != 2 or ";" in match.group("inner"):
        raise ParseError(
            f"The interval '{_shown(whole)}' needs two bounds separated by a comma, as in '[0, 5]'."
        )
    lower, upper = (_bound(p, name, whole) for p in parts)
    return _checked(
        Domain(lower, upper, match.group("open") == "(", match.group("close") == ")"), whole
    )


def _inequality(text: str, name: str | None, whole: str) -> Domain:
    """``t >= 0``, ``0 < x``, ``0 <= x <= 5``: a chain with the variable alone on one side."""
    pieces = RELATION.split(text)
    sides, relations = pieces[0::2], pieces[1::2]
    if any(not s.strip() for s in sides) or len(sides) > 3:
        raise ParseError(f"Could not read the domain '{_shown(whole)}': {_HELP}.")
    if len(sides) == 3:
        first, second = relations
        same = {first, second} <= set(LESS) or {first, second} <= set(GREATER)
        if same and not _is_variable(sides[1], name):
            _refuse_another_variable(sides[1:2], name, whole)
        if not same or not _is_variable(sides[1], name):
            shown = name or "x"
            raise ParseError(
                f"The domain '{_shown(whole)}' should read like 'a <= {shown} <= b' with the "
                "user's bounds (the variable in the middle)."
            )
        var = _variable(sides[1], name)
        a, b = _bound(sides[0], var, whole), _bound(sides[2], var, whole)
        if first in LESS:
            return _checked(Domain(a, b, LESS[first], LESS[second], var), whole)
        return _checked(Domain(b, a, GREATER[second], GREATER[first], var), whole)
    left, right = sides
    (relation,) = relations
    if _is_variable(left, name):
        var, bound, less = _variable(left, name), right, relation in LESS
    elif _is_variable(right, name):
        var, bound, less = _variable(right, name), left, relation in GREATER
    else:
        _refuse_another_variable(sides, name, whole)
        raise ParseError(
            f"The domain '{_shown(whole)}' should have the variable alone on one side, as in "
            "'t >= 0'."
        )
    value = _bound(bound, var, whole)
    strict = LESS.get(relation, GREATER.get(relation, False))
    if less:
        return _checked(Domain(-sp.oo, value, True, strict, var), whole)
    return _checked(Domain(value, sp.oo, strict, True, var), whole)


def _is_variable(text: str, name: str | None) -> bool:
    word = text.strip()
    if not _WORD.fullmatch(word):
        return False
    if name is not None:
        return word == name or read_variable(word) == name
    return word not in CONSTANTS


def _lone_variable(condition: str) -> str | None:
    """The variable of `t >= 0` or `0 <= x <= 5` (`θ` read as theta): the one side that is a
    variable."""
    variables = [s.strip() for s in RELATION.split(condition)[0::2] if _is_variable(s, None)]
    return read_variable(variables[0]) if len(variables) == 1 else None


def _refuse_several_variables(names: set[str], whole: str) -> None:
    """Conditions on two unknowns: a problem for a system, which the model reached for solve."""
    if len(names) > 1:
        raise ParseError(
            f"The domain '{_shown(whole)}' is about several variables "
            f"({', '.join(sorted(names))}): solve finds one unknown; for several, call "
            "solve_system with one equation per fact the user gave."
        )


def _refuse_another_variable(sides: list[str], name: str | None, whole: str) -> None:
    """A condition on another variable than the call's (`t >= 0` for a solve in y): said so,
    since a model copies a domain from an example more often than it mistypes one."""
    others = [side.strip() for side in sides if _is_variable(side, None)]
    if name is not None and others:
        raise ParseError(
            f"The domain '{_shown(whole)}' is about {others[0]}, but the call is in {name}: "
            f"write the domain for {name}, or none when the user set no condition."
        )


def _variable(text: str, name: str | None) -> str:
    word = text.strip()
    return name if name is not None and read_variable(word) == name else parse_name(word)


def _bound(text: str, name: str | None, whole: str) -> sp.Expr:
    value = parse_expression(text, keep(name), "The domain")
    if value.free_symbols or not (value.is_extended_real or value in (sp.oo, -sp.oo)):
        raise ParseError(
            f"The bounds of the domain '{_shown(whole)}' must be real numbers, not "
            f"'{_shown(text.strip())}'."
        )
    return value


def _checked(domain: Domain, whole: str) -> Domain:
    """An empty or backwards interval is an error, not a silent 'no solution'."""
    if domain.interval is sp.S.EmptySet:
        raise ToolError(f"The domain '{_shown(whole)}' is empty: check the order of its bounds.")
    return domain


def _intersect(domains: list[Domain], whole: str) -> Domain:
    names = {d.name for d in domains if d.name is not None}  # one: read_domain checked
    both = sp.Intersection(*(d.interval for d in domains))
    if both is sp.S.EmptySet:
        raise ToolError(f"The domain '{_shown(whole)}' is empty: no number satisfies it.")
    if not isinstance(both, sp.Interval):
        raise ParseError(f"Could not read the domain '{_shown(whole)}': {_HELP}.")
    return Domain(both.start, both.end, both.left_open, both.right_open, next(iter(names), None))


# ---------------------------------------------------------------------------------------------
# Solving on a domain


def solve_in_domain(
    equation: str, variable: str | None = None, domain: object = None
) -> ToolResult:
    """``solve`` with its roots restricted to ``domain``; no domain is plain ``solve``. An
    inequality is solved as one (`tools.inequalities`), its set cut to the domain."""
    if isinstance(equation, str):  # `x \leq 2` is an inequality before it is cut at `≤`
        equation = plain_math(equation)
    if isinstance(domain, str):
        domain = plain_math(domain)
    inequality = is_inequality(equation)
    if domain is None:
        return (solve_inequality if inequality else solve_equation)(equation, variable)
    name = read_variable(variable)
    try:
        where = read_domain(domain, name)
    except ParseError:
        if inequality and is_inequality(domain):  # a second inequality: both must hold
            var = read_inequality(equation, name).var
            return solve_inequality(equation, name, *inequality_domain(str(domain), var))
        if not inequality and misplaced_inequality(equation, domain, name):
            return solve_inequality(str(domain), name)
        raise
    read, what = (read_inequality, "inequality") if inequality else (read_equation, "equation")
    if name is None and where.name is not None:
        free = read(equation, where.name).free
        if free and sp.Symbol(where.name) not in free:
            raise ToolError(
                f"The domain '{_shown(domain)}' is about {where.name}, but the {what}'s "
                f"variables are {names_of(free)}: write the domain for the unknown."
            )
        name = where.name
    var = read(equation, name).var
    if var is not None and where.name is not None and where.name != var.name:
        raise ToolError(
            f"The domain '{_shown(domain)}' is about {where.name}, but the {what} is solved "
            f"for {var}: write the domain for {var}."
        )
    if inequality:
        label = where.label(var) if var is not None else ""
        return solve_inequality(equation, name, where.interval, label)
    result = solve_equation(equation, name)
    if not result.ok or var is None:
        return result
    restricted = _restrict(result, var, where)
    angles = degrees_text(var, restricted.value) if ANGLE_IN_DEGREES.search(str(domain)) else None
    if angles is None:  # a domain written in degrees (`[0, 360°]`) is answered in them too
        return restricted
    return dataclasses.replace(restricted, text=f"{restricted.text}; in degrees: {angles}")


def _restrict(result: ToolResult, var: sp.Symbol, domain: Domain) -> ToolResult:
    label = domain.label(var)
    value = result.value
    if value == sp.S.Complexes:
        text = result.text
        if text == f"true for every {var}":
            text = f"true for every {label}"  # "every x > 0", "every real x"
        else:
            text += f" (restricted to {label})"
        return ToolResult.success(TOOL, result.input, domain.interval, text)
    if not isinstance(value, list) or not value:
        return result
    families = [v for v in value if _integer_symbols(v)]
    if families:
        return _restrict_families(result, families, var, domain)
    kept: list[str] = []
    kept_values: list[sp.Expr] = []
    outside: list[str] = []
    complex_: list[str] = []
    for root in value:
        inside = _inside(root, domain)
        shown = _shown_root(var, root)
        if inside is False:
            real = not root.is_number or is_real_number(root)
            (outside if real else complex_).append(_dropped_root(var, root, shown))
            continue
        kept_values.append(root)
        kept.append(shown if inside else f"{shown} (if {domain.label(sp.sstr(root))})")
    dropped = []
    if outside:
        dropped.append(f"{_listing(outside)} {'is' if len(outside) == 1 else 'are'} outside it")
    if complex_:
        dropped.append(f"{_listing(complex_)} {'is' if len(complex_) == 1 else 'are'} not real")
    prefix = _prefix(result.text)
    if not kept_values:
        text = f"no solution for {label}: {'; '.join(dropped)}"
        return ToolResult.success(TOOL, result.input, [], prefix + text)
    note = f"; {'; '.join(dropped)}" if dropped else ""
    text = f"{prefix}{', '.join(kept)} (for {label}{note})"
    return ToolResult.success(TOOL, result.input, kept_values, text)


def _prefix(text: str) -> str:
    """Keep the original answer's warning (principal or numerical solutions only)."""
    if text.startswith("principal solutions"):
        return "principal solutions (others differ by a period): "
    if text.startswith("no exact solution found"):
        return "numerical solutions (there may be others): "
    return ""


def _shown_root(var: sp.Symbol, root: sp.Expr) -> str:
    if isinstance(root, sp.Float):
        return f"{var} ≈ {float(root):.10g}"
    return root_text(var, root)


def _dropped_root(var: sp.Symbol, root: sp.Expr, shown: str) -> str:
    """A root the domain leaves out, by its decimal alone when its exact form is long: the
    person asked for the others (a cubic's two complex roots in radicals are three lines)."""
    exact_text = sp.sstr(root)
    approx = decimal(root) if root.is_number else None
    if len(exact_text) > MAX_DROPPED_EXACT_CHARS and approx is not None:
        return f"{var} ≈ {approx}"
    return shown


def _listing(items: list[str]) -> str:
    shown = ", ".join(items[:MAX_DROPPED_SHOWN])
    more = len(items) - MAX_DROPPED_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _inside(value: sp.Expr, domain: Domain) -> bool | None:
    """Whether ``value`` lies in the domain: exactly when SymPy can tell, numerically for
    numbers it cannot compare (None: it depends on parameters)."""
    if value.is_number and not is_real_number(value):
        return False
    try:
        answer = domain.interval.contains(value)
    except Exception:
        answer = None
    if answer in (sp.true, sp.false):
        return bool(answer)
    if not value.is_number:
        return None
    point = approximate(value, 30)
    real = float(sp.re(point))
    low, high = float(domain.lower), float(domain.upper)
    above = real > low or (not domain.left_open and math.isclose(real, low, abs_tol=1e-25))
    below = real < high or (not domain.right_open and math.isclose(real, high, abs_tol=1e-25))
    return above and below


def _integer_symbols(value: sp.Expr) -> set[sp.Symbol]:
    return {s for s in value.free_symbols if s.is_integer}


def _restrict_families(
    result: ToolResult, families: list[sp.Expr], var: sp.Symbol, domain: Domain
) -> ToolResult:
    """A periodic general solution on a domain: listed roots, or re-indexed from n = 0."""
    label = domain.label(var)
    if domain.lower == -sp.oo and domain.upper == sp.oo:
        return ToolResult.success(TOOL, result.input, result.value, f"{result.text} (for {label})")
    real = [f for f in families if is_real_number(f.subs(dict.fromkeys(_integer_symbols(f), 0)))]
    if not real:  # `sin(x) = 2`: asin(2) is complex, so is every member
        return ToolResult.success(TOOL, result.input, [], f"no real solution for {label}")
    listed: list[sp.Expr] = []
    shifted: list[sp.Expr] = []
    for family in real:
        found = family_members(family, var, domain)
        if isinstance(found, list):
            listed.extend(found)
        else:
            shifted.append(found)
    if shifted:
        (n,) = _integer_symbols(shifted[0])
        extra = [f"{var} = {with_decimal(v)}" for v in sorted(listed, key=_key)]
        forms = [f"{var} = {sp.sstr(f)}" for f in shifted]
        text = f"general solution for {label}: {', '.join(extra + forms)} ({n} = 0, 1, 2, ...)"
        return ToolResult.success(TOOL, result.input, sorted(listed, key=_key) + shifted, text)
    roots = sorted(set(listed), key=_key)
    if not roots:
        return ToolResult.success(TOOL, result.input, [], f"no solution for {label}")
    text = f"{', '.join(root_text(var, r) for r in roots)} (for {label})"
    return ToolResult.success(TOOL, result.input, roots, text)


def _key(value: sp.Expr) -> float:
    return float(approximate(value, 15))


def family_members(family: sp.Expr, var: sp.Symbol, domain: Domain) -> list[sp.Expr] | sp.Expr:
    """The members of ``a*n + b`` in the domain: a list on a bounded domain, else the family
    re-indexed so that ``n = 0, 1, 2, ...`` are exactly its members."""
    (n,) = _integer_symbols(family)
    poly = sp.Poly(family, n) if family.is_polynomial(n) else None
    if poly is None or poly.degree() != 1 or not all(c.is_number for c in poly.all_coeffs()):
        raise ToolError(
            f"Could not restrict the general solution {sp.sstr(family)} to the domain "
            f"{domain.label(var)}."
        )
    a, b = poly.all_coeffs()
    from_lower = bool(domain.lower.is_finite)
    end = domain.lower if from_lower else domain.upper
    # The direction in n that moves the members away from `end`, into the domain.
    step = 1 if bool(a > 0) == from_lower else -1
    guess = int(sp.floor((end - b) / a))
    first = next(
        (
            k
            for k in range(guess - 2 * step, guess + 3 * step, step)
            if _inside(family.subs(n, k), domain)
        ),
        None,
    )
    if first is None:
        return []
    if not (from_lower and domain.upper.is_finite):
        index = sp.Symbol(n.name, integer=True, nonnegative=True)
        return sp.expand(family.subs(n, first + step * index))
    members: list[sp.Expr] = []
    k = first
    while _inside(family.subs(n, k), domain):
        if len(members) == MAX_LISTED:
            raise ToolError(
                f"The domain {domain.label(var)} holds more than {MAX_LISTED} solutions: use a "
                "smaller domain."
            )
        members.append(family.subs(n, k))
        k += step
    return members
