"""The `ledger` and `focus` strategies and the reference reader behind their views."""

from __future__ import annotations

import itertools
import json

import pytest

from agent.context.references import LedgerLine, by_position, referenced
from agent.context.strategies.focus import FocusStrategy, FocusView
from agent.context.strategies.ledger import (
    LedgerStrategy,
    LedgerView,
    RecalledLines,
    personal_sentences,
)
from agent.context.strategies.window import WindowStrategy
from agent.context.tasks import unpaired_tool_messages
from agent.messages import (
    AssistantMessage,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat_list,
)

TASKS = [
    ("solve x^2 - 4x - 5 = 0", "x = -1, x = 5"),
    ("Find the derivative of 3x^3 + 2x", "9*x**2 + 2"),
    ("My name is Dana and I always want decimals", "Noted, Dana."),
    ("integrate x^2 from 0 to 3", "9"),
    ("evaluate 2x + 1 at x = 7", "15"),
    ("solve y^2 - 9 = 0", "y = -3, y = 3"),
    ("differentiate x*sin(x)", "x*cos(x) + sin(x)"),
    ("how much fuel does the delivery fleet burn at 40 km/h", "12 litres"),
    ("evaluate q^3 - q at q = 4", "60"),
    ("solve 2t - 14 = 0", "t = 7"),
    ("integrate 6z from 1 to 2", "9"),
    ("solve w^2 = 49", "w = -7, w = 7"),
]
LINES = [LedgerLine(i, q, a) for i, (q, a) in enumerate(TASKS, 1)]
CURRENT = len(LINES) + 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what was question 5 again?", 5),
        ("redo problem #4 with limits 0 and 1", 4),
        ("go back to task number 2", 2),
        ("take the second problem I sent and double it", 2),
        ("my 3rd question: what did I say?", 3),
        ("the very first result, squared", 1),
        ("what did the first one give?", 1),
        ("the fourth calculation, please", 4),
        ("two tasks back, what did we get?", 11),
        ("the answer from 3 questions ago", 10),
        ("a couple of problems earlier you found something", 11),
        ("the previous-but-one answer", 11),
        ("the one before last", 11),
        ("second to last result", 11),
        ("the third-to-last one", 10),
        ("the last problem, but at x = 2", 12),
        ("the previous question again", 12),
    ],
)
def test_positions_ordinals_and_numbers(text: str, expected: int) -> None:
    found = referenced(text, LINES, CURRENT)
    assert expected in found
    assert len(found) <= 3  # a pointer, not a dump of the ledger


@pytest.mark.parametrize(
    "text",
    [
        "what is the second derivative of x^4?",
        "find the third derivative of y^5 - y",
        "solve 3x + 1 = 0",
    ],
)
def test_derivative_orders_and_new_tasks_refer_to_nothing_by_position(text: str) -> None:
    assert by_position(text, CURRENT) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the one with roots 5 and -1", 1),
        ("use the solutions -3 and 3 again", 6),
        ("the equation whose answers were -7 and 7", 12),
        ("what was x*cos(x) + sin(x) at pi?", 7),
    ],
)
def test_references_by_result(text: str, expected: int) -> None:
    found = referenced(text, LINES, CURRENT)
    assert expected in found
    assert len(found) <= 3


@pytest.mark.parametrize(
    "text",
    ["solve 3r^2 - 12 = 0", "differentiate 5k^4 + k", "integrate 8m from 0 to 2", "hello!"],
)
def test_a_new_self_contained_request_refers_to_nothing(text: str) -> None:
    assert referenced(text, LINES, CURRENT) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the gradient function from earlier, at x = 1", {2, 7}),
        ("the solutions from the very beginning", {1}),
        ("the earliest area you computed", {4}),
        ("can we return to the fleet math?", {8}),
    ],
)
def test_references_by_kind_or_topic_in_other_words(text: str, expected: set[int]) -> None:
    assert expected <= referenced(text, LINES, CURRENT)


def finished(question: str, answer: str, tool: str | None = None) -> list:
    messages: list = [UserMessage(text=question)]
    if tool is not None:
        messages += [
            ToolCall(call_id=question[:8], tool=tool, arguments={"expression": question}),
            ToolResultMessage(call_id=question[:8], tool=tool, ok=True, text=answer),
        ]
    return [*messages, AssistantMessage(text=answer, task_status="COMPLETED")]


def ledger_working() -> list:
    exchanges = tuple(SummaryExchangeRecord(question=q, answer=a) for q, a in TASKS)
    return [SummaryMessage(exchanges=exchanges, strategy="ledger")]


def shown_numbers(view: list) -> tuple[int, ...]:
    assert isinstance(view[0], FocusView)
    return view[0].numbers


def test_focus_shows_personal_recent_and_referenced_lines_only() -> None:
    strategy = FocusStrategy(block=4, recent=2)
    view = strategy.view(ledger_working(), UserMessage(text="what was question 5 again?"))
    numbers = shown_numbers(view)
    assert 3 in numbers  # the user's own statement (name, decimals)
    assert {9, 10, 11, 12} <= set(numbers)  # the current block of recent tasks
    assert 5 in numbers  # referred to
    assert not {1, 2, 4, 6, 7, 8} & set(numbers)
    text = view[0].to_chat().content
    assert "#5 evaluate 2x + 1 at x = 7 -> 15" in text
    assert "request is #13" in text and f"{12 - len(numbers)} earlier task(s)" in text
    assert "recall" in text  # the model is told where the rest is


def test_a_request_leaning_on_the_previous_one_keeps_its_references() -> None:
    strategy = FocusStrategy(block=4, recent=2)
    working = ledger_working()
    strategy.view(working, UserMessage(text="What did the first problem give?"))
    follow = working + finished("What did the first problem give?", "x = -1, x = 5")
    follow = [follow[0], *follow[1:]]
    # The follow-up is a new task after the previous one finished (here verbatim).
    view = strategy.view(follow, UserMessage(text="and what was its value at that time?"))
    assert 1 in shown_numbers(view)


def test_the_open_task_and_unfolded_tasks_are_passed_through_untouched() -> None:
    strategy = FocusStrategy()
    verbatim = finished("differentiate t^3", "3*t**2", tool="derivative")
    open_tail = [UserMessage(text="integrate it")]
    working = [*ledger_working(), *verbatim, *open_tail]
    view = strategy.view(working, open_tail[0])
    assert view[1:] == [*verbatim, *open_tail]
    assert unpaired_tool_messages(view) == []
    assert "request is #14" in view[0].to_chat().content


def test_without_finished_tasks_the_view_is_the_working_history() -> None:
    working = [UserMessage(text="solve x^2 = 4")]
    assert FocusStrategy().view(working, working[0]) == working


def test_state_round_trips() -> None:
    strategy = FocusStrategy()
    strategy.view(ledger_working(), UserMessage(text="question 5 please"))
    strategy.view(ledger_working(), UserMessage(text="and the next one?"))
    restored = FocusStrategy()
    restored.from_state(strategy.to_state())
    assert restored.to_state() == strategy.to_state()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("evaluate x^2 at the roots of the very first equation", 1),
        ("the second equation I gave you", 6),
        ("my last equation, again", 12),
        ("what was the first integral?", 4),
    ],
)
def test_an_ordinal_of_a_kind_counts_tasks_of_that_kind(text: str, expected: int) -> None:
    assert expected in referenced(text, LINES, CURRENT)


# -- ledger: every line in view, archived a block at a time in very long sessions ---------------


def ledger_text(view: list) -> str:
    assert isinstance(view[0], LedgerView)
    return view[0].to_chat().content


def test_the_ledger_shows_every_line_numbered_in_order() -> None:
    view = LedgerStrategy().view(ledger_working(), UserMessage(text="anything at all"))
    lines = ledger_text(view).splitlines()[1:]
    assert lines == [f"#{n} {q} -> {a}" for n, (q, a) in enumerate(TASKS, 1)]
    assert len(view) == 1


def test_the_ledger_only_grows_at_its_end_so_prompts_share_their_start() -> None:
    strategy = LedgerStrategy()
    texts = []
    for count in range(1, len(TASKS) + 1):
        exchanges = tuple(SummaryExchangeRecord(question=q, answer=a) for q, a in TASKS[:count])
        working = [SummaryMessage(exchanges=exchanges, strategy="ledger")]
        texts.append(ledger_text(strategy.view(working, UserMessage(text="next"))))
    assert all(later.startswith(earlier) for earlier, later in itertools.pairwise(texts))


def test_a_long_ledger_archives_whole_blocks_and_keeps_the_users_statements() -> None:
    strategy = LedgerStrategy(archive_after=8, block=3)
    assert [strategy.archived(n) for n in (8, 9, 11, 12, 14)] == [0, 3, 3, 6, 6]
    view = strategy.view(ledger_working(), UserMessage(text="solve q^2 = 1"))
    text = ledger_text(view)
    assert "#1 to #6 are archived" in text and "recall" in text
    assert "- My name is Dana and I always want decimals" in text  # from archived #3
    assert "\n#1 " not in text and "#7 differentiate x*sin(x)" in text
    assert len(view) == 1  # a new request refers to no archived line


def test_archived_lines_a_request_refers_to_are_shown_after_the_ledger() -> None:
    strategy = LedgerStrategy(archive_after=8, block=3)
    view = strategy.view(ledger_working(), UserMessage(text="what was question 5 again?"))
    assert isinstance(view[1], RecalledLines) and view[1].numbers == (5,)
    assert "#5 evaluate 2x + 1 at x = 7 -> 15" in view[1].to_chat().content
    assert not unpaired_tool_messages(view)


def test_recalled_lines_come_after_unfolded_tasks_so_the_prompt_start_stays_the_same() -> None:
    # window leaves finished tasks unfolded between folds; the recalled lines change with
    # each request, so they sit after those tasks, just before the open one.
    strategy = WindowStrategy()
    strategy.archive_after, strategy.block = 8, 3
    unfolded = [
        UserMessage(text="solve q^2 = 9"),
        AssistantMessage(text="q = -3, q = 3", task_status="COMPLETED"),
    ]
    asked = UserMessage(text="what was question 5 again?")
    ledger = ledger_working()
    view = strategy.view([*ledger, *unfolded, asked], None)
    assert view[1:3] == unfolded
    assert isinstance(view[3], RecalledLines) and view[3].numbers == (5,)
    assert view[4] is asked
    plain = strategy.view([*ledger, *unfolded, UserMessage(text="solve r^2 = 4")], None)
    assert to_chat_list(plain[:3]) == to_chat_list(view[:3]) and len(plain) == 4


def test_recalled_lines_stay_before_their_task_so_later_prompts_only_append() -> None:
    # Once the task that recalled them is finished (and not folded yet), its recalled lines
    # stay where they were: the next request's prompt starts with the whole previous prompt.
    strategy = WindowStrategy()
    strategy.archive_after, strategy.block = 8, 3
    ledger = ledger_working()
    asked = UserMessage(text="what was question 5 again?")
    before = strategy.view([*ledger, asked], None)
    assert isinstance(before[1], RecalledLines) and before[1].numbers == (5,)
    answered = AssistantMessage(text="Question 5 gave 15.", task_status="COMPLETED")
    after = strategy.view([*ledger, asked, answered, UserMessage(text="solve r^2 = 4")], None)
    assert to_chat_list(after[: len(before)]) == to_chat_list(before)
    assert after[len(before)] is answered and len(after) == len(before) + 2
    # Sizing the next prompt after the turn (no request yet) shows the same lines.
    sized = strategy.view([*ledger, asked, answered], None)
    assert to_chat_list(sized) == to_chat_list(after[:-1])
    # They survive a saved and resumed session, and leave with their task when it is folded.
    resumed = WindowStrategy()
    resumed.archive_after, resumed.block = 8, 3
    resumed.from_state(json.loads(json.dumps(strategy.to_state())))
    assert to_chat_list(resumed.view([*ledger, asked, answered], None)) == to_chat_list(sized)
    lines = [*TASKS, (asked.text, answered.text)]
    exchanges = tuple(SummaryExchangeRecord(question=q, answer=a) for q, a in lines)
    folded = [SummaryMessage(exchanges=exchanges, strategy="window"), UserMessage(text="next")]
    assert not any(isinstance(m, RecalledLines) for m in strategy.view(folded, None))


def test_window_shows_what_it_folded_as_a_ledger() -> None:
    view = WindowStrategy().view(ledger_working(), UserMessage(text="next"))
    assert ledger_text(view).splitlines()[1] == "#1 solve x^2 - 4x - 5 = 0 -> x = -1, x = 5"


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("Hi, I'm Dana and I'm revising for a physics exam; I'll send a few problems.", 2),
        ("Please give every result as a decimal too.", 1),
        ("Keep your answers short, one line each, please.", 1),
        ("solve x^2 = 4", 0),
        ("My third question: solve x^2 - 1 = 0.", 0),
    ],
)
def test_personal_sentences_are_those_about_the_user_without_math(text: str, kept: int) -> None:
    assert len(personal_sentences(text)) == kept


def test_the_notes_of_a_long_archive_keep_the_earliest_and_the_latest_statements() -> None:
    said = [f"I have a friend called {a}{b}." for a in "BDK" for b in "aeiouyln"]
    exchanges = tuple(SummaryExchangeRecord(question=q, answer="Noted.") for q in said)
    strategy = LedgerStrategy(archive_after=8, block=4, notes=6)
    view = strategy.view([SummaryMessage(exchanges=exchanges, strategy="ledger")], None)
    notes = view[0].notes
    # 24 tasks past 8, in blocks of 4: #1-#16 archived (0-based 0..15)
    assert len(notes) == 6 and notes[:2] == tuple(said[:2]) and notes[-1] == said[15]
