"""Generated correctness suite: every answer is checked numerically, independently of the parser.

Roots are substituted into the mpmath version of the original equation; derivatives are
compared with mpmath's numerical differentiation; antiderivatives are differentiated back;
definite integrals are compared with mpmath quadrature (or a known closed value).
"""

from __future__ import annotations

from typing import Any

import mpmath
import pytest
import sympy as sp

import tools
from tests.tools.tools_cases import Case, all_cases

CASES = all_cases()
TOLERANCE = mpmath.mpf("1e-8")


def _num(expr: Any, subs: dict[sp.Symbol, Any] | None = None) -> Any:
    """A SymPy result as an mpmath number (30 digits)."""
    if subs:
        subs = {k: v if isinstance(v, sp.Basic) else sp.Float(str(v), 30) for k, v in subs.items()}
    value = sp.N(expr, 30, subs=subs) if subs else sp.N(expr, 30)
    re, im = value.as_real_imag()
    re_v = mpmath.mpf(sp.Float(re, 30)._mpf_)
    im_v = mpmath.mpf(sp.Float(im, 30)._mpf_)
    return mpmath.mpc(re_v, im_v) if im_v != 0 else re_v


def _close(got: Any, want: Any, tol: Any = TOLERANCE) -> bool:
    return abs(got - want) <= tol * (1 + abs(want))


def _symbol(case: Case) -> sp.Symbol:
    return sp.Symbol(case.var)


def check_roots(case: Case, result: tools.ToolResult) -> None:
    assert isinstance(result.value, list), result
    assert result.value, f"no roots returned: {result.text}"
    found = [complex(_num(r)) for r in result.value]
    for root in result.value:
        assert not root.free_symbols, f"symbolic root {root}"
        # Substitute the 30-digit root for an accurate residual.
        residual = case.f(_num(root))
        assert abs(residual) < 1e-7, f"root {root} leaves residual {residual} ({result.text})"
    if case.expected_roots:
        expected: list[complex] = []
        for r in case.expected_roots:
            if not any(abs(r - e) < 1e-6 * (1 + abs(e)) for e in expected):
                expected.append(r)
        for e in expected:
            assert any(abs(e - f) < 1e-6 * (1 + abs(e)) for f in found), (
                f"missing root {e}; got {result.text}"
            )
        assert len(found) == len(expected), f"expected {len(expected)} roots, got {result.text}"
    assert f"{case.var} = " in result.text or f"{case.var} ≈ " in result.text, result.text


def check_general(case: Case, result: tools.ToolResult) -> None:
    assert "general solution" in result.text, result.text
    assert isinstance(result.value, list) and result.value
    for family in result.value:
        integers = [s for s in family.free_symbols if s.is_integer]
        assert len(integers) == 1, family
        for n in (-2, -1, 0, 1, 3):
            value = _num(family.subs(integers[0], n))
            assert abs(case.f(value)) < 1e-8, f"{family} at n={n} is not a solution"


def check_identity(case: Case, result: tools.ToolResult) -> None:
    if case.check == "identity":
        assert result.value == sp.S.Complexes and "true for every" in result.text, result
    else:
        assert result.value == [] and "no solution" in result.text, result


def check_derivative(case: Case, result: tools.ToolResult) -> None:
    var = _symbol(case)
    expr = result.value
    assert isinstance(expr, sp.Expr)
    extra = {}
    if "other" in case.extra:
        extra[sp.Symbol(case.extra["other"])] = sp.Rational(7, 5)
    for point in case.points:
        want = mpmath.diff(case.f, point, case.order)
        if extra:
            want *= mpmath.mpf(7) / 5
        got = _num(expr, {var: point, **extra})
        assert _close(got, want, mpmath.mpf("1e-7")), (
            f"at {var}={point}: got {got}, want {want} ({result.text})"
        )


def check_value(case: Case, result: tools.ToolResult) -> None:
    value = result.value
    assert isinstance(value, sp.Expr) and value.is_number, result
    assert not value.has(sp.Float), f"inexact value {value}"
    want = case.f(case.points[0])
    assert _close(_num(value), want), f"got {value}, want {want}"


def check_antiderivative(case: Case, result: tools.ToolResult) -> None:
    var = _symbol(case)
    assert result.text.endswith("+ C"), result.text
    derivative = sp.diff(result.value, var)
    for point in case.points:
        got = _num(derivative, {var: point})
        want = case.f(point)
        assert _close(got, want), f"F'({point}) = {got}, f = {want} ({result.text})"


def check_definite(case: Case, result: tools.ToolResult) -> None:
    assert case.bounds is not None
    if case.exact_value is not None:
        want = mpmath.mpf(case.exact_value)
    else:
        want = mpmath.quad(case.f, list(case.bounds))
    got = _num(result.value)
    assert _close(got, want, mpmath.mpf("1e-10")), f"got {result.text}, quadrature gives {want}"


def check_diverges(case: Case, result: tools.ToolResult) -> None:
    assert "diverges" in result.text, result.text


CHECKS = {
    "roots": check_roots,
    "general": check_general,
    "identity": check_identity,
    "nosolution": check_identity,
    "derivative": check_derivative,
    "value": check_value,
    "antiderivative": check_antiderivative,
    "definite": check_definite,
    "diverges": check_diverges,
}


def test_case_count() -> None:
    assert len(CASES) >= 300


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_generated_case(case: Case) -> None:
    result = getattr(tools, case.tool)(*case.args)
    assert result.ok, f"{case.args}: {result.error}"
    assert result.tool == case.tool
    if case.text_has:
        assert case.text_has in result.text, result.text
    CHECKS[case.check](case, result)
