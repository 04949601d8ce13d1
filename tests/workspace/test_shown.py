"""What the model is shown of the workspace: each item once, where it enters the chat, and
never changed afterwards (so the prompt only grows at its end and its cache serves it)."""

from __future__ import annotations

import re

from agent import wire
from agent.context.registry import make_strategy
from agent.core.loop import Agent, SmallModelAids
from agent.messages import AssistantMessage, SummaryExchangeRecord, SummaryMessage, UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import answer, derivative, done, evaluate, solve
from agent.testing.scripted import ScriptedModel, ScriptedRequest
from agent.workspace.building import build
from agent.workspace.shown import shown_chat


def _small_agent(model: InProcessModel, strategy: str = "window") -> Agent:
    return Agent(model, make_strategy(strategy), aids=SmallModelAids.every())


def _newest_id(request: ScriptedRequest) -> str:
    return re.findall(r"#\d+", "\n".join(str(m["content"]) for m in request.messages))[-1]


def _points_at_the_newest(request: ScriptedRequest) -> str:
    """Solve the newest equation, take the larger of the newest roots, then answer."""
    if request.tool_outcomes:
        return done("ok")
    if (request.question or "").startswith("solve"):
        return solve(_newest_id(request))
    return evaluate(f"max({_newest_id(request)})")


def test_every_prompt_extends_the_one_before_until_a_fold() -> None:
    model = InProcessModel(script=ScriptedModel(chat=_points_at_the_newest))
    agent = _small_agent(model)
    for n in range(1, 7):
        assert agent.run_turn(f"solve x^2 - {n + 1}x + {n} = 0").ok
        assert agent.run_turn("the larger root").ok
    assert len(model.seen) == 24
    for earlier, later in zip(model.seen, model.seen[1:], strict=False):
        assert later[: len(earlier)] == earlier


def test_the_persons_new_math_is_listed_before_the_words_that_wrote_it() -> None:
    """The request is the last thing the model reads before it replies."""
    conversation = [UserMessage(text="let f(x) = x^3 - 3x and solve x^2 = 4")]
    workspace = build(conversation)
    (shown,) = shown_chat(conversation, conversation, workspace)
    assert shown.content.splitlines() == [
        wire.ANNOUNCED + "#1 function f (you; cubic): f(x) = x^3 - 3*x",
        wire.ANNOUNCED + "#2 equation (you; equations[1]; quadratic): x^2 = 4",
        wire.REQUEST_LABEL + "let f(x) = x^3 - 3x and solve x^2 = 4",
    ]
    assert wire.request_of(shown.content) == conversation[0].text
    assert wire.announced_of(shown.content) == shown.content.splitlines()[:2]


def test_a_failed_turns_math_is_listed_with_the_next_message() -> None:
    model = InProcessModel(["not json at all", derivative("#1"), done("ok")])
    agent = _small_agent(model, "none")
    assert not agent.run_turn("let g(t) = t^2 + 1").ok  # rolled back: never shown again
    assert agent.run_turn("differentiate g").ok
    first = model.seen[1][0].content
    assert first.splitlines() == [
        wire.ANNOUNCED + "#1 function g (you; quadratic): g(t) = t^2 + 1",
        wire.REQUEST_LABEL + "differentiate g",
    ]


def test_what_a_fold_hid_is_listed_once_after_the_summaries() -> None:
    conversation = [
        UserMessage(text="let h(t) = 5t^2"),
        AssistantMessage(text="Noted.", task_status="COMPLETED", note="The user is Ana"),
        UserMessage(text="solve x^2 = 9"),
    ]
    workspace = build(conversation)
    folded = SummaryMessage(
        exchanges=(SummaryExchangeRecord(question="let h(t) = 5t^2", answer="Noted."),),
        strategy="window",
    )
    context = [folded, conversation[2]]
    listing, request = shown_chat(context, conversation, workspace)
    assert listing.role == wire.SYSTEM
    lines = listing.content.splitlines()
    assert lines[-3:] == [
        wire.ABOUT_USER + "The user is Ana",
        wire.HIDDEN_HEADER,
        "#1 function h (you; quadratic): h(t) = 5*t^2",
    ]
    assert request.content.splitlines() == [
        wire.ANNOUNCED + "#2 equation (you; equations[1]; quadratic): x^2 = 9",
        wire.REQUEST_LABEL + "solve x^2 = 9",
    ]


def test_a_note_stays_in_the_answer_that_wrote_it() -> None:
    model = InProcessModel([answer("Hi Ana.", note="The user is Ana"), done("ok")])
    agent = Agent(model, make_strategy("none"))
    agent.run_turn("I'm Ana, the user of this chat")
    agent.run_turn("thanks")
    assert model.seen[1][1].content == (
        '{"response": "Hi Ana.", "tool": "message_to_user", "task_status": "COMPLETED", '
        '"note": "The user is Ana"}'
    )


def test_after_a_result_the_answer_is_the_results_with_their_ids() -> None:
    """`SmallModelAids.answer_from_results`: the model only decides that the request is
    done; the answer quotes the turn's results exactly."""
    model = InProcessModel([solve("#1"), evaluate("sum(#2)"), done("whatever it would say")])
    agent = _small_agent(model, "none")
    result = agent.run_turn("solve x^2 - 5x + 6 = 0 and add the roots")
    assert result.ok and result.reply is not None
    assert result.reply.text == "x = 2, x = 3 (#2); 5 (#3)"
    assert model.wanted == ["any", "any", "any"]


def test_a_result_the_chat_already_had_is_answered_by_the_model() -> None:
    """Roots solved again hold nothing new: the person asked something else of them ("which
    is positive?"), so the model writes that answer, told so for that step only."""
    script = [solve("#1"), done("ok"), solve("#1"), done("x = 2 is positive")]
    model = InProcessModel([*script, solve("#4"), done("whatever it would say")])
    agent = _small_agent(model, "none")
    assert agent.run_turn("solve x^2 = 4").reply.text == "x = -2, x = 2 (#2)"  # type: ignore[union-attr]
    result = agent.run_turn("which of its roots is positive?")
    assert result.ok and result.reply is not None
    assert result.reply.text == "x = 2 is positive"
    told = "#3 repeats #2, which the user already had."
    assert model.seen[3][-1].content.startswith(told)
    # new roots are still answered by code
    result = agent.run_turn("solve x^2 = 9")
    assert result.ok and result.reply is not None
    assert result.reply.text.startswith("x = -3, x = 3")
    assert not any(told in str(m.content) for m in model.seen[-1])  # one step only


def test_a_repeated_call_after_a_result_is_answered_without_asking_again() -> None:
    model = InProcessModel([solve("#1"), solve("#1")])
    agent = _small_agent(model, "none")
    result = agent.run_turn("solve x^2 = 4")
    assert result.ok and result.reply is not None
    assert result.reply.text == "x = -2, x = 2 (#2)"
    assert len(model.seen) == 2


def test_what_folded_lines_give_by_id_is_not_listed_again() -> None:
    """A folded line carries the ids of the math its task was given and made: those items
    are not listed after the summaries; a summary in words (no ids) gets its items listed."""
    conversation = [
        UserMessage(text="solve x^2 = 9"),
        AssistantMessage(text="x = -3, x = 3", task_status="COMPLETED"),
        UserMessage(text="let h(t) = 5t^2"),
        AssistantMessage(text="Noted.", task_status="COMPLETED"),
        UserMessage(text="differentiate h"),
    ]
    workspace = build(conversation)
    with_ids = SummaryExchangeRecord(question="solve x^2 = 9", answer="x = -3, x = 3", said=("#1",))
    words = SummaryExchangeRecord(question="solve x^2 = 9", answer="x = -3, x = 3")
    defined = SummaryExchangeRecord(question="let h(t) = 5t^2", answer="Noted.", said=("#2",))
    in_words = SummaryExchangeRecord(question="let h(t) = 5t^2", answer="Noted.")
    for lines, listed in (((with_ids, defined), False), ((words, in_words), True)):
        folded = SummaryMessage(exchanges=lines, strategy="ledger")
        listing, _request = shown_chat([folded, conversation[4]], conversation, workspace)
        assert ("#1 equation" in listing.content) is listed
        assert "#2 function h" in listing.content  # functions are always listed
