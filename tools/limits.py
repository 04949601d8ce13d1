"""Size and time bounds for every tool call, in one place so they are easy to find and tune.

Why these numbers: chat math never needs more, and each one stops a known way to make SymPy
(or Python's big integers) run for minutes or exhaust memory.

* ``MAX_INPUT_CHARS`` (2,000): any single text argument; longer text is rejected before parsing.
* ``MAX_NESTING`` (100): brackets, abs bars, powers and function calls nested inside each other;
  keeps the recursive-descent parser and SymPy's recursive algorithms far from Python's stack
  limit (``((((…))))`` ten thousand deep is rejected at once).
* ``MAX_NUMBER_DIGITS`` (1,000): digits of one number literal, and the size of a scientific
  exponent (``1e999999`` is rejected).
* ``MAX_SYMBOLIC_EXPONENT`` (1,000): a power of something symbolic, ``x^1000`` is fine and
  ``x^100000`` is not (a degree-100000 polynomial is not chat math).
* ``MAX_RESULT_BITS`` (100,000 bits, about 30,000 digits): a power of numbers, e.g. ``2^99999``
  is fine but ``10^10^10`` and ``9^9^9^9`` are rejected before Python tries to compute them.
* ``MAX_FACTORIAL`` (1,000): ``n!`` and ``gamma(n)`` of a literal integer; ``99999!`` and
  ``factorial(10^9)`` are rejected.
* ``MAX_DERIVATIVE_ORDER`` (100); ``MAX_SERIES_DEGREE`` (20), the highest power a series keeps.
* ``MAX_OPERATOR_OPS`` (2,000): the summed size (SymPy's ``count_ops``) of the steps of a
  ``d/dx`` written inside math, which the parser computes outside the worker (the record
  parses what a person writes in the agent's own process): ``d^100/dx^100 (x^1000 sin x)``
  is refused once its steps grow past it instead of running for minutes.
* Wall clock: ``DEFAULT_TIMEOUT`` seconds (10) per call, overridden by the environment variable
  ``MATH_AGENT_TOOL_TIMEOUT``, by :func:`set_timeout`, or by a call's ``timeout=`` argument
  (most specific wins). The worker process that runs SymPy is killed when it is exceeded.
* Worker memory: ``WORKER_MEMORY_BYTES`` (4 GiB address space) so a runaway big-integer
  computation fails with MemoryError instead of swapping the machine.
"""

from __future__ import annotations

import math
import os

MAX_INPUT_CHARS = 2_000
MAX_NESTING = 100
MAX_NUMBER_DIGITS = 1_000
MAX_SYMBOLIC_EXPONENT = 1_000
MAX_RESULT_BITS = 100_000
MAX_FACTORIAL = 1_000
MAX_DERIVATIVE_ORDER = 100
MAX_SERIES_DEGREE = 20
MAX_OPERATOR_OPS = 2_000
DEFAULT_TIMEOUT = 10.0
WORKER_MEMORY_BYTES = 4 * 1024**3
TIMEOUT_ENV = "MATH_AGENT_TOOL_TIMEOUT"

_timeout_override: float | None = None


def set_timeout(seconds: float | None) -> None:
    """Set the wall-clock limit for this process; ``None`` goes back to env var / default."""
    global _timeout_override
    if seconds is not None:
        _check_timeout(seconds)
    _timeout_override = None if seconds is None else float(seconds)


def get_timeout(explicit: float | None = None) -> float:
    """The limit that applies to one call: argument, then set_timeout, then env, then default."""
    if explicit is not None:
        _check_timeout(explicit)
        return float(explicit)
    if _timeout_override is not None:
        return _timeout_override
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if raw:
        try:
            value = float(raw)
        except ValueError:
            return DEFAULT_TIMEOUT
        if math.isfinite(value) and value > 0:
            return value
    return DEFAULT_TIMEOUT


def _check_timeout(seconds: float) -> None:
    """Reject nonsense limits early so a typo cannot disable the bound."""
    if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, not {seconds!r}")


def check_text_length(text: str, what: str = "The input") -> str | None:
    """An error sentence when a text argument is too long, else None."""
    if len(text) > MAX_INPUT_CHARS:
        return (
            f"{what} is {len(text):,} characters long; the limit is {MAX_INPUT_CHARS:,}: "
            "shorten it."
        )
    return None
