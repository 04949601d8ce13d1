"""The runner-up through the loop: an answer offers the call the model nearly made, the
person's `1` runs it without asking the model, and the model never reads the offer."""

from __future__ import annotations

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.testing.in_process import InProcessModel, hesitating
from agent.testing.replies import done, evaluate, solve


def _chat(hesitant: str, *more: str) -> tuple[Agent, InProcessModel]:
    """Two equations solved (#2 and #4 their roots); the next call is `hesitant`, which
    wrote #4 and nearly wrote #2."""
    model = InProcessModel(
        [
            solve("x^2 - 5x + 6 = 0"),
            done("x = 2, x = 3 (#2)"),
            solve("x^2 + x - 12 = 0"),
            done("x = -4, x = 3 (#4)"),
            hesitant,
            done("the answer"),
            *more,
        ]
    )
    model.choices[4] = hesitating(hesitant, "4", "2", 0.4)
    agent = Agent(model, make_strategy("none"))
    agent.run_turn("solve x^2 - 5x + 6 = 0")
    agent.run_turn("solve x^2 + x - 12 = 0")
    return agent, model


def test_an_answer_offers_the_runner_up_and_one_keystroke_runs_it() -> None:
    agent, model = _chat(evaluate("min(#4)"), solve("x^2 = 9"), done("x = -3, x = 3 (#7)"))
    result = agent.run_turn("the smaller root")
    offer = result.reply.offer
    assert offer is not None and offer.item == "#2" and offer.share == 0.4
    assert "Used #4" in result.reply.shown and "1) evaluate with #2" in result.reply.shown
    calls_before = len(model.seen)
    picked = agent.run_turn("1")
    # Run as offered, answered by code: no model call.
    assert len(model.seen) == calls_before and picked.llm_calls == 0
    ((call, ran),) = picked.tool_runs
    assert call.tool == "evaluate" and ran.ok and ran.values == ("2",)
    assert picked.reply.text == f"{ran.text} ({ran.item})" and picked.reply.offer is None
    # The next request reads the pick as the person's message and its call; never the offer.
    agent.run_turn("solve x^2 = 9")
    sent = "\n".join(m.content for m in model.seen[-2])
    assert "min(#2)" in sent and "1) evaluate" not in sent and "Used #4" not in sent


def test_the_same_result_either_way_is_not_offered() -> None:
    agent, _model = _chat(evaluate("max(#4)"))  # max(#2) is 3 as well
    result = agent.run_turn("the larger root")
    assert result.ok and result.reply.offer is None


def test_a_message_that_is_not_the_pick_goes_to_the_model() -> None:
    agent, _model = _chat(
        evaluate("min(#4)"), solve("x^2 = 9"), done("x = -3, x = 3 (#7)"), done("1 what?")
    )
    assert agent.run_turn("the smaller root").reply.offer is not None
    result = agent.run_turn("solve x^2 = 9")
    assert result.llm_calls == 2 and [c.tool for c, _ in result.tool_runs] == ["solve"]
    # The offer was under the previous answer: `1` now is a message like any other.
    assert agent.run_turn("1").llm_calls == 1


def test_every_front_shows_the_offer_under_the_answer() -> None:
    from agent.messages import AssistantMessage, Offer
    from agent.service.views import entry_json

    offer = Offer(tool="evaluate", arguments={"expression": "min(#2)"}, text="1) ...", item="#2")
    answer = AssistantMessage(text="-4 (#5)", task_status="COMPLETED", offer=offer)
    assert answer.terminal_row()[1] == "-4 (#5)\n1) ..."
    assert "1) ..." in "\n".join(answer.markdown("now"))
    shown = entry_json(answer)
    assert shown["text"] == "-4 (#5)\n1) ..." and shown["offer"] == {"text": "1) ...", "pick": "1"}
