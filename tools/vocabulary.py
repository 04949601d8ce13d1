"""The words and symbols the parser knows: functions, constants, Greek letters, what is
refused and why (see `tools.parsing` for how text is read)."""

from __future__ import annotations

import functools
import keyword
import re
from collections.abc import Callable

import sympy as sp

from tools import limits
from tools.errors import LimitError

# ---------------------------------------------------------------------------------------------
# Vocabulary


def _log_base(base: int | sp.Expr) -> Callable[[sp.Expr], sp.Expr]:
    """log to a fixed base, for the ``log10``/``log2``/``log_2`` spellings."""
    return lambda arg: sp.log(arg, base)


def _gcd(*args: sp.Expr) -> sp.Expr:
    """Greatest common divisor of whole numbers (or of polynomials), any number of them."""
    return functools.reduce(sp.gcd, args)


def _lcm(*args: sp.Expr) -> sp.Expr:
    return functools.reduce(sp.lcm, args)


def _check_choice(factors: sp.Expr, n: sp.Expr, k: sp.Expr, name: str) -> None:
    """Bounded like a factorial (the number of factors it multiplies, 0 when n or k is no
    integer), before it is built."""
    if factors > limits.MAX_FACTORIAL:
        raise LimitError(
            f"{name}(n, k) multiplies at most {limits.MAX_FACTORIAL} factors: "
            f"{name}({n}, {k}) is too large."
        )


def _binomial(n: sp.Expr, k: sp.Expr) -> sp.Expr:
    """``binomial(n, k)``, "n choose k": the ways to choose k of n."""
    _check_choice(min(k, n - k) if n.is_Integer and k.is_Integer else 0, n, k, "binomial")
    return sp.binomial(n, k)


def _arrangements(n: sp.Expr, k: sp.Expr) -> sp.Expr:
    """``nPr(n, k)`` = n!/(n - k)!: the ways to arrange k of n."""
    _check_choice(k if k.is_Integer else 0, n, k, "nPr")
    return sp.ff(n, k)


# `log_2 x`, `log_b(x)` (and LaTeX's `\log_{2}`): a logarithm to the base after the underscore.
LOG_BASE = re.compile(r"log_(\d+|[A-Za-z])")


def log_to_base(name: str) -> tuple[Callable[[sp.Expr], sp.Expr], int, int] | None:
    """The function a `log_B` name calls, as `FUNCTIONS` holds one; None for another name."""
    match = LOG_BASE.fullmatch(name)
    if match is None:
        return None
    base = match.group(1)
    return _log_base(sp.Integer(base) if base.isdigit() else sp.Symbol(base)), 1, 1


#: A unit of angle written after a number (`30 degrees`): read as `30°`.
DEGREE_WORDS = frozenset({"degrees", "degree", "deg"})
_DEGREE_UNIT = "|".join(sorted(DEGREE_WORDS, key=len, reverse=True))
#: A number with its unit of angle (`30°`, `30 °`, `30 degrees`); group 1 is the number.
ANGLE_IN_DEGREES = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:°|(?:{_DEGREE_UNIT})\b)")

#: name -> (constructor, min args, max args). Only these names can be called.
FUNCTIONS: dict[str, tuple[Callable[..., sp.Expr], int, int]] = {
    "sin": (sp.sin, 1, 1),
    "cos": (sp.cos, 1, 1),
    "tan": (sp.tan, 1, 1),
    "cot": (sp.cot, 1, 1),
    "sec": (sp.sec, 1, 1),
    "csc": (sp.csc, 1, 1),
    "cosec": (sp.csc, 1, 1),
    "asin": (sp.asin, 1, 1),
    "acos": (sp.acos, 1, 1),
    "atan": (sp.atan, 1, 1),
    "acot": (sp.acot, 1, 1),
    "asec": (sp.asec, 1, 1),
    "acsc": (sp.acsc, 1, 1),
    "arcsin": (sp.asin, 1, 1),
    "arccos": (sp.acos, 1, 1),
    "arctan": (sp.atan, 1, 1),
    "arccot": (sp.acot, 1, 1),
    "arcsec": (sp.asec, 1, 1),
    "arccsc": (sp.acsc, 1, 1),
    "sinh": (sp.sinh, 1, 1),
    "cosh": (sp.cosh, 1, 1),
    "tanh": (sp.tanh, 1, 1),
    "coth": (sp.coth, 1, 1),
    "sech": (sp.sech, 1, 1),
    "csch": (sp.csch, 1, 1),
    "asinh": (sp.asinh, 1, 1),
    "acosh": (sp.acosh, 1, 1),
    "atanh": (sp.atanh, 1, 1),
    "acoth": (sp.acoth, 1, 1),
    "arcsinh": (sp.asinh, 1, 1),
    "arccosh": (sp.acosh, 1, 1),
    "arctanh": (sp.atanh, 1, 1),
    "arsinh": (sp.asinh, 1, 1),
    "arcosh": (sp.acosh, 1, 1),
    "artanh": (sp.atanh, 1, 1),
    "exp": (sp.exp, 1, 1),
    "ln": (sp.log, 1, 1),
    "log": (sp.log, 1, 2),
    "log10": (_log_base(10), 1, 1),
    "log2": (_log_base(2), 1, 1),
    "sqrt": (sp.sqrt, 1, 1),
    "cbrt": (sp.cbrt, 1, 1),
    "root": (sp.root, 2, 2),
    "abs": (sp.Abs, 1, 1),
    "Abs": (sp.Abs, 1, 1),
    "sign": (sp.sign, 1, 1),
    "sgn": (sp.sign, 1, 1),
    "floor": (sp.floor, 1, 1),
    "ceil": (sp.ceiling, 1, 1),
    "ceiling": (sp.ceiling, 1, 1),
    "factorial": (sp.factorial, 1, 1),
    **dict.fromkeys(("binomial", "choose", "nCr", "comb", "combinations"), (_binomial, 2, 2)),
    **dict.fromkeys(("nPr", "perm", "permutations"), (_arrangements, 2, 2)),
    **dict.fromkeys(("gcd", "hcf", "gcf"), (_gcd, 2, 20)),
    "lcm": (_lcm, 2, 20),
    "mod": (sp.Mod, 2, 2),
    "gamma": (sp.gamma, 1, 1),
    "erf": (sp.erf, 1, 1),
    "erfc": (sp.erfc, 1, 1),
    "erfi": (sp.erfi, 1, 1),
    "Si": (sp.Si, 1, 1),
    "Ci": (sp.Ci, 1, 1),
    "Shi": (sp.Shi, 1, 1),
    "Chi": (sp.Chi, 1, 1),
    "Ei": (sp.Ei, 1, 1),
    "li": (sp.li, 1, 1),
    "LambertW": (sp.LambertW, 1, 1),
    "max": (sp.Max, 1, 20),
    "min": (sp.Min, 1, 20),
    "Max": (sp.Max, 1, 20),
    "Min": (sp.Min, 1, 20),
    # "sum(-4, -3, 1, 2)": how a model adds a list of roots.
    "sum": (sp.Add, 1, 20),
    "product": (sp.Mul, 1, 20),
    "prod": (sp.Mul, 1, 20),
}

#: Functions also written between their two arguments: `7 mod 3`, `10 choose 3`.
INFIX_FUNCTIONS = frozenset({"mod", "choose"})

#: Function names that are only functions when a bracket follows (else a Greek letter).
_BRACKET_ONLY_FUNCTIONS = frozenset({"gamma"})

_INFINITY_WORDS = ("oo", "inf", "infinity", "Infinity")
CONSTANTS: dict[str, sp.Expr] = {
    "pi": sp.pi,
    "Pi": sp.pi,
    "e": sp.E,
    "E": sp.E,
    "I": sp.I,
    **dict.fromkeys(_INFINITY_WORDS, sp.oo),
}

GREEK_LETTERS: dict[str, str] = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ϑ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "ρ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
    "Γ": "Gamma",
    "Δ": "Delta",
    "Θ": "Theta",
    "Λ": "Lambda",
    "Ξ": "Xi",
    "Σ": "Sigma",
    "Φ": "Phi",
    "Ψ": "Psi",
    "Ω": "Omega",
}
GREEK_NAMES = frozenset(GREEK_LETTERS.values())

#: Known names that a longer unknown word may start with (``sinx``, ``pix``, ``thetax``).
#: Short or risky names (``li``, ``oo``, two-letter Greek) only count as whole words.
_PREFIX_NAMES = tuple(
    sorted(
        {name for name in FUNCTIONS if len(name) >= 2 and name not in {"li", "W"}}
        | {"pi"}
        | {name for name in GREEK_NAMES if len(name) >= 4},
        key=len,
        reverse=True,
    )
)

#: Words that look like code. Refused with a clear message rather than split into letters.
_CODE_WORDS = (frozenset(keyword.kwlist) - {"lambda"}) | {
    "eval",
    "exec",
    "compile",
    "open",
    "globals",
    "locals",
    "vars",
    "getattr",
    "setattr",
    "delattr",
    "breakpoint",
    "exit",
    "quit",
    "input",
    "print",
    "os",
    "sys",
    "subprocess",
    "system",
    "builtins",
    "sympify",
}

_SUPERSCRIPTS = {
    "⁰": "0",
    "¹": "1",
    "²": "2",
    "³": "3",
    "⁴": "4",
    "⁵": "5",
    "⁶": "6",
    "⁷": "7",
    "⁸": "8",
    "⁹": "9",
    "⁻": "-",
    "⁺": "+",
}

#: Single characters and what token they become.
_CHAR_TOKENS = {
    "+": ("op", "+"),
    "-": ("op", "-"),
    "−": ("op", "-"),
    "–": ("op", "-"),
    "—": ("op", "-"),
    "*": ("op", "*"),
    "×": ("op", "*"),
    "·": ("op", "*"),
    "⋅": ("op", "*"),
    "∗": ("op", "*"),
    "/": ("op", "/"),
    "÷": ("op", "/"),
    "∕": ("op", "/"),
    "⁄": ("op", "/"),
    "^": ("op", "^"),
    "(": ("(", "("),
    ")": (")", ")"),
    ",": (",", ","),
    "=": ("=", "="),
    "!": ("!", "!"),
    "%": ("%", "%"),
    "°": ("°", "°"),
    "|": ("|", "|"),
    "√": ("root", "2"),
    "∛": ("root", "3"),
    "∜": ("root", "4"),
    "π": ("const", "pi"),
    "∞": ("const", "oo"),
}

_WHY_REJECTED = {
    "'": "quotes are not allowed in math input",
    '"': "quotes are not allowed in math input",
    "[": "use round brackets ( ) for grouping",
    "]": "use round brackets ( ) for grouping",
    "{": "use round brackets ( ) for grouping",
    "}": "use round brackets ( ) for grouping",
    "<": "only solve reads inequalities",
    ">": "only solve reads inequalities",
    "≤": "only solve reads inequalities",
    "≥": "only solve reads inequalities",
    "≠": "'≠' is not read; solve the equation with '=' and leave its roots out",
}

_NUMBER_RE = re.compile(r"(?P<mant>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE](?P<exp>[+-]?[0-9]+))?")
_WORD_RE = re.compile(r"(?P<letters>[A-Za-z]+)(?P<digits>[0-9]*)(?P<sub>_[A-Za-z0-9]+)?")
