"""Outside scenarios for `math-agent bench --scenario-file FILE`: anyone's conversations run
through every strategy.

A file is JSON, or a Python module whose `SCENARIOS` is a list of `Scenario` objects built
from the public classes in `agent.bench.scenarios` (`Scenario`, `Task`, `Turn`). JSON form:

    {"scenarios": [{
        "name": "my-session", "description": "what it is",
        "tasks": [
          {"kind": "solve",
           "turns": [{"text": "solve x^2 - 9 = 0",
                      "replies": ["{\\"tool\\": \\"solve\\", \\"equation\\": \\"x^2 - 9 = 0\\"}",
                                  "{\\"tool\\": \\"message_to_user\\", \\"response\\": \\"x = -3, x = 3\\", \\"task_status\\": \\"COMPLETED\\"}"]}],
           "facts": ["-3", "3"]},
          {"kind": "evaluate",
           "turns": [{"text": "square the first root I got", "replies": ["..."]}],
           "needs": ["-3"], "refers_to": 0}
        ]}]}

Each turn lists the model's replies in order (one per step: tool calls, then the message to
the user), as the scripted model will give them. `needs` are facts of earlier tasks this task
refers back to (retention checks that they are in the prompt sent), `refers_to` the index of
the task referred to.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from agent.bench.scenarios import Scenario, Task, Turn


class ScenarioFileError(ValueError):
    """The file cannot be used; the message says where and why, in one sentence."""


def load_scenarios(path: Path) -> list[Scenario]:
    if not path.is_file():
        raise ScenarioFileError(f"{path}: no such file.")
    if path.suffix == ".py":
        return _from_module(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioFileError(f"{path}: not readable JSON ({exc}).") from exc
    items = data.get("scenarios") if isinstance(data, dict) else None
    if not isinstance(items, list) or not items:
        raise ScenarioFileError(f'{path}: expected {{"scenarios": [ ... ]}} with at least one.')
    return [_scenario(item, f"{path}: scenario {i}") for i, item in enumerate(items)]


def _from_module(path: Path) -> list[Scenario]:
    spec = importlib.util.spec_from_file_location(f"bench_scenarios_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ScenarioFileError(f"{path}: cannot be imported.")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise ScenarioFileError(
            f"{path}: importing it failed ({type(exc).__name__}: {exc})."
        ) from exc
    scenarios = getattr(module, "SCENARIOS", None)
    if not isinstance(scenarios, list) or not all(isinstance(s, Scenario) for s in scenarios):
        raise ScenarioFileError(
            f"{path}: needs SCENARIOS, a list of agent.bench.scenarios.Scenario."
        )
    return scenarios


def _field(item: dict[str, Any], key: str, kind: type, where: str, default: Any = None) -> Any:
    value = item.get(key, default)
    if not isinstance(value, kind):
        raise ScenarioFileError(f"{where}: '{key}' must be a {kind.__name__}.")
    return value


def _scenario(item: Any, where: str) -> Scenario:
    if not isinstance(item, dict):
        raise ScenarioFileError(f"{where}: must be an object.")
    name = _field(item, "name", str, where)
    tasks_data = _field(item, "tasks", list, f"{where} ({name})")
    tasks = tuple(_task(t, f"{where} ({name}), task {i}", i) for i, t in enumerate(tasks_data))
    try:
        return Scenario(
            name,
            tasks,
            _field(item, "description", str, where, ""),
            needs_are_text=_field(item, "needs_are_text", bool, where, False),
        )
    except ValueError as exc:
        raise ScenarioFileError(f"{where}: {exc}.") from exc


def _task(item: Any, where: str, index: int) -> Task:
    if not isinstance(item, dict):
        raise ScenarioFileError(f"{where}: must be an object.")
    turns = []
    for j, turn in enumerate(_field(item, "turns", list, where)):
        if not isinstance(turn, dict):
            raise ScenarioFileError(f"{where}, turn {j}: must be an object.")
        replies = _field(turn, "replies", list, f"{where}, turn {j}")
        if not replies or not all(isinstance(r, str) for r in replies):
            raise ScenarioFileError(f"{where}, turn {j}: 'replies' must be non-empty strings.")
        turns.append(Turn(_field(turn, "text", str, f"{where}, turn {j}"), tuple(replies)))
    if not turns:
        raise ScenarioFileError(f"{where}: needs at least one turn.")
    refers_to = item.get("refers_to")
    if refers_to is not None and (not isinstance(refers_to, int) or not 0 <= refers_to < index):
        raise ScenarioFileError(f"{where}: 'refers_to' must be the index of an earlier task.")
    return Task(
        kind=_field(item, "kind", str, where, "task"),
        turns=tuple(turns),
        facts=tuple(_field(item, "facts", list, where, [])),
        needs=tuple(_field(item, "needs", list, where, [])),
        refers_to=refers_to,
    )
