"""A name an answer writes for a result (`v(t) = 3t^2 - 2`, equal by value to an item) stands
for that item in later calls, resolved as a function's name is; nothing the model reads
changes."""

from __future__ import annotations

from agent.calls.resolve import resolve_arguments
from agent.messages import Message
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, solve, tool_call
from agent.workspace.building import build
from tests.core.test_loop import make_agent

VELOCITY = "The velocity is v(t) = 3t^2 - 2 (#2)."


def _velocity_chat(answer: str) -> list[Message]:
    """h, its derivative (#2) and an answer: the conversation as the loop keeps it."""
    agent = make_agent(InProcessModel([derivative("h"), done(answer)]))
    assert agent.run_turn("a particle is at h(t) = t^3 - 2t. Its velocity?").ok
    return agent.session.conversation()


def test_a_name_an_answer_gives_a_result_resolves_to_that_result() -> None:
    workspace = build(_velocity_chat(VELOCITY))
    assert workspace.named["v"].number == 2 and workspace.named["v"].params == ("t",)
    assert "v" not in workspace.names  # what the lines show is unchanged
    assert resolve_arguments("evaluate", {"expression": "v(2)", "at": []}, workspace) == {
        "expression": "(10)",
        "at": [],
    }
    resolved = resolve_arguments("solve", {"equation": "v = 0"}, workspace)
    assert resolved == {"equation": "3*t**2 - 2 = 0"}
    assert resolve_arguments("derivative", {"expression": "v'"}, workspace) == {
        "expression": "(6*t)"
    }


def test_a_name_for_math_no_item_holds_or_a_bare_letter_names_nothing() -> None:
    # the model's own arithmetic is no result; `y = ...` with no head is a letter
    for answer in ("So v(t) = 3t^2 + 5.", "The tangent is y = 3t^2 - 2.", "v = 3t^2 - 2"):
        assert "v" not in build(_velocity_chat(answer)).named
        assert "y" not in build(_velocity_chat(answer)).named
    # a name the person gave stays theirs
    chat = _velocity_chat("Here h(t) = 3t^2 - 2.")
    assert build(chat).named["h"].number == 1


def test_the_loop_runs_a_later_call_on_the_name_the_answer_gave() -> None:
    model = InProcessModel(
        [
            derivative("h"),
            done(VELOCITY),
            evaluate("v(2)"),
            done("v(2) = 10 (#3)"),
            solve("v = 0", variable="t"),
            done("t = ±sqrt(6)/3"),
            tool_call("derivative", expression="v'", variable="t"),
            done("6t"),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("a particle is at h(t) = t^3 - 2t. Its velocity?")
    ((_c, value),) = agent.run_turn("what is v(2)?").tool_runs
    assert value.ok and value.values == ("10",) and value.item == "#3"
    ((_c, roots),) = agent.run_turn("when is v zero?").tool_runs
    assert roots.ok and set(roots.values) == {"-sqrt(6)/3", "sqrt(6)/3"}
    ((_c, acceleration),) = agent.run_turn("and v'?").tool_runs
    assert acceleration.ok and acceleration.values == ("6*t",)
    # the person's "v(2)" is a use of the name, not new math (no `2*v` item); and no line
    # the model reads names v
    assert [i.body for i in agent_items(agent) if i.origin == "you"] == ["t**3 - 2*t"]
    assert not any("function v" in m.content for m in model.seen[-1])


def agent_items(agent) -> list:
    return build(agent.session.conversation()).items


def test_the_persons_own_name_for_a_result_is_their_function() -> None:
    model = InProcessModel([derivative("h"), done("3t^2 - 2 (#2)"), evaluate("v(2)"), done("10")])
    agent = make_agent(model)
    agent.run_turn("a particle is at h(t) = t^3 - 2t. Its velocity?")
    ((_c, value),) = agent.run_turn("call it v(t) = 3t^2 - 2. What is v(2)?").tool_runs
    assert value.ok and value.values == ("10",)
