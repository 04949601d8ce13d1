"""The phrased back-reference sessions and the retention check that shares no code with the
strategies."""

from __future__ import annotations

import random
import re

import pytest

from agent.bench.catalog import SCENARIOS
from agent.bench.phrased import by_ordinal, by_position, phrased_scenario
from agent.bench.retention_check import appears, missing_in_request
from agent.bench.scenarios import DEFAULT_SEED

SYSTEM = {"role": "system", "content": "You are a careful math assistant."}


def test_each_category_has_many_wordings() -> None:
    rng = random.Random(1)
    ordinals = {by_ordinal(rng.randint(1, 40), rng) for _ in range(300)}
    positions = {by_position(rng.randint(2, 12), rng) for _ in range(300)}
    assert len(ordinals) > 100 and len(positions) > 50
    assert any("#" in w for w in ordinals) and any("previous-but-one" in w for w in positions)


def test_sessions_are_reproducible_and_their_references_point_far_back() -> None:
    scenario = phrased_scenario(100, seed=7)
    assert scenario == phrased_scenario(100, seed=7)
    assert scenario != phrased_scenario(100, seed=8)
    refs = [t for t in scenario.back_references if t.kind != "memory"]
    distances = [scenario.tasks.index(t) - t.refers_to for t in refs if t.kind != "chain"]
    assert len(refs) >= 25 and min(distances) >= 3
    assert {t.kind for t in scenario.back_references} >= {"memory"}
    seen = {t.kind for seed in (7, 8, 9) for t in phrased_scenario(100, seed).back_references}
    assert {"ordinal", "position", "result", "far", "paraphrase", "chain", "memory"} <= seen
    probes = [t for t in scenario.tasks if t.kind == "memory"]
    assert len(probes) == 3 and {p.refers_to for p in probes} == {0, 1}  # name, subject, form


def test_what_a_reference_needs_is_stated_by_its_target_task_only() -> None:
    scenario = phrased_scenario(60, seed=3)
    for task in scenario.back_references:
        if task.kind == "memory":
            continue
        target = scenario.tasks[task.refers_to]
        target_text = " ".join(r for turn in target.turns for r in (turn.text, *turn.replies))
        assert all(appears(need, target_text) for need in task.needs if re.search(r"x", need))


@pytest.mark.parametrize(
    ("needed", "text", "found"),
    [
        ("3", "x = -3, x = 3", True),
        ("3", "x = -3 and x^3 + 13 = 3.5", False),
        ("-3", "x**2 - 3", False),
        ("6*x**2 - 4*x + 3", "The derivative is 6*x**2 - 4*x + 3.", True),
        ("Dana", "Hi, I'm Dana.", True),
        ("Dana", "Danaë", False),
    ],
)
def test_a_need_counts_only_as_a_whole_token(needed: str, text: str, found: bool) -> None:
    assert appears(needed, text) is found


def test_retention_is_judged_on_the_request_sent_for_the_question() -> None:
    question = "what is the derivative from problem number 2 at x = 1?"
    kept = [SYSTEM, {"role": "system", "content": "#2 differentiate ... -> 6*x - 5"},
            {"role": "user", "content": question}]  # fmt: skip
    lost = [SYSTEM, {"role": "user", "content": question}]
    assert missing_in_request(question, ["6*x - 5"], [{"messages": kept}]) == []
    assert missing_in_request(question, ["6*x - 5"], [{"messages": lost}]) == ["6*x - 5"]
    assert missing_in_request("never asked", ["1"], [{"messages": kept}]) is None
    # The question's own words do not count: a need it repeats must be elsewhere too.
    echo = [SYSTEM, {"role": "user", "content": "the one with roots 4 and -3"}]
    assert missing_in_request("the one with roots 4 and -3", ["4"], [{"messages": echo}]) == ["4"]


@pytest.mark.parametrize("name", ["long-30", "long-100", "student-36", "physics-34"])
@pytest.mark.parametrize("seed", [DEFAULT_SEED, 5])
def test_facts_a_reference_needs_belong_to_one_task_only(name: str, seed: int) -> None:
    """No reference can pass by coincidence: the equations, their pairs of roots and the
    derivatives a session produces are each unique to one task."""
    scenario = SCENARIOS[name](seed)
    derivatives = [t.facts for t in scenario.tasks if t.kind == "derivative"]
    assert len(derivatives) == len(set(derivatives))
    solved = [t.facts for t in scenario.tasks if t.kind == "solve"]
    assert len(solved) == len(set(solved))
    for task in scenario.back_references:
        equation = next((n for n in task.needs if "x^" in n), None)
        if equation is None:
            continue
        holders = [t for t in scenario.tasks if t.question.endswith(f"{equation} = 0")]
        holders += [t for t in scenario.tasks if f" {equation} " in f" {t.question} "]
        assert {scenario.tasks.index(t) for t in holders if t.kind != task.kind} == {task.refers_to}


@pytest.mark.parametrize("name", ["student-36", "physics-34"])
def test_homework_sessions_state_who_and_what_early_and_probe_it_late(name: str) -> None:
    scenario = SCENARIOS[name](DEFAULT_SEED)
    assert scenario == SCENARIOS[name](DEFAULT_SEED)
    probes = [t for t in scenario.tasks if t.kind == "memory"]
    assert len(probes) == 3 and list(scenario.tasks[-3:]) == probes
    opening = " ".join(t.question for t in scenario.tasks[:2])
    for probe in probes:
        assert probe.refers_to in (0, 1)
        assert all(appears(need, opening) for need in probe.needs)
        assert scenario.tasks.index(probe) - probe.refers_to >= 30
    refs = [t for t in scenario.back_references if t.kind != "memory"]
    assert len(refs) >= 6


def test_physics_sessions_are_word_problems_referred_to_by_topic() -> None:
    kinds: set[str] = set()
    for seed in (DEFAULT_SEED, 1, 2, 3):
        scenario = SCENARIOS["physics-34"](seed)
        words = " ".join(t.question for t in scenario.tasks)
        assert "velocity" in words and ("work" in words or "spring" in words)
        kinds |= {t.kind for t in scenario.back_references}
    assert {"paraphrase", "memory"} <= kinds
