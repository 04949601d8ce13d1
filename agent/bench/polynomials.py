"""Exact math on integer polynomials, for writing scenario replies.

The benchmark's scripted answers quote results computed here with exact fractions (the SymPy
tools compute them again at run time, and the runner checks that they agree), so generating a
long scenario takes milliseconds.
"""

from __future__ import annotations

from fractions import Fraction

Poly = tuple[int, ...]  # coefficients, highest degree first


def fraction_text(value: Fraction) -> str:
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def poly_text(coeffs: Poly, power: str = "^") -> str:
    """'2*x^2 + 4*x - 6' (power '^', as people type) or '2*x**2 + 4*x - 6' (SymPy's)."""
    degree = len(coeffs) - 1
    parts: list[str] = []
    for i, c in enumerate(coeffs):
        if c == 0:
            continue
        n = degree - i
        magnitude = abs(c)
        if n == 0:
            term = str(magnitude)
        else:
            var = "x" if n == 1 else f"x{power}{n}"
            term = var if magnitude == 1 else f"{magnitude}*{var}"
        if not parts:
            parts.append(f"-{term}" if c < 0 else term)
        else:
            parts.append(f"- {term}" if c < 0 else f"+ {term}")
    return " ".join(parts) if parts else "0"


def sympy_text(coeffs: Poly) -> str:
    """How the tools print a polynomial (SymPy's `sstr`), which a careful model quotes.

    It is not always highest degree first ("3 - 2*x"), so it is asked of SymPy itself.
    """
    import sympy as sp

    x = sp.Symbol("x")
    degree = len(coeffs) - 1
    return sp.sstr(sum(sp.Integer(c) * x ** (degree - i) for i, c in enumerate(coeffs)))


def derivative(coeffs: Poly) -> Poly:
    degree = len(coeffs) - 1
    result = tuple(c * (degree - i) for i, c in enumerate(coeffs[:-1]))
    return result or (0,)


def evaluate(coeffs: Poly, x: Fraction) -> Fraction:
    value = Fraction(0)
    for c in coeffs:
        value = value * x + c
    return value


def integral(coeffs: Poly, lower: int, upper: int) -> Fraction:
    degree = len(coeffs) - 1
    antiderivative = [Fraction(c, degree - i + 1) for i, c in enumerate(coeffs)] + [Fraction(0)]

    def at(x: int) -> Fraction:
        value = Fraction(0)
        for c in antiderivative:
            value = value * x + c
        return value

    return at(upper) - at(lower)
