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
from agent.workspace.building import build

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
    # each item with the line of the task that made it, which gives the person's math its id
    assert found[1] == "5. solve y^2 - 9 = 0 [#6] -> y = -3 or y = 3. [#7]"
    assert "#6 equation (you; equations[2], equations[-1]; quadratic): y^2 - 9 = 0" in found


def test_recall_finds_a_task_by_its_ledger_number_and_an_equation_by_its_place() -> None:
    """`task 2` is the ledger's line 2 (what an archived line is called); `equations[1]` the
    person's first equation: the forms the prompt itself uses."""
    found = lookup("task 2").splitlines()
    assert found[0] == "2. solve x^2 - 4x - 5 = 0 [#1] -> The roots are x = -1 and x = 5. [#2]"
    assert found[1].startswith("#1 equation") and found[2].startswith("#2 roots of")
    placed = lookup("equations[1]").splitlines()
    assert placed[0].startswith("#1 equation (you; equations[1]")
    assert placed[1].startswith("2. solve x^2 - 4x - 5 = 0 [#1]")
    assert lookup("task 99").startswith("Nothing matches")


def test_words_are_looked_for_as_written_in_labels_then_in_requests() -> None:
    """No meaning is read into words: a kind the record's labels use ("derivative") finds
    those items, newest first; a word of the person's ("chemistry") their task's line."""
    assert (
        lookup("derivative").splitlines()[0]
        == "#4 derivative of differentiate 3x^3 + 2x: 9*x^2 + 2"
    )
    assert (
        lookup("chemistry").splitlines()[0]
        == "1. Hi, I'm Dana and I study chemistry. -> Hello Dana!"
    )


def test_what_names_nothing_shows_the_whole_record_to_pick_from() -> None:
    said = lookup("zebra")
    assert said.startswith("Nothing matches 'zebra' by id, name or math. Workspace")
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
    assert found.text == (
        "#2 roots of #1 (equations[1], equations[-1]): x = -1, x = 5\n"
        "1. solve x^2 - 4x - 5 = 0 [#1] -> The roots are x = -1 and x = 5. [#2]\n"
        f"{wire.AFTER_RECALL}"
    )
    assert squared.ok and squared.values == ("1", "25")
