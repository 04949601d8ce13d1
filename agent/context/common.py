"""What every strategy shares: the structural fold and the safety check.

Each strategy proposes a new working history; `checked` accepts it only if nothing breaks and
nothing is lost, so a bug in one strategy becomes a recorded refusal instead of a damaged
conversation:

- the open task (everything after the last COMPLETED answer) is kept exactly, at the end;
- every tool call still has its result and every result its call;
- every summary holds at least one exchange with a question and an answer (never an empty or
  error text);
- every fact (number, root, expression) of the final answers and tool results of the tasks it
  replaces is still stated somewhere in the new history.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

from agent import wire
from agent.context.base import Compaction
from agent.context.math_facts import extract_facts, facts_of, missing_facts
from agent.context.tasks import HistorySplit, final_answer, split_history, unpaired_tool_messages
from agent.messages import (
    Message,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat,
    written_call,
)
from agent.workspace.record import Workspace

# User messages of one task are joined with this, so a clarification's values stay attached.
QUESTION_JOIN = " / "
MAX_LISTED_FACTS = 5
EMPTY_TEXT = "(empty)"


def history_texts(messages: Iterable[Message]) -> list[str]:
    return [text for m in messages for text in m.fact_texts()]


def _computed(task: list[Message]) -> list[tuple[ToolResultMessage, frozenset[str]]]:
    """Each successful tool result with the facts it computed (not those its call gave it).

    A tool result echoes its input ("x**2 at x = -3 = 9"); only the computed part ("9") is
    new information a later question could need.
    """
    calls = {m.call_id: m for m in task if isinstance(m, ToolCall)}
    found = []
    for message in task:
        if not isinstance(message, ToolResultMessage) or not message.ok:
            continue
        if message.tool == wire.RECALL_TOOL:  # earlier tasks' lines: they have their own
            continue
        call = calls.get(message.call_id)
        # What the call gave it: its math as run (not only as the model reads it back, which
        # may be ids) and the math the tool read once ids were resolved.
        given = extract_facts(message.subject)
        if call is not None:
            given |= extract_facts(to_chat(call).content)
            given |= extract_facts(written_call(call.tool, call.arguments))
        found.append((message, extract_facts(message.text) - given))
    return found


def tool_value_facts(task: list[Message]) -> list[str]:
    """Facts a task's successful tools computed."""
    return [fact for _, facts in _computed(task) for fact in sorted(facts)]


def required_facts(task: list[Message]) -> list[str]:
    """What a compacted form of `task` must still state: its answer's and tools' facts."""
    answer = final_answer(task)
    facts = sorted(extract_facts(answer.text)) if answer is not None else []
    # A summary can only sit inside a task if something other than a strategy put it there;
    # its facts count too, so a fold that would drop it is refused rather than lossy.
    inner = [f for m in task if isinstance(m, SummaryMessage) for f in facts_of(m.fact_texts())]
    return [*facts, *tool_value_facts(task), *sorted(inner)]


def task_question(task: list[Message]) -> str:
    return QUESTION_JOIN.join(m.text for m in task if isinstance(m, UserMessage))


# A stretch of the answer that repeats the question's math this long or longer is elided.
MIN_ELIDED_CHARS = 8
ELISION = "…"
_MATH_CHAR = re.compile(r"[0-9^*/=]")


def elide_repeats(question: str, answer: str) -> str:
    """The answer without the stretches of math it copies from the question ("The roots of
    x^2 - 1 = 0 are ..." -> "The roots of … are ..."): the line states them once already, and
    every fact, and every text a later reference could quote, is still on it."""
    for _ in range(4):
        match = SequenceMatcher(None, question, answer, autojunk=False).find_longest_match()
        raw = answer[match.b : match.b + match.size]
        copied = raw.strip(" ,.;:")
        if len(copied) < MIN_ELIDED_CHARS or not _MATH_CHAR.search(copied):
            break
        start = match.b + raw.index(copied)
        end = start + len(copied)
        at = match.a + raw.index(copied)
        cuts_a_word = (at > 0 and question[at - 1].isalnum()) or question[
            at + len(copied) : at + len(copied) + 1
        ].isalnum()
        if cuts_a_word or not _whole(answer, start, end):
            break
        answer = answer[:start] + ELISION + answer[end:]
    return answer


_OPERATORS = "+-*/^=(),"


def _whole(text: str, start: int, end: int) -> bool:
    """Is text[start:end] a whole piece of math there: not part of a longer word, number or
    expression ("2 + 6*x" inside "-3*x**2 + 6*x + 6" is not)?"""
    span = text[start:end]
    if span[0] in "+*/^=)," or span[-1] in _OPERATORS.replace(")", ""):
        return False
    before, after = text[:start], text[end:]
    if before and (before[-1].isalnum() or before.rstrip()[-1:] in tuple(_OPERATORS)):
        return False
    return not (after and (after[0].isalnum() or after.lstrip()[:1] in tuple(_OPERATORS)))


def fold_task(task: list[Message], workspace: Workspace | None = None) -> SummaryExchangeRecord:
    """A finished task as one question/answer line, without any LLM.

    The question is every user message of the task (a clarification's values included); the
    answer is the final answer as the model wrote it, plus the exact values of any successful
    tool result the answer did not quote, so a vague answer cannot lose a computed value.
    """
    answer = final_answer(task)
    answer_text = answer.text.strip() if answer is not None else ""
    stated = extract_facts(answer_text)
    computed = _computed(task)
    extras = [f"{m.tool}: {m.text}" for m, facts in computed if facts - stated]
    if extras:
        answer_text = f"{answer_text} [{'; '.join(extras)}]" if answer_text else "; ".join(extras)
    question = task_question(task)
    answer_text = elide_repeats(question, answer_text)
    ids = [m.item for m in task if isinstance(m, ToolResultMessage) and m.item]
    if ids:  # the workspace items it made: what a later request points at
        answer_text = f"{answer_text} [{', '.join(ids)}]"
    # A blank reply still gets a line (else the safety check would refuse every compaction).
    tools = tuple(dict.fromkeys(m.tool for m, _ in computed))
    said = workspace.said_in([m for m in task if isinstance(m, UserMessage)]) if workspace else ()
    return SummaryExchangeRecord(
        question=question or EMPTY_TEXT, answer=answer_text or EMPTY_TEXT, tools=tools, said=said
    )


def merged_summary(
    summaries: list[SummaryMessage], new: Iterable[SummaryExchangeRecord], strategy: str
) -> SummaryMessage:
    """One leading summary: the exchanges already summarised, then the new ones, in order."""
    carried = [e for s in summaries for e in s.exchanges]
    return SummaryMessage(exchanges=(*carried, *new), strategy=strategy)


def structural_history(
    split: HistorySplit, strategy: str, keep_last: int = 0, workspace: Workspace | None = None
) -> list[Message]:
    """Fold every finished task except the last `keep_last` into the leading summary (with
    `workspace`, each line also gives the ids of the math the person wrote in it)."""
    cut = len(split.finished) - keep_last
    folded = [fold_task(task, workspace) for task in split.finished[:cut]]
    kept = [m for task in split.finished[cut:] for m in task]
    return [merged_summary(split.summaries, folded, strategy), *kept, *split.open_tail]


def safety_problems(old: list[Message], new: list[Message]) -> list[str]:
    """Why `new` may not replace `old` (an empty list: it may)."""
    problems: list[str] = []
    before = split_history(old)
    tail = before.open_tail
    if tail and (len(new) < len(tail) or new[len(new) - len(tail) :] != tail):
        problems.append("the open task was changed")
    if unpaired := unpaired_tool_messages(new):
        problems.append(f"{len(unpaired)} tool call(s)/result(s) lost their pair")
    for message in new:
        if isinstance(message, SummaryMessage) and (
            not message.exchanges
            or any(not e.question.strip() or not e.answer.strip() for e in message.exchanges)
        ):
            problems.append("a summary has an empty question or answer")
            break
    required: list[str] = []
    for task in before.finished:
        required.extend(required_facts(task))
    for summary in before.summaries:
        required.extend(f for e in summary.exchanges for f in sorted(extract_facts(e.answer)))
    if missing := missing_facts(required, history_texts(new)):
        shown = ", ".join(missing[:MAX_LISTED_FACTS])
        more = (
            f" and {len(missing) - MAX_LISTED_FACTS} more"
            if len(missing) > MAX_LISTED_FACTS
            else ""
        )
        problems.append(f"facts would be lost: {shown}{more}")
    return problems


def checked(
    old: list[Message], new: list[Message], reason: str, failed: bool = False
) -> Compaction:
    """`new` if it passes the safety check, else keep `old` and say why (failed=True)."""
    problems = safety_problems(old, new)
    if problems:
        return Compaction(None, f"compaction refused, history kept: {'; '.join(problems)}", True)
    return Compaction(new, reason, failed)


def unfinished_reason(split: HistorySplit, trigger: str) -> str | None:
    """Why not to compact now: mid-task after a turn, or nothing finished to compact."""
    if split.open_tail and trigger == "turn_end":
        return "the current task is not finished"
    if not split.finished:
        return "no finished task to compact"
    return None


def latest_request(working: list[Message], incoming: UserMessage | None) -> str | None:
    """The request a view is built for: the incoming message, else the last user message."""
    if incoming is not None:
        return incoming.text
    users = [m for m in working if isinstance(m, UserMessage)]
    return users[-1].text if users else None
