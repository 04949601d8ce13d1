"""Property tests of the tools of issue 29 against SymPy itself, on random integer inputs.

Inputs are rendered as text (SymPy or caret notation) and sent through the public API, so the
parser and the worker are part of what is checked; the expectations are computed here with
plain SymPy calls that do not share the tools' code. Example counts are kept small: every
example is a round trip to the worker.
"""

from __future__ import annotations

import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tools
from tools.extrema import analyse

x, y, z = sp.symbols("x y z")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLOSE = sp.Float("1e-20")

small = st.integers(min_value=-6, max_value=6)
nonzero = small.filter(bool)


@st.composite
def polynomials(draw: st.DrawFn, low: int = 2, high: int = 5) -> sp.Expr:
    degree = draw(st.integers(min_value=low, max_value=high))
    coeffs = [draw(small) for _ in range(degree)] + [draw(nonzero)]
    return sp.Add(*(c * x**k for k, c in enumerate(coeffs)))


def text(expr: sp.Expr, caret: bool) -> str:
    shown = sp.sstr(expr)
    return shown.replace("**", "^") if caret else shown


def num(value: sp.Expr) -> complex:
    return complex(sp.N(value, 30))


def equal(a: sp.Expr, b: sp.Expr) -> bool:
    """Exact values compared at 30 digits (radicals against CRootOf and the like)."""
    if a in (sp.oo, -sp.oo) or b in (sp.oo, -sp.oo):
        return a == b
    return abs(num(a) - num(b)) <= CLOSE * (1 + abs(num(b)))


def real_roots(poly: sp.Expr) -> list[sp.Expr]:
    return sorted(set(sp.real_roots(sp.Poly(poly, x))), key=lambda r: float(r))


# ---------------------------------------------------------------------------------------------
# extrema


@SETTINGS
@given(polynomials(), st.booleans())
def test_critical_points_are_the_real_roots_of_the_derivative(p: sp.Expr, caret: bool) -> None:
    result = tools.extrema(text(p, caret))
    assert result.ok, result.error
    expected = real_roots(sp.diff(p, x))
    assert len(result.value) == len(expected), (result.text, expected)
    for got, want in zip(result.value, expected, strict=True):
        assert equal(got, want), (got, want)


@SETTINGS
@given(polynomials())
def test_classification_matches_the_derivatives(p: sp.Expr) -> None:
    """At a root of p' of multiplicity m, the first nonzero derivative decides: m odd gives a
    minimum (positive) or maximum (negative); m even gives neither."""
    found = analyse(sp.sstr(p))
    d1 = sp.Poly(sp.diff(p, x), x)
    for critical in found.criticals:
        m = 0
        derivative = d1
        while derivative.eval(critical.at) == 0 or equal(derivative.eval(critical.at), 0):
            m += 1
            derivative = derivative.diff(x)
        sign = num(derivative.eval(critical.at)).real
        if m % 2 == 0:
            assert critical.kind == "neither", (p, critical)
        else:
            want = "local minimum" if sign > 0 else "local maximum"
            assert critical.kind == want, (p, critical)
        if m == 1:  # a simple root: the second derivative's sign is the classification
            second = num(sp.diff(p, x, 2).subs(x, critical.at)).real
            assert (second > 0) == (critical.kind == "local minimum")


@SETTINGS
@given(polynomials(), st.integers(-4, 2), st.integers(1, 5), st.sampled_from(["max", "min"]))
def test_extreme_on_an_interval_is_the_best_candidate(
    p: sp.Expr, a: int, width: int, kind: str
) -> None:
    b = a + width
    result = tools.extrema(sp.sstr(p), None, a, b, kind)
    assert result.ok, result.error
    points = [sp.Integer(a), sp.Integer(b)] + [
        r for r in real_roots(sp.diff(p, x)) if a < num(r).real < b
    ]
    values = [p.subs(x, r) for r in points]
    best = (max if kind == "max" else min)(values, key=lambda v: num(v).real)
    assert equal(result.value, best), (result.text, best)


# ---------------------------------------------------------------------------------------------
# transform


@st.composite
def products(draw: st.DrawFn) -> sp.Expr:
    factors = [draw(st.integers(1, 4))]
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            factors.append(draw(nonzero) * x + draw(small))
        else:
            factors.append(x**2 + draw(small) * x + draw(small))
    return sp.Mul(*factors)


@SETTINGS
@given(products(), st.booleans())
def test_factor_expands_back_and_is_complete(product: sp.Expr, caret: bool) -> None:
    expanded = sp.expand(product)
    assume(expanded.free_symbols)
    result = tools.transform(text(expanded, caret), "factor")
    assert result.ok, result.error
    assert sp.expand(result.value - expanded) == 0
    assert sp.factor_list(result.value) == sp.factor_list(expanded)


@SETTINGS
@given(products())
def test_expand_matches_sympy(product: sp.Expr) -> None:
    result = tools.transform(sp.sstr(product), "expand")
    assert result.ok, result.error
    assert result.value == sp.expand(product)


@SETTINGS
@given(products(), st.sampled_from(["simplify", "expand"]))
def test_a_polynomial_left_as_it_is_also_shows_its_factored_form(
    product: sp.Expr, how: str
) -> None:
    """A request for the factored form answered by simplify or expand still holds it."""
    expanded = sp.expand(product)
    assume(expanded.free_symbols and sp.factor(expanded) != expanded)
    result = tools.transform(sp.sstr(expanded), how)
    assert result.ok, result.error
    if result.value == expanded:
        shown = result.text.split("; factored: ")[1].removesuffix(")")
        assert sp.expand(sp.sympify(shown) - expanded) == 0
        assert shown == sp.sstr(sp.factor(expanded))


# ---------------------------------------------------------------------------------------------
# solve_system


def _equations(lhs: list[sp.Expr], rhs: list[sp.Expr]) -> str:
    return ", ".join(f"{sp.sstr(a)} = {sp.sstr(b)}" for a, b in zip(lhs, rhs, strict=True))


@SETTINGS
@given(st.integers(2, 3), st.data())
def test_linear_solutions_satisfy_every_equation(size: int, data: st.DataObject) -> None:
    unknowns = [x, y, z][:size]
    rows = [[data.draw(small) for _ in unknowns] for _ in range(size)]
    assume(all(any(row) for row in rows))
    # an unknown no equation contains is refused with a sentence (a hostile case, not this one)
    assume(all(any(row[j] for row in rows) for j in range(size)))
    lhs = [sum(c * u for c, u in zip(row, unknowns, strict=True)) for row in rows]
    rhs = [data.draw(small) for _ in range(size)]
    names = ", ".join(u.name for u in unknowns)
    result = tools.solve_system(_equations(lhs, rhs), names)
    assert result.ok, result.error
    expected = sp.linsolve([a - b for a, b in zip(lhs, rhs, strict=True)], unknowns)
    if expected is sp.S.EmptySet:
        assert result.value == [] and "no solution" in result.text
        return
    assert len(result.value) == 1
    solution = result.value[0]
    for a, b in zip(lhs, rhs, strict=True):
        assert sp.simplify((a - b).subs(solution)) == 0
    if sp.Matrix(rows).det() != 0:
        assert "infinitely" not in result.text
        assert tuple(solution[u] for u in unknowns) == next(iter(expected))


@SETTINGS
@given(st.integers(1, 6), nonzero, small, small)
def test_circle_and_line_solutions_satisfy_both(r: int, a: int, b: int, c: int) -> None:
    assume(b != 0)
    equations = [x**2 + y**2 - r**2, a * x + b * y - c]
    result = tools.solve_system(f"x^2 + y^2 = {r * r}; {sp.sstr(a * x + b * y)} = {c}")
    assert result.ok, result.error
    assert len(result.value) == len(sp.solve(equations, [x, y], dict=True))
    for solution in result.value:
        for equation in equations:
            assert abs(num(equation.subs(solution))) < 1e-20


# ---------------------------------------------------------------------------------------------
# solve on a domain

DOMAINS = st.one_of(
    st.tuples(st.sampled_from([">=", ">", "<=", "<"]), small).map(
        lambda d: (f"x {d[0]} {d[1]}", d)
    ),
    st.tuples(small, st.integers(1, 8)).map(lambda d: (f"[{d[0]}, {d[0] + d[1]}]", d)),
    st.tuples(small, st.integers(1, 8)).map(lambda d: (f"({d[0]}, {d[0] + d[1]})", d)),
    st.sampled_from(["positive", "nonnegative", "real"]).map(lambda d: (d, d)),
)


def _interval(domain: str) -> sp.Set:
    """The domain's interval, built here independently of tools.domains."""
    words = {
        "positive": sp.Interval.open(0, sp.oo),
        "nonnegative": sp.Interval(0, sp.oo),
        "real": sp.S.Reals,
    }
    if domain in words:
        return words[domain]
    if domain.startswith(("[", "(")):
        low, high = (sp.Integer(v) for v in domain[1:-1].split(","))
        return sp.Interval(low, high, domain[0] == "(", domain[-1] == ")")
    _, op, bound = domain.split()
    value = sp.Integer(bound)
    return {
        ">=": sp.Interval(value, sp.oo),
        ">": sp.Interval.open(value, sp.oo),
        "<=": sp.Interval(-sp.oo, value),
        "<": sp.Interval.open(-sp.oo, value),
    }[op]


@SETTINGS
@given(st.lists(small, min_size=1, max_size=4), st.booleans(), DOMAINS)
def test_domain_roots_are_the_plain_roots_inside_it(
    roots: list[int], quadratic: bool, domain: tuple[str, object]
) -> None:
    p = sp.Mul(*(x - r for r in roots)) * (x**2 + 1 if quadratic else 1)
    written = domain[0]
    plain = tools.solve(sp.sstr(sp.expand(p)))
    inside = tools.solve(sp.sstr(sp.expand(p)), domain=written)
    assert plain.ok and inside.ok, (plain.error, inside.error)
    interval = _interval(written)
    expected = [r for r in plain.value if r.is_real and interval.contains(r) == sp.true]
    assert inside.value == expected, (inside.text, expected)
    assert all(r in plain.value for r in inside.value)
    if not expected:
        assert inside.text.startswith("no solution for")


# ---------------------------------------------------------------------------------------------
# limit, tangent, series


@SETTINGS
@given(
    polynomials(0, 3),
    polynomials(1, 3),
    st.one_of(st.integers(-3, 3), st.sampled_from(["oo", "-oo"])),
)
def test_limit_equals_sympy(numer: sp.Expr, denom: sp.Expr, point: object) -> None:
    expr = numer / denom
    result = tools.limit(sp.sstr(expr), str(point), "x")
    assert result.ok, result.error
    at = sp.sympify(point)
    if at in (sp.oo, -sp.oo):
        assert result.value == sp.limit(expr, x, at)
        return
    left, right = sp.limit(expr, x, at, "-"), sp.limit(expr, x, at, "+")
    if left == right:
        assert sp.simplify(result.value - right) == 0 if right.is_finite else result.value == right
    else:
        assert result.value == [left, right] and "does not exist" in result.text


@SETTINGS
@given(polynomials(1, 4), st.integers(-4, 4), st.booleans())
def test_tangent_is_value_plus_slope(p: sp.Expr, a: int, caret: bool) -> None:
    result = tools.tangent(text(p, caret), a)
    assert result.ok, result.error
    want = sp.expand(p.subs(x, a) + sp.diff(p, x).subs(x, a) * (x - a))
    assert sp.expand(result.value - want) == 0


@SETTINGS
@given(polynomials(1, 5), st.integers(1, 3), st.integers(-5, 5), st.booleans())
def test_derivative_at_a_point_is_sympys_value(p: sp.Expr, order: int, a: int, named: bool) -> None:
    result = tools.derivative(text(p, caret=True), None, order, f"x = {a}" if named else a)
    assert result.ok, result.error
    assert result.value == sp.diff(p, x, order).subs(x, a)
    assert result.text.endswith(f"which at x = {a} is {result.value}")


SERIES_FUNCTIONS = [sp.sin(x), sp.cos(x), sp.exp(x), sp.log(1 + x), 1 / (1 - x), sp.atan(x)]


@SETTINGS
@given(st.sampled_from(SERIES_FUNCTIONS), polynomials(0, 2), st.integers(0, 8))
def test_series_equals_sympy(function: sp.Expr, factor: sp.Expr, degree: int) -> None:
    """`degree` is the highest power kept: SymPy's n (the first power left out) is degree + 1."""
    expr = function * factor
    result = tools.series(sp.sstr(expr), "0", degree)
    assert result.ok, result.error
    assert sp.expand(result.value - sp.series(expr, x, 0, degree + 1).removeO()) == 0
    assert sp.Poly(result.value, x).degree() <= degree
