"""Context strategies with a scripted model: safety rules, structural, summarize's failures, budget.

The safety rules hold for every strategy: never compact inside an unfinished task, never
separate a tool call from its result, never lose a fact of an answer or tool result, never put
an error text in the history. The end-to-end versions (real BAML client, local server) are in
test_strategies_e2e.py.
"""

from __future__ import annotations

import itertools

import pytest
from baml_py.errors import BamlValidationError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.accounting.prompt_meter import meter
from agent.accounting.tokenizer import count_messages
from agent.context.base import Compaction, CompactionInput
from agent.context.common import (
    checked,
    elide_repeats,
    fold_task,
    history_texts,
    required_facts,
    safety_problems,
)
from agent.context.math_facts import extract_facts, missing_facts
from agent.context.registry import DEFAULT_STRATEGY, STRATEGIES, make_strategy
from agent.context.strategies.budget import BudgetConfig, BudgetStrategy, recalled
from agent.context.strategies.structural import StructuralStrategy
from agent.context.strategies.summarize import SummarizeStrategy
from agent.context.tasks import split_history, unpaired_tool_messages
from agent.core.loop import Agent
from agent.errors import AgentError
from agent.messages import (
    AssistantMessage,
    Message,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    as_openai_dicts,
    to_chat_list,
)
from agent.testing.in_process import InProcessModel
from agent.testing.replies import ask_back, derivative, done, solve, summary

_ids = itertools.count()


# -- histories built by hand ----------------------------------------------------------------


def tool_task(question: str, tool: str, result: str, reply: str, ok: bool = True) -> list[Message]:
    call_id = f"c{next(_ids)}"
    return [
        UserMessage(text=question),
        ToolCall(call_id=call_id, tool=tool, arguments={"expression": question}),
        ToolResultMessage(call_id=call_id, tool=tool, ok=ok, text=result),
        AssistantMessage(text=reply, task_status="COMPLETED"),
    ]


def solve_task(a: int, b: int) -> list[Message]:
    """Solve (x - a)(x - b) = 0, answered with the roots quoted."""
    equation = f"x^2 - {a + b}*x + {a * b} = 0"
    return tool_task(
        f"solve {equation}", "solve", f"x = {a}, x = {b}", f"The roots are x = {a} and x = {b}."
    )


def derivative_task(k: int) -> list[Message]:
    return tool_task(
        f"derivative of {k}*x^2 + {k + 1}*x",
        "derivative",
        f"d/dx ({k}*x**2 + {k + 1}*x) = {2 * k}*x + {k + 1}",
        f"The derivative is {2 * k}*x + {k + 1}.",
    )


def clarified_task() -> list[Message]:
    call_id = f"c{next(_ids)}"
    return [
        UserMessage(text="integrate this"),
        AssistantMessage(text="What should I integrate, and over what?", task_status="PROCESSING"),
        UserMessage(text="x^2 from 0 to 3"),
        ToolCall(call_id=call_id, tool="integral", arguments={"expression": "x^2"}),
        ToolResultMessage(
            call_id=call_id, tool="integral", ok=True, text="∫ from 0 to 3 of x**2 dx = 9"
        ),
        AssistantMessage(text="The integral of x^2 from 0 to 3 is 9.", task_status="COMPLETED"),
    ]


def open_task_with_tool() -> list[Message]:
    """A task whose model asked back after a tool call: unfinished."""
    call_id = f"c{next(_ids)}"
    return [
        UserMessage(text="solve x^2 - 2 = 0 and then integrate"),
        ToolCall(call_id=call_id, tool="solve", arguments={"equation": "x^2 - 2 = 0"}),
        ToolResultMessage(call_id=call_id, tool="solve", ok=True, text="x = -sqrt(2), x = sqrt(2)"),
        AssistantMessage(text="Integrate what, over which interval?", task_status="PROCESSING"),
    ]


def many_tasks(count: int) -> list[Message]:
    history: list[Message] = []
    for i in range(count):
        history += solve_task(i + 1, -(i + 2)) if i % 2 == 0 else derivative_task(i + 1)
    return history


def compact(strategy: object, working: list[Message], trigger: str = "turn_end", model=None):
    model = model or InProcessModel([])
    return strategy.compact(CompactionInput(working=working, trigger=trigger, model=model))


def all_facts_kept(old: list[Message], new: list[Message]) -> bool:
    required = [f for task in split_history(old).finished for f in required_facts(task)]
    return missing_facts(required, history_texts(new)) == []


ALL = ["none", "summarize", "structural", "budget"]  # other strategies have their own tests


# -- the registry ------------------------------------------------------------------------------


def test_registry_has_every_strategy_and_a_known_default() -> None:
    assert {"none", "summarize", "structural", "budget"} <= set(STRATEGIES)
    assert DEFAULT_STRATEGY in STRATEGIES
    for name in STRATEGIES:
        assert make_strategy(name).name == name
    with pytest.raises(ValueError, match="structural"):
        make_strategy("nope")


# -- safety rules, for every strategy ---------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_never_compacts_after_a_turn_that_left_the_task_open(name: str) -> None:
    working = many_tasks(12) + open_task_with_tool()
    model = InProcessModel([], summaries=[summary(("q", "a"))])
    decision = compact(make_strategy(name), working, model=model)
    assert decision.working is None
    assert model.summarized == []


@pytest.mark.parametrize("name", ALL)
def test_manual_compaction_keeps_the_open_task_verbatim_and_pairs_intact(name: str) -> None:
    tail = open_task_with_tool()
    working = many_tasks(12) + tail
    model = InProcessModel(
        [],
        summaries=[
            summary(*[(task[0].text, task[-1].text) for task in split_history(working).finished])
        ],
    )
    decision = compact(make_strategy(name), working, "manual", model)
    if decision.working is None:
        assert name == "none"
        return
    assert decision.working[-len(tail) :] == tail
    assert unpaired_tool_messages(decision.working) == []
    assert all_facts_kept(working, decision.working)


@pytest.mark.parametrize("name", ALL)
def test_loop_with_each_strategy_keeps_pairs_and_never_cuts_a_clarification(name: str) -> None:
    steps = []
    for i in range(6):
        steps += [solve(f"x^2 - {i + 1} = 0"), done(f"Roots of x^2 - {i + 1}: see the tool.")]
    steps += [ask_back("Which function?"), derivative("x^3"), done("3*x**2")]
    summaries = [summary((f"q{i}", f"a{i}")) for i in range(10)]
    model = InProcessModel(steps, summaries=summaries)
    agent = Agent(model, make_strategy(name))
    for i in range(6):
        result = agent.run_turn(f"solve x^2 - {i + 1} = 0")
        assert result.ok
        assert unpaired_tool_messages(agent.session.working) == []
        assert unpaired_tool_messages(agent.strategy.view(agent.session.working, None)) == []
    asked = agent.run_turn("differentiate this")
    assert asked.reply.task_status == "PROCESSING"
    assert asked.compaction is None or not asked.compaction.applied
    assert agent.session.working[-2:][0].text == "differentiate this"
    final = agent.run_turn("x^3")
    assert final.ok and unpaired_tool_messages(agent.session.working) == []
    # Nothing a tool computed is missing from the working history.
    texts = history_texts(agent.session.working)
    for entry in agent.session.transcript.entries:
        if isinstance(entry, ToolResultMessage):
            assert missing_facts(sorted(required_facts([entry])), texts) == []


def test_safety_check_refuses_every_kind_of_damage() -> None:
    old = many_tasks(2) + open_task_with_tool()
    finished = split_history(old).finished
    tail = split_history(old).open_tail
    good = [SummaryMessage(exchanges=tuple(fold_task(t) for t in finished), strategy="t"), *tail]
    assert safety_problems(old, good) == []

    changed_tail = good[:-1]
    assert "open task" in " ".join(safety_problems(old, changed_tail))

    orphan = [good[0], tail[0], tail[2], tail[3]]  # the result without its call
    assert "lost their pair" in " ".join(safety_problems(old, orphan))

    blank = SummaryExchangeRecord(question="q", answer=" ")
    empty_answer = [SummaryMessage(exchanges=(blank,), strategy="t"), *tail]
    assert "empty" in " ".join(safety_problems(old, empty_answer))

    lossy = SummaryExchangeRecord(question=finished[0][0].text, answer="two roots")
    lost = [SummaryMessage(exchanges=(lossy, fold_task(finished[1])), strategy="t"), *tail]
    problems = " ".join(safety_problems(old, lost))
    assert "facts would be lost" in problems and "-2" in problems

    refused = checked(old, lost, "would have compacted")
    assert refused.working is None and refused.failed and "lost" in refused.reason


# -- structural ---------------------------------------------------------------------------------


def test_structural_folds_finished_tasks_without_an_llm() -> None:
    model = InProcessModel([solve("x^2 + 5*x + 6 = 0"), done("The roots are x = -3 and x = -2.")])
    agent = Agent(model, StructuralStrategy())
    result = agent.run_turn("solve x^2 + 5*x + 6 = 0")
    assert result.compaction is not None and result.compaction.applied
    (only,) = agent.session.working
    assert isinstance(only, SummaryMessage) and only.strategy == "structural"
    assert only.exchanges == (
        SummaryExchangeRecord(
            question="solve x^2 + 5*x + 6 = 0",
            answer="The roots are x = -3 and x = -2. [#2]",
            tools=("solve",),
            said=("#1",),  # the person's equation, by the id the workspace gave it
        ),
    )
    assert only.text.endswith(
        "- solve x^2 + 5*x + 6 = 0 [#1] -> The roots are x = -3 and x = -2. [#2]"
    )
    assert model.summarized == [] and model.ledger.count("SummarizeContext") == 0
    kinds = [e.kind for e in agent.session.transcript.entries]
    assert "tool_call" in kinds and "tool_result" in kinds  # the transcript keeps them
    assert agent.session.undo_compaction()
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]


def test_structural_keeps_tool_values_a_vague_answer_left_out() -> None:
    task = tool_task("solve x^2 - 5*x + 6 = 0", "solve", "x = 2, x = 3", "It has two real roots.")
    exchange = fold_task(task)
    assert exchange.answer == "It has two real roots. [solve: x = 2, x = 3]"
    quoted = tool_task("solve x^2 - 1 = 0", "solve", "x = -1, x = 1", "x = -1 and x = 1")
    assert fold_task(quoted).answer == "x = -1 and x = 1"  # nothing repeated
    failed = tool_task("solve x^2 +* = 0", "solve", "Could not read 1 2", "Typo?", ok=False)
    assert fold_task(failed).answer == "Typo?"  # an error is not a value to keep


def test_structural_keeps_the_values_of_a_clarification() -> None:
    exchange = fold_task(clarified_task())
    assert exchange.question == "integrate this / x^2 from 0 to 3"
    # The math the answer copies from the question is said once, on the question's side.
    assert exchange.answer == "The integral of … is 9."


def test_structural_accumulates_summaries_in_order_and_costs_less() -> None:
    strategy = StructuralStrategy()
    working = many_tasks(3)
    first = compact(strategy, working).working
    assert first is not None
    second_round = first + solve_task(7, 8)
    second = compact(strategy, second_round).working
    assert second is not None and len(second) == 1
    questions = [e.question for e in second[0].exchanges]
    assert questions == [t[0].text for t in split_history(working).finished] + [
        "solve x^2 - 15*x + 56 = 0"
    ]
    assert all_facts_kept(working + solve_task(7, 8), second)

    def tokens(history: list[Message]) -> int:
        return count_messages(as_openai_dicts(to_chat_list(history)))

    assert tokens(second) < tokens(working + solve_task(7, 8)) / 2


# -- summarize: every way the summarizer can fail -----------------------------------------------


ROOTS = tool_task(
    "solve x^2 + 5*x + 6 = 0", "solve", "x = -3, x = -2", "The roots are x = -3 and x = -2."
)


def summarize_with(result: object) -> Compaction:
    model = InProcessModel([], summaries=[result])
    return compact(SummarizeStrategy(), list(ROOTS), model=model)


def test_summarize_accepts_a_correct_summary() -> None:
    decision = summarize_with(summary(("solve x^2 + 5*x + 6 = 0", "x = -3, x = -2")))
    assert not decision.failed and decision.working is not None
    assert decision.working[0].exchanges[0].answer == "x = -3, x = -2"


def test_summarizer_exception_keeps_the_history() -> None:
    decision = summarize_with(AgentError("The model endpoint failed (HTTP 500); try again."))
    assert decision.working is None and decision.failed
    assert "HTTP 500" in decision.reason


def test_summarizer_unexpected_exception_keeps_the_history() -> None:
    decision = summarize_with(RuntimeError("bug"))
    assert decision.working is None and decision.failed and "RuntimeError" in decision.reason


@pytest.mark.parametrize(
    ("result", "why"),
    [
        (None, "could not be parsed"),
        (summary(), "no exchanges"),
        (summary(("solve x^2 + 5*x + 6 = 0", "")), "empty"),
        (summary(("solve x^2 + 5*x + 6 = 0", "x = -3 " * 200)), "not shorter"),
        (summary(("solve x^2 + 5*x + 6 = 0", "x = -3")), "dropped 1 fact"),
    ],
)
def test_rejected_summaries_fall_back_to_structural(result: object, why: str) -> None:
    if result is None:  # build the parse failure the way BamlMathModel raises it
        error = AgentError("The model's reply was not a valid tool call or message.")
        error.__cause__ = BamlValidationError("p", "not JSON", "I cannot help", "d")
        result = error
    decision = summarize_with(result)
    assert decision.failed and why in decision.reason
    assert "folded structurally" in decision.reason
    assert decision.working == [
        SummaryMessage(
            exchanges=(fold_task(ROOTS),), strategy="summarize", at=decision.working[0].at
        )
    ]
    texts = " ".join(history_texts(decision.working))
    assert "rejected" not in texts and "error" not in texts.lower()


def test_summarizer_failures_are_recorded_by_the_agent() -> None:
    bad = summary(("solve x^2 + 5*x + 6 = 0", "two roots"))
    model = InProcessModel([solve("x^2 + 5*x + 6 = 0"), done("x = -3, x = -2")], summaries=[bad])
    agent = Agent(model, SummarizeStrategy())
    result = agent.run_turn("solve x^2 + 5*x + 6 = 0")
    assert result.compaction is not None and result.compaction.applied
    assert "summarizer output rejected" in result.compaction.reason
    assert "-3" in agent.session.working[0].text and "-2" in agent.session.working[0].text
    assert model.ledger.count("SummarizeContext") == 1  # its cost is still accounted


# A budget small enough that a few tasks pass it (shared with test_budget.py), counted above
# the system prompt so that a longer prompt does not change what fits.
_SYSTEM = meter().system_tokens
SMALL = BudgetConfig(
    window_tokens=_SYSTEM + 587, reserve_output_tokens=200, target_tokens=_SYSTEM + 187
)


# -- every strategy, on random histories -----------------------------------------------------------


@st.composite
def histories(draw: st.DrawFn) -> list[Message]:
    makers = [
        lambda: solve_task(draw(st.integers(1, 9)), -draw(st.integers(1, 9))),
        lambda: derivative_task(draw(st.integers(1, 20))),
        clarified_task,
        lambda: tool_task("solve x = 1", "solve", "x = 1", "It is one.", ok=True),
    ]
    history: list[Message] = []
    for index in draw(st.lists(st.integers(0, len(makers) - 1), max_size=14)):
        history += makers[index]()
    if draw(st.booleans()):
        history += open_task_with_tool()
    return history


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories(), manual=st.booleans())
def test_structural_and_budget_are_safe_on_any_history(
    history: list[Message], manual: bool
) -> None:
    for strategy in (StructuralStrategy(), BudgetStrategy(SMALL)):
        decision = compact(strategy, history, "manual" if manual else "turn_end")
        if decision.working is None:
            continue
        assert safety_problems(history, decision.working) == []
        tail = split_history(history).open_tail
        assert not tail or manual
        view = strategy.view(decision.working, None)
        assert unpaired_tool_messages(view) == []


def test_recall_ranks_the_most_specific_shared_fact_first() -> None:
    lines = (
        SummaryExchangeRecord(question="solve x^2 - 7*x + 12 = 0", answer="x = 3, x = 4"),
        SummaryExchangeRecord(question="derivative of x^3", answer="3*x**2"),
        SummaryExchangeRecord(question="evaluate x^3 at x = 2", answer="8"),
    )
    focus = ["evaluate x^3 at the roots of x^2 - 7*x + 12 = 0 from earlier"]
    assert recalled(lines, focus, 1) == [0]
    assert recalled(lines, focus, 3) == [0, 2, 1]


def test_structural_folds_a_blank_reply_instead_of_refusing_forever() -> None:
    task = [UserMessage(text="hi"), AssistantMessage(text="  ", task_status="COMPLETED")]
    decision = compact(StructuralStrategy(), task)
    assert decision.working is not None and not decision.failed
    assert decision.working[0].exchanges[0].answer == "(empty)"


@pytest.mark.parametrize(
    ("question", "answer", "line"),
    [
        ("solve x^2 - x - 12 = 0", "The roots of x^2 - x - 12 = 0 are x = -3 and x = 4.",
         "The roots of … are x = -3 and x = 4."),
        ("evaluate 4*x^2 - 8*x - 9 at x = -5", "4*x^2 - 8*x - 9 at x = -5 is 131.", "… is 131."),
        # Never a piece of a longer expression or number: "2 + 6*x +" in "-3*x**2 + 6*x + 6".
        ("differentiate -x^3 + 3*x^2 + 6*x + 1",
         "The derivative of -x^3 + 3*x^2 + 6*x + 1 is -3*x**2 + 6*x + 6.",
         "The derivative of … is -3*x**2 + 6*x + 6."),
        ("evaluate x^2 - 12 at 1", "x^2 - 123 at 1 is -122", "x^2 - 123 at 1 is -122"),
        ("hello there, I'm Dana", "Hello Dana!", "Hello Dana!"),
    ],
)  # fmt: skip
def test_a_line_says_the_questions_math_once(question: str, answer: str, line: str) -> None:
    assert elide_repeats(question, answer) == line
    assert extract_facts(answer) <= extract_facts(f"{question} {line}")


def test_a_result_echoing_the_math_an_id_stood_for_computed_only_its_result() -> None:
    """A call that pointed (`#1`) ran on the math the id stood for; the tool's echo of it
    (`d/dx (x**3 - 2*x) = ...`) is not a computed fact: no fold appends it to the answer,
    and the safety check does not demand it."""
    task = [
        UserMessage(text="differentiate x^3 - 2x"),
        ToolCall(call_id="d", tool="derivative", arguments={"expression": "#1"}),
        ToolResultMessage(
            call_id="d",
            tool="derivative",
            ok=True,
            text="d/dx (x**3 - 2*x) = 3*x**2 - 2",
            item="#2",
            values=("3*x**2 - 2",),
            subject="x**3 - 2*x",
        ),
        AssistantMessage(text="It is 3*x**2 - 2.", task_status="COMPLETED"),
    ]
    assert fold_task(task).answer == "It is 3*x**2 - 2. [#2]"
    assert required_facts(task) == ["3*x**2-2", "3*x**2-2"]
