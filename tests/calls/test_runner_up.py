"""The runner-up: the call the model nearly made, read from its token probabilities where
it wrote a tool's name or an id, rebuilt from its own reply and offered as `1) ...`."""

from __future__ import annotations

from agent.calls.runner_up import offer_of, offered_call, retargeted, runner_up
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.messages import AssistantMessage, Offer
from agent.testing.in_process import InProcessModel, hesitating
from agent.testing.replies import done, evaluate, solve
from agent.workspace.building import build
from baml_client import b


def _workspace():
    """#1 the person's x^2 - 5x + 6 = 0, #2 its roots, #3 x^2 + x - 12 = 0, #4 its roots:
    as a chat through the loop leaves them."""
    model = InProcessModel(
        [
            solve("x^2 - 5x + 6 = 0"),
            done("x = 2, x = 3 (#2)"),
            solve("x^2 + x - 12 = 0"),
            done("x = -4, x = 3 (#4)"),
        ]
    )
    agent = Agent(model, make_strategy("none"))
    agent.run_turn("solve x^2 - 5x + 6 = 0")
    agent.run_turn("solve x^2 + x - 12 = 0")
    return build(agent.session.conversation())


def test_a_close_second_tool_is_the_same_call_made_with_that_tool() -> None:
    reply = solve("x^3 - 3*x = 0", variable="x")
    step = b.parse.MathChat(reply)
    other = runner_up(step, hesitating(reply, "solve", "ext", 0.3), _workspace())
    assert other is not None and (other.kind, other.chosen, other.instead) == (
        "tool",
        "solve",
        "extrema",
    )
    # The equation becomes the expression extrema reads; the variable is carried over.
    assert other.call.tool == "extrema"
    assert other.call.expression == "x^3 - 3*x" and other.call.variable == "x"
    # An equation with another right side is read as its difference.
    moved = retargeted(b.parse.MathChat(solve("x^2 = 4")), "extrema")
    assert moved is not None and moved.expression == "x^2 - (4)"
    assert other.share == 0.3


def test_a_token_that_begins_several_tools_names_none_of_them() -> None:
    reply = evaluate("x^2", "3")
    step = b.parse.MathChat(reply)
    # "s" begins solve, simplify and series: which one the model meant is not known.
    assert runner_up(step, hesitating(reply, "evaluate", "s", 0.4), _workspace()) is None


def test_an_unlikely_second_is_not_offered() -> None:
    reply = solve("x^2 = 4")
    step = b.parse.MathChat(reply)
    assert runner_up(step, hesitating(reply, "solve", "ext", 0.02), _workspace()) is None
    assert runner_up(step, (), _workspace()) is None


def test_a_close_second_id_is_the_same_call_on_that_item_if_it_exists() -> None:
    reply = evaluate("max(#4)")
    step = b.parse.MathChat(reply)
    workspace = _workspace()
    other = runner_up(step, hesitating(reply, "4", "2", 0.35), workspace)
    assert other is not None and (other.kind, other.chosen, other.instead) == ("item", "#4", "#2")
    assert other.call.tool == "evaluate" and other.call.expression == "max(#2)"
    # An id no item has is no alternative.
    assert runner_up(step, hesitating(reply, "4", "9", 0.35), workspace) is None


def test_the_offer_says_what_was_used_and_runs_back_as_the_other_call() -> None:
    reply = evaluate("max(#4)")
    workspace = _workspace()
    other = runner_up(b.parse.MathChat(reply), hesitating(reply, "4", "2", 0.35), workspace)
    offer = offer_of(other, workspace)
    assert offer.text.startswith("Used #4 (roots of #3: x = -4, x = 3).")
    assert "1) evaluate with #2 (roots of #1: x = 2, x = 3) instead" in offer.text
    assert offer.item == "#2" and offer.share == 0.35
    again = offered_call(offer)
    assert again is not None and again.tool == "evaluate" and again.expression == "max(#2)"
    # The person's `1` or the other item's id alone picks it; anything else does not.
    assert offer.picked_by("1") and offer.picked_by(" 1) ") and offer.picked_by("#2")
    assert not offer.picked_by("12") and not offer.picked_by("#4") and not offer.picked_by("yes")


def test_the_model_never_reads_the_offer() -> None:
    offer = Offer(tool="evaluate", arguments={"expression": "max(#2)"}, text="1) ...")
    message = AssistantMessage(text="3 (#5)", task_status="COMPLETED", offer=offer)
    assert "1) ..." not in message.to_chat().content
    assert message.shown == "3 (#5)\n1) ..."


def test_a_system_or_a_call_without_a_math_field_is_not_retargeted() -> None:
    step = b.parse.MathChat(solve("x^2 = 4"))
    assert retargeted(step, "recall") is None
