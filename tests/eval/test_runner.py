"""The eval runner and report over a scripted model: what is counted, and the targets."""

from __future__ import annotations

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.eval.cases import CI_PART, CI_SEED, EvalCase, EvalTurn, Expected, load_set, subset
from agent.eval.generate import make_cases
from agent.eval.report import check_targets, figures
from agent.eval.runner import INVALID_REPLY_MARK, run_cases
from agent.testing.in_process import InProcessModel, hesitating
from agent.testing.replies import ask_back, derivative, done, evaluate, integral, solve
from agent.testing.scripted import ScriptedModel, scripted_agent

RIGHT = [
    solve("x^2 + 5*x + 6 = 0"),
    done("The roots are x = -3 and x = -2."),
    derivative("2*x^2 + 4*x - 6"),
    done("The derivative is 4*x + 4."),
    evaluate("x^2", "-3", "-2"),
    done("The squares of the roots are 9 and 4."),
    ask_back("What should I integrate?"),
    integral("4*x + 4", lower="0", upper="1"),
    done("The integral from 0 to 1 is 6."),
]


def _play(steps: list[str], cases: list[EvalCase], set_name: str = "reference"):
    model = InProcessModel(steps)
    return run_cases(cases, set_name, "none", lambda s: Agent(model, make_strategy(s)))


def test_the_reference_played_right_meets_its_target() -> None:
    outcomes = _play(RIGHT, load_set("reference"))
    assert [o.ok for o in outcomes] == [True] * 5, [o.why for o in outcomes]
    (row,) = figures(outcomes)
    assert (row.right, row.judged, row.dependent, row.dependent_right) == (5, 5, 2, 2)
    assert row.tool_steps_per_turn == 4 / 5 and row.parse_failure_share == 0
    assert all(check.met for check in check_targets([row], "none"))
    # Each turn keeps its tool calls and what they returned (read when a turn is missed).
    assert outcomes[0].calls == ('solve {"equation": "x^2 + 5*x + 6 = 0"} -> x = -3, x = -2',)
    assert outcomes[3].calls == ()


def test_a_wrong_answer_misses_the_target_and_is_listed_by_category() -> None:
    wrong = [*RIGHT[:5], done("The squares of the roots add up to 13."), *RIGHT[6:]]
    outcomes = _play(wrong, load_set("reference"))
    assert [o.ok for o in outcomes] == [True, True, False, True, True]
    (row,) = figures(outcomes)
    assert row.wrong_by_category == {"reference": 1}
    reference_check = check_targets([row], "none")[0]
    assert not reference_check.met and reference_check.detail == "4/5"


def test_a_reply_that_never_parses_is_counted_as_shown() -> None:
    case = EvalCase("c", "closed", "chat", (EvalTurn("what is 2 + 3", Expected("value", ("5",))),))
    with scripted_agent(ScriptedModel(["I think it is five.", "Still prose."])) as (agent, _):
        outcomes = run_cases([case], "single", "none", lambda _s: agent)
    (outcome,) = outcomes
    assert not outcome.ok and outcome.invalid_reply_shown and INVALID_REPLY_MARK in outcome.reply
    assert outcome.repairs == 1
    (row,) = figures(outcomes)
    assert row.parse_failure_share == 1.0
    assert not check_targets([row], "none")[-1].met


def test_a_tool_error_given_as_the_answer_is_counted() -> None:
    case = EvalCase("c", "closed", "chat", (EvalTurn("g(-2)?", Expected("value", ("14",))),))
    steps = [
        evaluate("g(-2)"),
        done("g(-2) needs g's definition: send expression 'g(x) = ...' with at '-2'."),
    ]
    (outcome,) = _play(steps, [case], "single")
    assert outcome.tool_error_shown and not outcome.ok
    (call,) = outcome.calls
    assert call.startswith('evaluate {"expression": "g(-2)"') and " -> error: " in call


def test_the_ci_subset_is_fixed_and_covers_every_category() -> None:
    single = load_set("single", CI_PART)
    chosen = subset("single", single)
    assert {c.category for c in chosen} == {c.category for c in single}
    assert chosen == subset("single", make_cases("single", CI_PART, CI_SEED))
    assert len(chosen) < len(single) * 0.7
    assert subset("reference", load_set("reference")) == load_set("reference")
    sessions = subset("sessions", load_set("sessions", CI_PART))
    assert 1 <= len(sessions) <= 3
    assert all(case.name.startswith("sessions-test-1-") for case in sessions)


def test_a_wrong_answer_with_the_runner_up_is_picked_once_and_counted() -> None:
    turns = (
        EvalTurn("solve x^2 - 5x + 6 = 0", Expected("roots", ("2", "3"))),
        EvalTurn("solve x^2 + x - 12 = 0", Expected("roots", ("-4", "3"))),
        EvalTurn("the smaller root of the first", Expected("value", ("2",)), depends=True),
        EvalTurn("the smaller root of the second", Expected("value", ("-4",)), depends=True),
    )
    hesitant = evaluate("min(#4)")
    steps = [
        solve("x^2 - 5x + 6 = 0"),
        done("x = 2, x = 3 (#2)"),
        solve("x^2 + x - 12 = 0"),
        done("x = -4, x = 3 (#4)"),
        hesitant,  # wrong (#4 is the second's roots), nearly #2: the person picks it
        done("-4 (#5)"),
        evaluate("min(#2)"),  # wrong (the first's again), nothing offered: a silent miss
        done("2"),
    ]
    model = InProcessModel(steps)
    model.choices[4] = hesitating(hesitant, "4", "2", 0.4)
    case = EvalCase("c", "roots-2", "chat", turns)
    outcomes = run_cases([case], "sessions", "none", lambda s: Agent(model, make_strategy(s)))
    first, second, picked, silent = outcomes
    assert first.ok and second.ok and not first.offered
    assert not picked.ok and picked.offered and picked.offer_share == 0.4
    assert picked.picked_ok and picked.picked_reply.startswith("2")
    assert picked.right_after_pick and not picked.silent_miss
    assert not silent.ok and not silent.offered and silent.picked_ok is None and silent.silent_miss
    (row,) = figures(outcomes)
    assert (row.right, row.right_after_pick, row.dependent_right_after_pick) == (2, 3, 1)
    assert (row.silent_misses, row.dependent_silent_misses, row.offered_when_right) == (1, 1, 0)
