"""Units written after a number (`52 cm²`, `9.8 m/s^2`, `12m`) or in brackets after math
(`(m, s)`, `(m/s)`): one reader, for what a person's message holds.

Why: read as math, `52 cm²` is the product `52*c*m^2`, a thing a small model points at and
solves for; `h(t) = ... + 25 m` gains a second variable. Both the capture of the person's math
(which leaves units out) and the check on a call's unknowns (which refuses a unit as one) ask
the same question, so they ask it here. Only notation is read: a number, then a symbol from a
table of unit symbols (with a power, and `/` another), then nothing that continues the math
(the end, punctuation, a bracket, or a word); `3 m + 2` is a term. A unit's letters that stand
as math anywhere else in the same text (`f(m) = m^2 + 2 m`) make it math, not a unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Unit symbols people write after a number: SI units and prefixes in common use, and a few
# others. A table of notation (like LaTeX's command names), longest first where one begins
# another. `min` is left out: it is a function's name.
SYMBOLS = (
    "kPa",
    "kHz",
    "MHz",
    "km",
    "cm",
    "mm",
    "kg",
    "mg",
    "mL",
    "ml",
    "ms",
    "kN",
    "kJ",
    "kW",
    "Pa",
    "Hz",
    "ft",
    "mi",
    "lb",
    "oz",
    "yd",
    "m",
    "s",
    "g",
    "h",
    "L",
    "l",
    "N",
    "J",
    "W",
)
_SYMBOL = "|".join(SYMBOLS)
_POWER = r"(?:\^[23]|[²³])"
_UNIT = rf"(?:{_SYMBOL}){_POWER}?"
_COMPOUND = rf"{_UNIT}(?:\s*/\s*{_UNIT})*"
# What may follow a unit: the end, punctuation, a closing bracket, or a word; not an operator
# or more math (`3 m + 2`, `5 s^2 = 20`).
_AFTER = r"(?=\s*$|[.,;:!?)\]]|\s+[A-Za-z(])"
# A number (not the end of a name, a decimal's tail or an exponent), then a unit.
_AFTER_NUMBER = re.compile(rf"(?<![\w.^])(?P<number>\d+(?:\.\d+)?)\s?(?P<unit>{_COMPOUND}){_AFTER}")
# Units in brackets after math: `(m, s)`, `(m/s)`, or cut at a comma where a run of math ends.
_BRACKETED = re.compile(
    rf"(?<=\s)\((?P<unit>\s*{_COMPOUND}(?:\s*,\s*{_COMPOUND})*)\s*(?:\)|,?\s*$)"
)
_ONE_SYMBOL = re.compile(rf"(?<![A-Za-z])(?P<symbol>{_SYMBOL})(?P<power>{_POWER}?)(?![A-Za-z])")
_LETTER_TOKEN = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")
# At most this much of a number is quoted (a pasted run of digits).
_QUOTED_DIGITS = 20


@dataclass(frozen=True)
class Unit:
    """A unit as written: `start`-`end` spans it and its number (`52 cm²`), or its brackets;
    `number` is None for a bracketed one; `symbols`: each symbol with where its written form
    (power included) ends."""

    start: int
    end: int
    number: str | None
    symbols: tuple[tuple[str, int], ...]

    @property
    def letters(self) -> frozenset[str]:
        """The letters a parser would read in it (`cm`: c and m)."""
        return frozenset(char for symbol, _end in self.symbols for char in symbol)


def _symbols(text: str, offset: int) -> tuple[tuple[str, int], ...]:
    return tuple((m.group("symbol"), offset + m.end()) for m in _ONE_SYMBOL.finditer(text))


@lru_cache(maxsize=1024)
def units_in(text: str) -> tuple[Unit, ...]:
    """Every unit a text writes after a number or in brackets, in order."""
    found = [
        Unit(m.start(), m.end(), m.group("number"), _symbols(m.group("unit"), m.start("unit")))
        for m in _AFTER_NUMBER.finditer(text)
    ]
    found += [
        Unit(m.start(), m.end(), None, _symbols(m.group("unit"), m.start("unit")))
        for m in _BRACKETED.finditer(text)
    ]
    return tuple(sorted(found, key=lambda unit: unit.start))


def _blanked(text: str, units: tuple[Unit, ...] | list[Unit], keep_numbers: bool) -> str:
    """The text with these units written over by spaces (their numbers kept, or not)."""
    chars = list(text)
    for unit in units:
        start = unit.start + len(unit.number) if keep_numbers and unit.number else unit.start
        chars[start : unit.end] = " " * (unit.end - start)
    return "".join(chars)


def only_units(text: str) -> list[Unit]:
    """The units of `text` none of whose letters stands alone elsewhere in it (as math: a
    word is not)."""
    units = units_in(text)
    used = set(_LETTER_TOKEN.findall(_blanked(text, units, keep_numbers=False)))
    return [unit for unit in units if not unit.letters & used]


def without_units(text: str) -> str:
    """The text with its units written over by spaces (their numbers kept), where none of a
    unit's letters stands as math elsewhere in it: `52 cm²` is 52, `h(t) = 3t + 2 (m/s)` is
    h's definition alone."""
    return _blanked(text, only_units(text), keep_numbers=True)


@dataclass(frozen=True)
class UnitUse:
    """How a text writes a unit symbol: the symbol and the words to quote (`52 m²`)."""

    symbol: str
    quote: str


@lru_cache(maxsize=1024)
def written_as_unit(symbol: str, text: str) -> UnitUse | None:
    """How `text` writes `symbol` (`m`, `cm`) as a unit, when its letters stand nowhere else
    as math; None when it writes no such unit."""
    for unit in only_units(text):
        for written_symbol, end in unit.symbols:
            if written_symbol == symbol:
                if unit.number is None:
                    return UnitUse(symbol, text[unit.start : unit.end])
                written = text[unit.start + len(unit.number) : end]
                return UnitUse(symbol, unit.number[-_QUOTED_DIGITS:] + written)
    return None


def unit_written(symbol: str, text: str) -> str | None:
    """The words that write `symbol` as a unit in `text` (`52 m²`, `25 m/s` for s), or None."""
    use = written_as_unit(symbol, text)
    return use.quote if use is not None else None
