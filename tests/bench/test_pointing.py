"""The scripted model points, recalls and notes as the real one does, and retention counts
what it reached in its prompt or by its own recall (judged by the independent checker)."""

from __future__ import annotations

import json

from agent import wire
from agent.bench.homework import HOMEWORK
from agent.bench.phrased import phrased_scenario
from agent.bench.pointing import find_id
from agent.bench.references import Pointer, Reference
from agent.bench.report import _default_target
from agent.bench.responder import BenchResponder
from agent.bench.retention_check import BY_RECALL, IN_PROMPT, reached
from agent.bench.runner import RunResult
from agent.bench.scenarios import Scenario, Task, Turn
from agent.testing.replies import answer, tool_call
from agent.testing.scripted import ScriptedRequest

SOLVED = "solve x^2 + 6*x + 5 = 0"
ROOTS = Pointer(SOLVED, 0, "roots", ("-5", "-1"))
EQUATION = Pointer(SOLVED, None, "equation", ("x^2 + 6*x + 5 = 0",))
LINE = f"13. {SOLVED} [#20] -> The roots of … are x = -5 and x = -1. [#21]"
QUESTION = "plug the roots of task 13 into x^2"


def _system(text: str) -> dict:
    return {"role": wire.SYSTEM, "content": f"You are a math assistant.\n{text}"}


def _user(text: str) -> dict:
    return {"role": wire.USER, "content": text}


def _assistant(text: str) -> dict:
    return {"role": wire.ASSISTANT, "content": text}


def test_an_id_is_found_on_a_folded_line_in_the_task_as_it_happened_or_on_its_item_line() -> None:
    assert find_id([_system(LINE)], ROOTS) == "#21"
    assert find_id([_system(LINE)], EQUATION) == "#20"
    happened = [
        _user(
            f"{wire.ANNOUNCED}#20 equation (you; equations[5]; quadratic): x^2 + 6*x + 5 = 0\n"
            f"{wire.REQUEST_LABEL}{SOLVED}"
        ),
        _assistant(tool_call("solve", equation="#20")),
        _user("Tool result (solve) #21 roots of #20 (equations[5]): x = -5, x = -1"),
        _assistant(answer("x = -5, x = -1")),
    ]
    assert find_id(happened, ROOTS) == "#21" and find_id(happened, EQUATION) == "#20"
    item = [_system("#21 roots of #20 (equations[5]): x = -5, x = -1")]
    assert find_id(item, ROOTS) == "#21"
    # named by its number, an item's line alone does not say which task made it
    assert find_id(item, ROOTS, by_task=True) is None
    assert find_id([_system("#22 roots of #19: x = -5, x = 1")], ROOTS) is None


def _responder() -> BenchResponder:
    reference = Reference((ROOTS,), tool_call("evaluate", expression="x^2", at=["@0"]), "task 13")
    restated = tool_call("evaluate", expression="x^2", at=["-5", "-1"])
    task = Task("ordinal", (Turn(QUESTION, (restated, answer("25 and 1")), reference),))
    return BenchResponder(Scenario("t", (task,), needs_are_text=True))


def test_out_of_view_the_model_recalls_then_uses_the_id_it_got() -> None:
    responder = _responder()
    archived = [
        _system("Finished tasks, numbered in the order asked:\n14. solve x = 1 -> x = 1"),
        _user(QUESTION),
    ]
    first = responder._chat(ScriptedRequest(archived))
    assert json.loads(first) == {"tool": "recall", "query": "task 13"}
    back = [
        *archived,
        _assistant(first),
        _user(f"Tool result (recall): {LINE}\n{wire.AFTER_RECALL}"),
    ]
    second = json.loads(responder._chat(ScriptedRequest(back)))
    assert second == {"tool": "evaluate", "expression": "x^2", "at": ["#21"]}
    # in view, it points straight away; the step after its result is the scripted answer
    assert json.loads(responder._chat(ScriptedRequest([_system(LINE), _user(QUESTION)])))["at"] == [
        "#21"
    ]


def test_retention_tells_in_prompt_from_by_recall_and_a_recall_not_used_reaches_nothing() -> None:
    needs = ("x^2 + 6*x + 5", "-5", "-1")
    in_view = [{"messages": [_system(LINE), _user(QUESTION)]}]
    assert reached(QUESTION, needs, in_view) == ([], IN_PROMPT)
    asked = [_system("tasks 1 to 13 are archived"), _user(QUESTION)]
    recalled = [
        *asked,
        _assistant('{"tool": "recall", "query": "task 13"}'),
        _user(f"Tool result (recall): {LINE}"),
    ]
    used = [
        *recalled,
        _assistant('{"tool": "evaluate", "expression": "x^2", "at": ["#21"]}'),
        _user("Tool result (evaluate) #30 x: 25, 1"),
    ]
    requests = [{"messages": asked}, {"messages": recalled}, {"messages": [*used]}]
    assert reached(QUESTION, needs, requests) == ([], BY_RECALL)
    ignored = [
        *recalled,
        _assistant('{"tool": "evaluate", "expression": "x^2", "at": ["-5", "-1"]}'),
    ]
    missing, how = reached(QUESTION, needs, [{"messages": asked}, {"messages": ignored}])
    assert how is None and missing == list(needs)
    assert reached("never asked", needs, requests) == (None, None)


def test_the_model_notes_what_people_say_of_themselves_in_some_sessions_and_not_in_others() -> None:
    def notes(scenario: Scenario) -> list[str]:
        replies = [
            json.loads(r) for t in scenario.tasks[:2] for turn in t.turns for r in turn.replies
        ]
        return [r["note"] for r in replies if r.get("note")]

    long = phrased_scenario(30)
    assert len(notes(long)) == 1 and notes(long)[0].startswith("The user is ")
    assert len(notes(HOMEWORK["student-36"](1))) == 2
    assert notes(HOMEWORK["physics-34"](1)) == []  # memory there rests on what folds keep


def test_both_defaults_are_held_to_keeping_everything() -> None:
    kept, lost = RunResult("s", "window"), RunResult("s", "ledger", retention=0.5)
    targets = _default_target({"long-30": {"window": kept, "ledger": lost}})
    assert [(t.name, t.met) for t in targets] == [
        ("default embedded (window)", True),
        ("default hosted (ledger)", False),
    ]


def test_what_a_person_said_is_kept_by_both_defaults_without_any_note() -> None:
    """physics-34's model never writes a note: the name, the subject and the answer form
    stated in its first two messages still reach the probes at its end, by what folds keep."""
    from agent.bench.runner import run_scenario

    scenario = HOMEWORK["physics-34"](1)
    for strategy in ("window", "ledger"):
        run = run_scenario(scenario, strategy)
        assert run.errors == [] and run.memory == 1.0, (strategy, run.lost)
