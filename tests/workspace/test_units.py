"""One reader of a unit written after a number or in brackets after math."""

from __future__ import annotations

import pytest

from agent.workspace.units import unit_written, units_in, without_units


@pytest.mark.parametrize(
    ("text", "symbols"),
    [
        ("The area is 52 cm². Width?", ["cm"]),
        ("accel 9.8 m/s^2 down", ["m", "s"]),
        ("a 12m ladder", ["m"]),
        ("3 kg and 2 ft", ["kg", "ft"]),
        ("v(t) = 3t + 2 (m/s)", ["m", "s"]),
        ("h = -4.9t^2 + 2 (m, s)", ["m", "s"]),
        ("solve 2s + 3 = 0", []),  # an operator follows: a term
        ("5 s^2 = 20", []),
        ("x^2 m", []),  # after an exponent, no quantity
        ("5 min", []),  # min is a function's name, not in the table
    ],
)
def test_units_are_read_from_notation(text: str, symbols: list[str]) -> None:
    assert [s for unit in units_in(text) for s, _end in unit.symbols] == symbols


def test_units_are_written_over_unless_their_letters_are_math_elsewhere() -> None:
    assert without_units("52 cm².").strip(" .") == "52"
    assert without_units("h(t) = 3t + 2.5 s").rstrip() == "h(t) = 3t + 2.5"
    assert without_units("f(m) = m^2 + 2 m") == "f(m) = m^2 + 2 m"
    assert without_units("speed v(t) = 3t + 2 (m/s)").rstrip() == "speed v(t) = 3t + 2"


def test_a_multi_letter_unit_is_quoted_whole() -> None:
    assert unit_written("cm", "The area is 52 cm². Width?") == "52 cm²"
    assert unit_written("m", "The area is 52 cm². Width?") is None  # m is no unit there
    assert unit_written("m", "a speed of 25 m/s") == "25 m"
    assert unit_written("s", "a speed of 25 m/s") == "25 m/s"
