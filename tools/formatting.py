"""Exact results as short text, with a decimal approximation where it helps the reader.

The LLM quotes this text, so it uses SymPy's plain notation (``sqrt(2)``, ``x**2``, ``I``),
which the parser reads back, and adds ``≈ 0.4142`` (4 significant digits) only for numbers
that are not plain integers.
"""

from __future__ import annotations

import mpmath
import sympy as sp

#: Exact forms longer than this are replaced by their decimal value in the text (value keeps them).
MAX_EXACT_CHARS = 400
SIGNIFICANT_DIGITS = 4
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def order_mark(order: int) -> str:
    """A derivative's order as the superscript of its label (`d²/dx²`); none for the first."""
    return "" if order == 1 else str(order).translate(_SUPERSCRIPT)


def exact(expr: object) -> str:
    """SymPy's plain text for an exact object (huge integers are described, not printed)."""
    try:
        return sp.sstr(expr)
    except ValueError:  # Python refuses int -> str beyond 4,300 digits
        return "a number too long to print"


def decimal(expr: sp.Expr, digits: int = SIGNIFICANT_DIGITS) -> str | None:
    """``expr`` to ``digits`` significant digits, or None when it is not a finite number."""
    if not isinstance(expr, sp.Basic) or not expr.is_number or expr.has(sp.zoo, sp.nan):
        return None
    if expr.has(sp.oo, -sp.oo):
        return None
    try:
        value = approximate(expr, 20)
    except Exception:
        return None
    if not value.is_number or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    real, imag = value.as_real_imag()
    try:
        real_text = _nstr(real, digits) if real != 0 or imag == 0 else ""
        imag_text = _nstr(abs(imag), digits) if imag != 0 else ""
    except (TypeError, ValueError):
        return None
    if not imag_text:
        return real_text
    sign = "-" if imag < 0 else "+"
    if not real_text:
        return f"{'-' if sign == '-' else ''}{imag_text}*I"
    return f"{real_text} {sign} {imag_text}*I"


def approximate(expr: sp.Expr, digits: int = 15) -> sp.Expr:
    """Numerical value; ``CRootOf`` goes through ``eval_approx`` (plain evalf can take 1 s)."""
    if isinstance(expr, sp.CRootOf):
        return expr.eval_approx(digits + 5)
    return sp.N(expr, digits, chop=True)


def _nstr(value: sp.Expr, digits: int) -> str:
    if not value.is_Number:
        value = approximate(value, 20)
    if not value.is_Number:
        raise ValueError("not a number")
    text = mpmath.nstr(mpmath.mpf(sp.Float(value, 20)._mpf_), digits, min_fixed=-4, max_fixed=7)
    return text[:-2] if text.endswith(".0") else text


def needs_decimal(expr: object) -> bool:
    """A decimal helps for numbers that are not small integers (sqrt(2), pi/4, 1/3, 2^100)."""
    if not isinstance(expr, sp.Basic) or not expr.is_number:
        return False
    if expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return False
    return not expr.is_Integer or abs(expr) >= 10**15


def with_decimal(expr: sp.Expr) -> str:
    """``exact ≈ decimal`` for numbers, plain exact text otherwise; long exact forms shortened."""
    if isinstance(expr, sp.Integer) and abs(expr.p).bit_length() > 13_000:
        digits = int(abs(expr.p).bit_length() * 0.30103) + 1
        return f"≈ {decimal(expr)} (an integer with about {digits:,} digits)"
    text = exact(expr)
    approx = decimal(expr) if needs_decimal(expr) else None
    if len(text) > MAX_EXACT_CHARS:
        if approx is None:
            approx = decimal(expr)
        if approx is not None:
            return f"≈ {approx} (the exact form is {len(text):,} characters long)"
        return text[: MAX_EXACT_CHARS - 3] + "..."
    if approx is None or approx == text:
        return text
    return f"{text} ≈ {approx}"


def tidy(value: sp.Expr) -> sp.Expr:
    """A shorter exact form when a cheap simplification finds one."""
    if value.is_Rational or not value.is_number or sp.count_ops(value) > 40:
        return value
    try:
        simpler = sp.simplify(value)
    except Exception:
        return value
    return simpler if sp.count_ops(simpler) < sp.count_ops(value) else value


def degrees_text(var: sp.Symbol, roots: object) -> str | None:
    """``x = 30°, x = 150°``: angles in radians as a person who wrote degrees reads them
    (None when the roots are not a list of numbers)."""
    if not isinstance(roots, list) or not roots or not all(r.is_number for r in roots):
        return None
    shown = []
    for root in roots:
        angle = sp.nsimplify(root * 180 / sp.pi)
        exact_angle = angle.is_Rational and len(str(angle)) <= 12
        shown.append(f"{var} = {angle}°" if exact_angle else f"{var} ≈ {decimal(angle)}°")
    return ", ".join(shown)
