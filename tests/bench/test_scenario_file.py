"""`math-agent bench --scenario-file FILE`: outside conversations through every strategy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent import bench
from agent.bench.scenario_file import ScenarioFileError, load_scenarios
from agent.testing.replies import answer, evaluate, solve

SESSION = {
    "name": "outside-2",
    "description": "a solve, then a reference back to its first root",
    "tasks": [
        {
            "kind": "solve",
            "turns": [
                {
                    "text": "solve x^2 - 9 = 0",
                    "replies": [solve("x^2 - 9 = 0"), answer("The roots are x = -3 and x = 3.")],
                }
            ],
            "facts": ["-3", "3"],
        },
        {
            "kind": "evaluate",
            "turns": [
                {
                    "text": "square the first root I got",
                    "replies": [evaluate("x^2", "-3"), answer("(-3)^2 = 9")],
                }
            ],
            "needs": ["-3"],
            "refers_to": 0,
        },
    ],
}

MODULE = """
from agent.bench.scenarios import Scenario, Task, Turn
from agent.testing.replies import answer, solve

SCENARIOS = [Scenario("from-python", (Task("solve", (Turn("solve x^2 - 16 = 0",
    (solve("x^2 - 16 = 0"), answer("x = -4, x = 4"))),), facts=("-4", "4")),))]
"""


def test_a_json_file_runs_through_the_strategies(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"scenarios": [SESSION]}))
    code = bench.main(["--scenario-file", str(path), "--strategy", "none", "--strategy",
                       "structural", "--json"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and list(report["scenarios"]) == ["outside-2"]
    for run in report["scenarios"]["outside-2"].values():
        assert run["retention"] == 1.0 and run["errors"] == []
        assert run["by_category"] == {"1 back": {"kept": 1, "total": 1}}
        assert 0.0 <= run["prefix_reuse"] <= 1.0 and run["input_tokens"] > 0


def test_a_python_module_with_scenarios_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "mine.py"
    path.write_text(MODULE)
    (scenario,) = load_scenarios(path)
    assert scenario.name == "from-python" and scenario.tasks[0].facts == ("-4", "4")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "not readable JSON"),
        ('{"scenarios": []}', "at least one"),
        (json.dumps({"scenarios": [{"name": "x", "tasks": [{"turns": []}]}]}), "at least one turn"),
        (
            json.dumps({"scenarios": [{**SESSION, "tasks": [SESSION["tasks"][1]]}]}),
            "earlier task",
        ),
    ],
)
def test_a_bad_file_is_one_clear_sentence(tmp_path: Path, content: str, says: str, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ScenarioFileError, match=says):
        load_scenarios(path)
    assert bench.main(["--scenario-file", str(path)]) == 2
    assert says in capsys.readouterr().err


def test_a_json_session_with_text_needs_and_a_memory_probe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Needs written as the prompt shows them, judged by the independent checker; a task of
    kind "memory" counts as a memory probe."""
    session = {
        "name": "outside-memory",
        "needs_are_text": True,
        "tasks": [
            {"kind": "greeting", "turns": [{"text": "Hi, I'm Ines, I study geology.",
                                            "replies": [answer("Hello Ines!")]}]},
            SESSION["tasks"][0],
            {"kind": "memory", "needs": ["Ines"], "refers_to": 0,
             "turns": [{"text": "What's my name?", "replies": [answer("Ines.")]}]},
        ],
    }  # fmt: skip
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"scenarios": [session]}))
    (scenario,) = load_scenarios(path)
    assert scenario.needs_are_text
    assert bench.main(["--scenario-file", str(path), "--strategy", "ledger", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["scenarios"]["outside-memory"]["ledger"]
    assert run["memory"] == 1.0 and run["retention"] == 1.0
    assert run["by_category"] == {"memory": {"kept": 1, "total": 1}}
