"""What an evaluation case is: turns a person types, and what a right answer must contain.

`single`, `sessions` and `problems` come in two parts, `dev` and `test`, drawn from disjoint wording
families for any seed (`agent.eval.generate.make_cases`); seed 1 of each part is committed
as JSON in `agent/eval/data/` so a reviewer reads the questions and the expected answers
without running anything. Expected answers are SymPy texts, judged by `agent.eval.judge`
with SymPy (never by string matching).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal, get_args

DATA_DIR = Path(__file__).parent / "data"
SETS = ("reference", "single", "sessions", "problems")
# Sets with wordings, each split into a part to read misses from and a part to report.
PARTED_SETS = ("single", "sessions", "problems")
PARTS = ("dev", "test")
DEFAULT_PART = "test"
DEFAULT_SEED = 1

# roots: every listed root is stated, and no other number is offered as a root;
# expression: the answer states an expression equal to the one given (derivatives);
# antiderivative: an expression whose derivative in `variable` is `answers[0]`, the integrand;
# value / values: every listed number is stated (exact or as a decimal);
# quantity: as values, for word problems: `t = 5 s` counts, a unit after the number is no part
#   of it, and letters of `variable` (the problem's own) are never a unit;
# factored / expanded / simplified: an expression equal to `answers[0]` written in that form;
# line: `y = answers[0]` (a line in `variable`), or an equation that solves to it;
# assignments: each letter of `variable` ("x,y") is given the value at its place in `answers`;
# asks: the agent asks back (task_status PROCESSING) instead of answering.
ExpectationKind = Literal[
    "roots",
    "expression",
    "antiderivative",
    "value",
    "values",
    "quantity",
    "factored",
    "expanded",
    "simplified",
    "line",
    "assignments",
    "asks",
]


@dataclass(frozen=True)
class Expected:
    kind: ExpectationKind
    answers: tuple[str, ...] = ()
    variable: str | None = None


@dataclass(frozen=True)
class EvalTurn:
    """One message; `expected` None for a turn that is not judged (an introduction)."""

    text: str
    expected: Expected | None = None
    # Refers to an earlier turn's result ("now its derivative"): counted in sessions' target.
    depends: bool = False


@dataclass(frozen=True)
class EvalCase:
    name: str
    category: str  # e.g. roots-2, derivative-3, function-value, integral-definite, closed, chain
    wording: str  # "dataset" (mathematics_dataset style), "chat", or "reference"
    turns: tuple[EvalTurn, ...] = field(default_factory=tuple)


def case_to_dict(case: EvalCase) -> dict[str, object]:
    return asdict(case)


def case_from_dict(raw: dict[str, object]) -> EvalCase:
    turns = []
    for turn in raw["turns"]:  # type: ignore[union-attr]
        expected = turn.get("expected")
        turns.append(
            EvalTurn(
                text=turn["text"],
                expected=(
                    Expected(
                        kind=expected["kind"],
                        answers=tuple(expected.get("answers") or ()),
                        variable=expected.get("variable"),
                    )
                    if expected
                    else None
                ),
                depends=bool(turn.get("depends", False)),
            )
        )
    return EvalCase(
        name=str(raw["name"]),
        category=str(raw["category"]),
        wording=str(raw["wording"]),
        turns=tuple(turns),
    )


def load_file(path: Path) -> tuple[str, list[EvalCase]]:
    """A case file anyone keeps outside the project (`math-agent eval --file`), in the schema
    of the committed sets; its name in reports is the file's stem. A file that does not fit
    raises ValueError with one sentence saying where."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        items = raw["cases"] if isinstance(raw, dict) else raw
        cases = [case_from_dict(item) for item in items]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path} is not a case file ({type(error).__name__}: {error})") from None
    kinds = get_args(ExpectationKind)
    for case in cases:
        if not case.turns or any(not turn.text.strip() for turn in case.turns):
            raise ValueError(f"{path}: case {case.name!r} needs turns with text")
        for turn in case.turns:
            if turn.expected is not None and turn.expected.kind not in kinds:
                raise ValueError(
                    f"{path}: case {case.name!r} expects {turn.expected.kind!r}; "
                    f"kinds are {', '.join(kinds)}"
                )
    if not cases:
        raise ValueError(f"{path} holds no cases")
    name = path.stem
    return (f"file {name}" if name in SETS else name), cases


def file_name(set_name: str, part: str | None = None) -> str:
    """The data file's stem: `reference`, `single-dev`, `sessions-test`."""
    if set_name not in SETS:
        raise ValueError(f"unknown set {set_name!r}; choose one of {', '.join(SETS)}")
    if set_name not in PARTED_SETS:
        return set_name
    if part not in PARTS:
        raise ValueError(f"the set {set_name!r} needs a part: {', '.join(PARTS)}")
    return f"{set_name}-{part}"


FILES = tuple(file_name(s, p) for s in SETS for p in (PARTS if s in PARTED_SETS else (None,)))


def set_path(name: str) -> Path:
    return DATA_DIR / f"{name}.json"


def load_set(set_name: str, part: str | None = None) -> list[EvalCase]:
    """The committed cases (seed 1) of one set and part, in file order."""
    raw = json.loads(set_path(file_name(set_name, part)).read_text(encoding="utf-8"))
    return [case_from_dict(item) for item in raw["cases"]]


def dump_set(
    name: str, cases: list[EvalCase], note: str, part: str | None = None, seed: int | None = None
) -> str:
    """The JSON text of a set file (stable: sorted keys inside records, cases in order)."""
    head: dict[str, object] = {"set": name}
    if part is not None:
        head.update(part=part, seed=seed)
    return (
        json.dumps(
            {**head, "note": note, "cases": [case_to_dict(c) for c in cases]},
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )


# The fixed part of each set that CI plays on the embedded model within its time budget, taken
# from the test part of seed 1: every reference turn, the first cases of each category of
# `single`, the first sessions.
CI_PART = "test"
CI_SEED = 1
CI_SINGLE_PER_CATEGORY = 2
CI_SESSIONS = 2
# The sets CI plays (`problems` has no CI share: it is not measured yet).
CI_SETS = ("reference", "single", "sessions")


def subset(name: str, cases: list[EvalCase]) -> list[EvalCase]:
    """The CI subset of a set's cases (deterministic: case order)."""
    if name == "single":
        taken: dict[str, int] = {}
        chosen = []
        for case in cases:
            if taken.get(case.category, 0) < CI_SINGLE_PER_CATEGORY:
                taken[case.category] = taken.get(case.category, 0) + 1
                chosen.append(case)
        return chosen
    if name == "sessions":
        return cases[:CI_SESSIONS]
    return cases
