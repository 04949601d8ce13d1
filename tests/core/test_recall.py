"""`recall`: the model's search over every finished task of the conversation."""

from __future__ import annotations

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.core.recall import recall
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, evaluate, solve
from agent.testing.replies import recall as recall_reply

TASKS = [
    ("Hi, I'm Dana and I study chemistry.", "Hello Dana!", None),
    ("solve x^2 - 4x - 5 = 0", "The roots are x = -1 and x = 5.", ("solve", "x = -1, x = 5")),
    ("differentiate 3x^3 + 2x", "It is 9*x**2 + 2.", ("derivative", "9*x**2 + 2")),
    ("how much fuel does the fleet burn at 40 km/h?", "12 litres.", ("evaluate", "12")),
    ("solve y^2 - 9 = 0", "y = -3 or y = 3.", ("solve", "y = -3, y = 3")),
]


def conversation() -> list[Message]:
    messages: list[Message] = []
    for n, (question, answer, tool) in enumerate(TASKS):
        messages.append(UserMessage(text=question))
        if tool is not None:
            name, text = tool
            messages += [
                ToolCall(call_id=f"c{n}", tool=name, arguments={"expression": question}),
                ToolResultMessage(call_id=f"c{n}", tool=name, ok=True, text=text),
            ]
        messages.append(AssistantMessage(text=answer, task_status="COMPLETED"))
    return messages


def test_recall_finds_tasks_by_number_ordinal_result_and_topic() -> None:
    history = conversation()
    assert recall(history, "task 3").startswith("#3 differentiate 3x^3 + 2x")
    assert recall(history, "the second problem").startswith("#2 solve x^2 - 4x - 5 = 0")
    assert "#2 " in recall(history, "roots 5 and -1")
    assert recall(history, "fleet fuel").startswith("#4 how much fuel")
    assert "#1 " in recall(history, "my name")


def test_recall_says_so_when_nothing_matches() -> None:
    assert "#1 to #5" in recall(conversation(), "zebra")
    assert "No task" in recall([], "anything")


def test_the_loop_answers_recall_from_the_whole_conversation() -> None:
    """A task the view leaves out is one lookup away, and the result grounds the next call."""
    model = InProcessModel(
        [
            solve("x^2 - 4x - 5 = 0"),
            done("The roots are x = -1 and x = 5."),
            recall_reply("the first equation"),
            evaluate("x^2", "-1", "5"),
            done("1 and 25."),
        ]
    )
    agent = Agent(model, make_strategy("ledger"))
    assert agent.run_turn("solve x^2 - 4x - 5 = 0").ok
    result = agent.run_turn("square the roots of the first equation")
    assert result.ok and result.reply.text == "1 and 25."
    (call, found), (_, squared) = result.tool_runs
    assert call.tool == "recall" and found.ok
    assert found.text.startswith("#1 solve x^2 - 4x - 5 = 0 -> ")
    assert squared.ok and "25" in squared.text
    # Folded, the task's line keeps its own answer, not the recalled line.
    line = agent.session.working[0].exchanges[-1]
    assert line.answer == "1 and 25." and line.tools == ("evaluate",)


def test_a_query_with_math_gets_only_the_tasks_holding_that_math() -> None:
    history = conversation()
    found = recall(history, "roots of the equation y^2 - 9 = 0").splitlines()
    assert [line.split()[0] for line in found] == ["#5"]
    # Words alone still find every task that shares them.
    by_words = recall(history, "the roots we found").splitlines()
    assert {line.split()[0] for line in by_words} >= {"#2", "#5"}
    # Several tasks named alike: the latest first (a person asking for "the roots of the
    # equation" again means the one just solved).
    for query in ("roots of the equation", "what were the roots again?"):
        assert recall(history, query).startswith("#5 solve y^2 - 9 = 0")
    # Math no task holds falls back to the words.
    assert "#2 " in recall(history, "the roots of z^2 + 1 = 0")
