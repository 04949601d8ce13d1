"""`recall`: workspace items and tasks out of view, by id, by name or by math, never by words."""

from __future__ import annotations

from agent import wire
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.core.recall import recall
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, evaluate, solve
from agent.testing.replies import recall as recall_reply
from agent.workspace.record import build

TASKS = [
    ("Hi, I'm Dana and I study chemistry.", "Hello Dana!", None),
    ("solve x^2 - 4x - 5 = 0", "The roots are x = -1 and x = 5.", ("solve", ("-1", "5"))),
    ("differentiate 3x^3 + 2x", "It is 9*x**2 + 2.", ("derivative", ("9*x**2 + 2",))),
    ("Let g(t) = t^3 - t", "Noted.", None),
    ("solve y^2 - 9 = 0", "y = -3 or y = 3.", ("solve", ("-3", "3"))),
]


def conversation() -> list[Message]:
    messages: list[Message] = []
    number = 0
    for n, (question, answer, tool) in enumerate(TASKS):
        messages.append(UserMessage(text=question))
        number = build(messages).next_number
        if tool is not None:
            name, values = tool
            messages += [
                ToolCall(call_id=f"c{n}", tool=name, arguments={"expression": question}),
                ToolResultMessage(
                    call_id=f"c{n}",
                    tool=name,
                    ok=True,
                    text=", ".join(values),
                    item=f"#{number}",
                    values=values,
                ),
            ]
        messages.append(AssistantMessage(text=answer, task_status="COMPLETED"))
    return messages


def lookup(query: str) -> str:
    history = conversation()
    return recall(history, build(history), query)


def test_recall_finds_items_by_id_and_by_name() -> None:
    assert lookup("#4").startswith("#4 derivative of differentiate 3x^3 + 2x: 9*x^2 + 2")
    assert lookup("#2 and #4").splitlines()[0].startswith("#2 ")
    assert lookup("g").startswith("#5 function g (you; cubic): g(t) = t^3 - t")
    # what it found is for the next call: its last line says so
    assert lookup("g").splitlines()[-1] == wire.AFTER_RECALL


def test_recall_finds_items_and_tasks_by_their_math() -> None:
    found = lookup("y^2 - 9 = 0").splitlines()
    assert found[0].startswith("#7 roots of")  # newest first
    assert "#6 equation (you; quadratic): y^2 - 9 = 0" in found
    assert any(line.startswith("5. solve y^2 - 9 = 0") for line in found)


def test_words_alone_name_nothing_and_the_whole_record_is_shown_to_pick_from() -> None:
    said = lookup("the first equation")
    assert said.startswith("Nothing matches 'the first equation' by id, name or math. Workspace")
    assert "#1 " in said and "#7 " in said and "older items not shown" not in said
    assert "The workspace is empty" in recall([], build([]), "anything")


def test_the_loop_answers_recall_from_the_whole_conversation() -> None:
    """An item the view leaves out is one look-up away, and its id then works in a call."""
    model = InProcessModel(
        [
            solve("x^2 - 4x - 5 = 0"),
            done("The roots are x = -1 and x = 5."),
            recall_reply("#2"),
            evaluate("(#2)^2"),
            done("1 and 25."),
        ]
    )
    agent = Agent(model, make_strategy("ledger"))
    assert agent.run_turn("solve x^2 - 4x - 5 = 0").ok
    result = agent.run_turn("square the roots of the first equation")
    assert result.ok and result.reply.text == "1 and 25."
    (call, found), (_, squared) = result.tool_runs
    assert call.tool == "recall" and found.ok
    assert found.text == f"#2 roots of #1: x = -1, x = 5\n{wire.AFTER_RECALL}"
    assert squared.ok and squared.values == ("1", "25")
    # The step after the look-up was held to a math call; the one after that was free.
    assert model.wanted[-3:] == ["any", "tool", "any"]
