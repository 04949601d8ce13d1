"""Where f rises and falls and where it bends, said after its critical points when the
extrema tool is asked for no one extreme, and only what is found exactly."""

from __future__ import annotations

import pytest

from tools import extrema


def _shape(expression: str, lower: object = None, upper: object = None) -> str:
    result = extrema(expression, None, lower, upper)
    assert result.ok, result.text
    return result.text


def test_a_cubic_rises_falls_and_bends_once() -> None:
    text = _shape("x^3 - 3x^2 - 9x + 5")
    assert text.endswith(
        "increasing on (-∞, -1) and (3, ∞), decreasing on (-1, 3); "
        "inflection point: x = 1 (value -6); concave down on (-∞, 1), up on (1, ∞)"
    )


def test_a_point_where_f_prime_is_zero_but_keeps_its_sign_does_not_cut_a_run() -> None:
    assert "increasing on (-∞, ∞); inflection point: x = 0 (value 0)" in _shape("x^3")


def test_a_parabola_has_no_inflection_point() -> None:
    assert _shape("x^2").endswith(
        "decreasing on (-∞, 0), increasing on (0, ∞); no inflection point; concave up on (-∞, ∞)"
    )


def test_a_pole_is_no_inflection_point() -> None:
    text = _shape("1/x")
    assert "decreasing on (-∞, 0) and (0, ∞)" in text
    assert "no inflection point; concave down on (-∞, 0), up on (0, ∞)" in text


def test_on_a_closed_interval_the_runs_keep_its_ends() -> None:
    text = _shape("x^3 - 3x", "-2", "2")
    assert "increasing on [-2, -1) and (1, 2], decreasing on (-1, 1)" in text
    assert "inflection point: x = 0 (value 0); concave down on [-2, 0), up on (0, 2]" in text


def test_long_ends_are_shown_as_decimals() -> None:
    text = _shape("x^5 - 5x^3 + 4x + 1")
    assert "increasing on (-∞, ≈-1.644)" in text and "CRootOf(5*x**4 - 15*x**2 + 4, 0))" not in text


@pytest.mark.parametrize("expression", ["sin(x)", "tan(x) + x"])
def test_periodic_shapes_are_left_unsaid(expression: str) -> None:
    result = extrema(expression)
    assert "increasing" not in result.text and "concave" not in result.text


def test_a_bend_not_found_exactly_is_left_unsaid_and_the_rise_is_kept() -> None:
    text = _shape("x^2*log(x)")  # f'' = 2*log(x) + 3: no polynomial's zeros
    assert text.endswith("decreasing on (0, exp(-1/2)), increasing on (exp(-1/2), ∞)")


def test_a_positive_factor_of_f_second_does_not_hide_its_zeros() -> None:
    text = _shape("exp(-x^2)")  # f'' = (4x^2 - 2) exp(-x^2): the bell curve bends twice
    assert "inflection points: x = -sqrt(2)/2 ≈ -0.7071 (value exp(-1/2) ≈ 0.6065)" in text


@pytest.mark.parametrize("expression", ["x^3 - pi*x", "sqrt(2)*x^3 - x"])
def test_irrational_coefficients_are_studied_too(expression: str) -> None:
    assert "inflection point: x = 0 (value 0)" in _shape(expression)


def test_asked_for_one_extreme_the_answer_stays_that_extreme() -> None:
    result = extrema("x^3 - 3x^2 - 9x + 5", None, None, None, "max")
    assert "increasing" not in result.text and "inflection" not in result.text
