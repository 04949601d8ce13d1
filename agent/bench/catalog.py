"""The named benchmark scenarios: name -> build(seed).

Its own module so that the generators (`phrased`, `homework`) and the shapes they build
(`scenarios`: Scenario, Task, Turn) import in one direction only: this catalog imports the
generators, and nothing it lists imports it back.
"""

from __future__ import annotations

from collections.abc import Callable

from agent.bench.homework import HOMEWORK
from agent.bench.phrased import phrased_scenario
from agent.bench.scenarios import Scenario
from agent.bench.write_up import reference_scenario


def _phrased(count: int) -> Callable[[int], Scenario]:
    def build(seed: int) -> Scenario:
        return phrased_scenario(count, seed)

    return build


def _homework(name: str) -> Callable[[int], Scenario]:
    def build(seed: int) -> Scenario:
        return HOMEWORK[name](seed)

    return build


# name -> build(seed); the reference conversation is fixed and ignores the seed.
SCENARIOS: dict[str, Callable[[int], Scenario]] = {
    "ref-3q": lambda seed: reference_scenario(),
    "long-30": _phrased(30),
    "long-100": _phrased(100),
    "student-36": _homework("student-36"),
    "physics-34": _homework("physics-34"),
}
