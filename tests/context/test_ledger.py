"""The `ledger` strategy: every finished task one numbered line, archived in blocks when long.

Which earlier result a request means is not read from its words here (the workspace gives
the model ids to point at), so the view depends on the history alone, never on the request.
"""

from __future__ import annotations

import itertools

from agent.accounting.prompt_meter import meter
from agent.context.base import CompactionInput
from agent.context.strategies.ledger import LedgerStrategy, LedgerView
from agent.context.strategies.window import WindowStrategy
from agent.messages import (
    AssistantMessage,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat_list,
)
from agent.testing.in_process import InProcessModel

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


def ledger_working() -> list:
    exchanges = tuple(SummaryExchangeRecord(question=q, answer=a) for q, a in TASKS)
    return [SummaryMessage(exchanges=exchanges, strategy="ledger")]


def ledger_text(view: list) -> str:
    assert isinstance(view[0], LedgerView)
    return view[0].to_chat().content


def test_the_ledger_shows_every_line_numbered_in_order() -> None:
    view = LedgerStrategy().view(ledger_working(), UserMessage(text="anything at all"))
    lines = ledger_text(view).splitlines()[1:]
    assert lines == [f"{n}. {q} -> {a}" for n, (q, a) in enumerate(TASKS, 1)]
    assert len(view) == 1


def test_the_view_does_not_depend_on_the_request_words() -> None:
    strategy = LedgerStrategy(archive_after=8, block=3)
    views = [
        to_chat_list(strategy.view(ledger_working(), UserMessage(text=text)))
        for text in ("what was question 5 again?", "the first one", "solve q^2 = 1")
    ]
    assert views[0] == views[1] == views[2]


def test_the_ledger_only_grows_at_its_end_so_prompts_share_their_start() -> None:
    strategy = LedgerStrategy()
    texts = []
    for count in range(1, len(TASKS) + 1):
        exchanges = tuple(SummaryExchangeRecord(question=q, answer=a) for q, a in TASKS[:count])
        working = [SummaryMessage(exchanges=exchanges, strategy="ledger")]
        texts.append(ledger_text(strategy.view(working, UserMessage(text="next"))))
    assert all(later.startswith(earlier) for earlier, later in itertools.pairwise(texts))


def test_a_long_ledger_archives_whole_blocks_and_says_recall_finds_them() -> None:
    strategy = LedgerStrategy(archive_after=8, block=3)
    assert [strategy.archived(["x"] * n) for n in (8, 9, 11, 12, 14)] == [0, 3, 3, 6, 6]
    view = strategy.view(ledger_working(), UserMessage(text="solve q^2 = 1"))
    text = ledger_text(view)
    assert "tasks up to 6 are archived" in text and '"task N"' in text
    assert "\n1. " not in text and "\n7. differentiate x*sin(x)" in text
    # what the person said about themselves (no math, no tool) stays, numbered
    assert "\n3. My name is Dana and I always want decimals -> Noted, Dana.\n7. " in text
    assert len(view) == 1


def test_statements_of_the_person_stay_in_view_whatever_is_archived() -> None:
    """Structural, not a list of phrases: a line whose task ran no tool and wrote no math is
    what the person said of themselves; the first and newest few of them are kept."""
    said = ["I'm Lena, a chemistry student", "thanks!", "answers as decimals please", "ok",
            "I moved to the physics course", "call me Len"]  # fmt: skip
    exchanges = []
    for n, text in enumerate(said):
        exchanges.append(SummaryExchangeRecord(question=text, answer="Noted."))
        exchanges.append(
            SummaryExchangeRecord(question=f"solve x^2 = {n + 1}", answer="x", tools=("solve",))
        )
    exchanges += [
        SummaryExchangeRecord(question=f"evaluate x at x = {n}", answer=str(n), tools=("evaluate",))
        for n in range(30)
    ]
    working = [SummaryMessage(exchanges=tuple(exchanges), strategy="ledger")]
    text = ledger_text(LedgerStrategy(archive_after=8, block=4).view(working, None))
    kept = [line for line in text.splitlines() if line.endswith("-> Noted.")]
    assert kept == [f"{n}. {t} -> Noted." for n, t in ((1, said[0]), (3, said[1]), (5, said[2]),
                                                        (7, said[3]), (9, said[4]), (11, said[5]))]  # fmt: skip
    assert "solve x^2" not in text  # the math around them is archived
    more = [*exchanges[:12], SummaryExchangeRecord(question="I am in year two", answer="Noted."),
            *exchanges[12:]]  # fmt: skip
    text = ledger_text(LedgerStrategy(archive_after=8, block=4).view(
        [SummaryMessage(exchanges=tuple(more), strategy="ledger")], None))  # fmt: skip
    kept = [
        line.split(". ", 1)[1].removesuffix(" -> Noted.")
        for line in text.splitlines()
        if line.endswith("-> Noted.")
    ]
    assert kept == [said[0], said[1], said[2], said[4], said[5], "I am in year two"]


def test_a_token_budget_archives_whole_blocks_until_the_shown_lines_fit() -> None:
    strategy = LedgerStrategy(block=2, max_tokens=40)
    short, long = "1. solve x = 1 -> x = 1", "2. " + " + ".join(f"x^{n}" for n in range(40))
    assert strategy.archived([short] * 3) == 0
    assert meter().text(long) > 40
    assert strategy.archived([short, short, long]) == 3  # nothing fits: all archived
    lines = [short] * 12
    fits = max(n for n in range(13) if sum(meter().text(x) for x in lines[-n:]) <= 40)
    archived = strategy.archived(lines)
    assert archived % 2 == 0 and len(lines) - archived <= fits < len(lines) - archived + 2


def test_with_a_token_budget_the_archived_count_only_grows() -> None:
    strategy = LedgerStrategy(block=3, max_tokens=60)
    lines = [f"{n}. {q} -> {a}" for n, (q, a) in enumerate(TASKS * 3, 1)]
    counts = [strategy.archived(lines[:n]) for n in range(1, len(lines) + 1)]
    assert counts == sorted(counts) and counts[-1] > 0
    assert all(c % 3 == 0 for c in counts)


def test_window_keeps_its_ledger_under_an_eighth_of_the_fold_budget() -> None:
    exchanges = tuple(
        SummaryExchangeRecord(question=f"{q} (round {r})", answer=a)
        for r in range(4)
        for q, a in TASKS
    )
    strategy = WindowStrategy(fold_at_tokens=1600)
    view = strategy.view([SummaryMessage(exchanges=exchanges, strategy="window")], None)
    shown = ledger_text(view).splitlines()[2:]
    assert 0 < len(shown) < len(exchanges)
    assert sum(meter().text(line) for line in shown) <= 1600 // 8
    assert shown[-1].startswith(f"{len(exchanges)}. ")


def test_unfolded_tasks_and_the_open_one_follow_the_ledger_untouched() -> None:
    unfolded = [
        UserMessage(text="solve q^2 = 9"),
        AssistantMessage(text="q = -3, q = 3", task_status="COMPLETED"),
    ]
    asked = UserMessage(text="next")
    view = WindowStrategy().view([*ledger_working(), *unfolded, asked], asked)
    assert view[1:] == [*unfolded, asked]


def test_window_shows_what_it_folded_as_a_ledger() -> None:
    view = WindowStrategy().view(ledger_working(), UserMessage(text="next"))
    assert ledger_text(view).splitlines()[1] == "1. solve x^2 - 4x - 5 = 0 -> x = -1, x = 5"


def test_a_folded_line_points_to_the_workspace_ids_of_its_results() -> None:
    task = [
        UserMessage(text="solve x^2 - 4 = 0"),
        ToolCall(call_id="c1", tool="solve", arguments={"equation": "#1"}),
        ToolResultMessage(
            call_id="c1", tool="solve", ok=True, text="x = -2, x = 2", item="#2", values=("-2", "2")
        ),
        AssistantMessage(text="The roots are x = -2 and x = 2.", task_status="COMPLETED"),
    ]
    folded = LedgerStrategy().compact(
        CompactionInput(working=task, trigger="manual", model=InProcessModel([]))
    )
    assert folded.working is not None
    line = ledger_text(LedgerStrategy().view(folded.working, None))
    assert line.endswith("-> The roots are x = -2 and x = 2. [#2]")
