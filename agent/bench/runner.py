"""Run one scenario with one strategy through the real agent, and measure it.

The real pieces run: `agent.core.loop.Agent`, `agent.llm.model.BamlMathModel` (the generated BAML
client, its prompts and parser, one Collector into the session's ledger), the SymPy tools,
and HTTP to a local `agent.llm.replay` server answering from `responder.BenchResponder`. Token
counts are the server's tokenizer usage as read back through the Collector; retention is
measured on the request bodies the server received.

Agent overhead per LLM step: the wall time of each `run_turn`, minus the time spent inside
LLM calls (the ledger's per-call durations, which cover BAML's rendering, HTTP, the scripted
server and parsing) and inside tools (timed by the injected tool runner), divided by the
turn's MathChat calls. What remains is the loop, the strategy (`view`, `compact` without its
LLM call), rendering to ChatMessages, the session and transcript bookkeeping.

Tool results are memoised by call within the process: every strategy makes the same calls,
SymPy is deterministic, and its time is excluded from every figure anyway.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent import wire
from agent.accounting.prompt_meter import meter
from agent.accounting.tokenizer import count_messages
from agent.bench.prefix import prefix_use
from agent.bench.responder import BenchResponder, is_math_chat, parse_position
from agent.bench.retention_check import BY_RECALL, reached
from agent.bench.scenarios import Scenario, Task
from agent.context.common import required_facts
from agent.context.math_facts import extract_facts, facts_of
from agent.context.registry import make_strategy
from agent.context.tasks import split_history, unpaired_tool_messages
from agent.core.loop import Agent
from agent.core.tool_calls import run_tool
from agent.core.transcript import CompactionRecord
from agent.llm.model import BamlMathModel, ToolStep
from agent.llm.providers import Provider
from agent.llm.replay import ScriptedResponder, serve
from agent.messages import ToolResultMessage
from tools import ToolResult

FLOOR_NOTE = "Facts needed from earlier tasks: "


@dataclass
class RunResult:
    scenario: str
    strategy: str
    input_tokens: int = 0
    output_tokens: int = 0
    summarizer_input_tokens: int = 0
    summarizer_output_tokens: int = 0
    llm_calls: int = 0
    peak_prompt_tokens: int = 0
    retention: float = 1.0
    retained: int = 0
    # Of those, kept only because the model's own `recall` brought what they need back.
    retained_by_recall: int = 0
    recalls: int = 0  # recall calls the model made
    back_references: int = 0
    floor_input_tokens: int = 0
    prompt_series: list[int] = field(default_factory=list)
    floor_series: list[int] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    step_overhead_ms: list[float] = field(default_factory=list)
    compactions: int = 0
    compaction_refusals: int = 0
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # back-references whose facts were missing
    # Memory scenarios: what the probe question's context lacked ([] = all kept; None = n/a).
    memory_missing: list[str] | None = None
    memory_probes: int = 0  # probes of a scenario's "memory" tasks (0: one scenario probe)
    seconds: float = 0.0
    # MathChat prompt tokens that repeat the previous request's start (a prompt cache's share).
    reused_prompt_tokens: int = 0
    chat_prompt_tokens: int = 0
    # Back-references kept, by how far back they point: {"1 back": [kept, total], ...}.
    by_distance: dict[str, list[int]] = field(default_factory=dict)

    @property
    def prefix_reuse(self) -> float:
        return (
            self.reused_prompt_tokens / self.chat_prompt_tokens if self.chat_prompt_tokens else 0.0
        )

    def weighted_input(self, cached_price: float) -> float:
        """Input tokens with the repeated prefix billed at `cached_price` of the full price."""
        return self.input_tokens - self.reused_prompt_tokens * (1.0 - cached_price)

    @property
    def memory(self) -> float | None:
        """Share of memory probes kept (None: the scenario has none)."""
        if self.memory_missing is None:
            return None
        if self.memory_probes:
            return (self.memory_probes - len(self.memory_missing)) / self.memory_probes
        return float(not self.memory_missing)

    @property
    def overhead_median_ms(self) -> float:
        return statistics.median(self.step_overhead_ms) if self.step_overhead_ms else 0.0

    @property
    def overhead_p95_ms(self) -> float:
        values = sorted(self.step_overhead_ms)
        return values[min(len(values) - 1, int(0.95 * len(values)))] if values else 0.0


# -- tools: timed and memoised ----------------------------------------------------------------

_tool_cache: dict[str, ToolResult] = {}
_tool_cache_lock = threading.Lock()
_tool_time = threading.local()


def _tool_seconds() -> float:
    return getattr(_tool_time, "seconds", 0.0)


def timed_tool(step: ToolStep) -> ToolResult:
    """The agent's tool runner here: the real tools, memoised, with a per-thread timer."""
    started = time.perf_counter()
    key = step.model_dump_json()
    with _tool_cache_lock:
        cached = _tool_cache.get(key)
    if cached is None:
        cached = run_tool(step)
        with _tool_cache_lock:
            _tool_cache[key] = cached
    _tool_time.seconds = _tool_seconds() + time.perf_counter() - started
    return cached


# -- measures on the request bodies -------------------------------------------------------------


def context_texts(messages: list[dict[str, Any]], skip_index: int) -> list[str]:
    """What a request shows besides the constant system prompt and the current question."""
    system_text = meter().system_text
    texts = []
    for index, message in enumerate(messages):
        if index == skip_index:
            continue
        content = str(message.get("content") or "")
        if index == 0 and content.startswith(system_text):
            content = content[len(system_text) :]
        texts.append(content)
    return texts


def retention_of(scenario: Scenario, requests: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """Back-referring questions whose needed facts were in the context of their first call
    (scenarios with text needs: or brought back by the model's recall, see `text_retention`)."""
    if scenario.needs_are_text:
        retained, lost, _ = text_retention(scenario, requests)
        return retained, lost
    first_call: dict[str, list[dict[str, Any]]] = {}
    for body in requests:
        messages = body.get("messages") or []
        if not is_math_chat(messages):
            continue
        position = parse_position(messages)
        if position is not None and position.tool_results == 0:
            first_call.setdefault(position.text, messages)
    retained = 0
    lost: list[str] = []
    for task in scenario.back_references:
        messages = first_call.get(task.question)
        if messages is None:
            lost.append(f"{task.question!r}: never asked")
            continue
        position = parse_position(messages)
        assert position is not None
        present = facts_of(context_texts(messages, position.index))
        missing = [fact for fact in task.needs if fact not in present]
        if missing:
            lost.append(f"{task.question!r}: missing {', '.join(missing)}")
        else:
            retained += 1
    return retained, lost


def text_retention(
    scenario: Scenario, requests: list[dict[str, Any]]
) -> tuple[int, list[str], int]:
    """The independent check (`retention_check`) for scenarios whose needs are texts:
    (kept, what was lost, how many of the kept were reached by a recall)."""
    retained = by_recall = 0
    lost: list[str] = []
    for task in scenario.back_references:
        missing, how = reached(task.question, task.needs, requests)
        if missing is None:
            lost.append(f"{task.question!r}: never asked")
        elif missing:
            lost.append(f"{task.question!r}: missing {', '.join(missing)}")
        else:
            retained += 1
            by_recall += how == BY_RECALL
    return retained, lost, by_recall


def distance_label(scenario: Scenario, task: Task) -> str:
    """How far back a back-reference points, in tasks: "1 back", "2 back" or "3+ back"."""
    if task.refers_to is None:
        return "unknown"
    distance = scenario.tasks.index(task) - task.refers_to
    return f"{distance} back" if distance < 3 else "3+ back"


def lost_questions(scenario: Scenario, lost: list[str]) -> set[str]:
    """The back-referring questions that `lost` (entries `'question': why`) names; read by
    prefix, since a question can hold a colon itself."""
    return {
        task.question
        for task in scenario.back_references
        if any(entry.startswith(f"{task.question!r}:") for entry in lost)
    }


def kept_by_distance(scenario: Scenario, lost: list[str]) -> dict[str, list[int]]:
    """{category: [kept, total]} over the scenario's back-references: the wording category
    for phrased scenarios, else how far back the reference points."""
    missing = lost_questions(scenario, lost)
    table: dict[str, list[int]] = {}
    for task in scenario.back_references:
        label = task.kind if scenario.needs_are_text else distance_label(scenario, task)
        row = table.setdefault(label, [0, 0])
        row[1] += 1
        row[0] += task.question not in missing
    return table


def floor_of(tasks: dict[str, Task], messages: list[dict[str, Any]]) -> int:
    """The least any strategy could send for this call: system prompt and schema, the current
    task's own messages so far, and one line with the facts it needs from earlier tasks.

    `tasks` maps each user text of the scenario to its task (see `tasks_by_text`).
    """
    position = parse_position(messages)
    task = tasks.get(position.text) if position is not None else None
    if task is None:
        return count_messages(messages)
    start = max(
        (
            i
            for i, m in enumerate(messages)
            if wire.request_of(str(m.get("content", ""))) == task.question
        ),
        default=0,
    )
    system = meter().system_text
    if task.needs:
        system += " " + FLOOR_NOTE + ", ".join(task.needs)
    return count_messages([{"role": "system", "content": system}, *messages[max(start, 1) :]])


def tasks_by_text(scenario: Scenario) -> dict[str, Task]:
    return {turn.text: task for task in scenario.tasks for turn in task.turns}


# -- one run ---------------------------------------------------------------------------------------


def run_scenario(
    scenario: Scenario,
    strategy: str,
    user_facts: dict[str, str] | None = None,
    memory_probe: Callable[[list[dict[str, Any]]], list[str]] | None = None,
) -> RunResult:
    """Play `scenario` with `strategy` against a fresh local scripted server (`user_facts`:
    the scripted ExtractUserFacts replies of a memory scenario, for `+facts` strategies;
    `memory_probe`: what the probe question's context lacked, from the requests sent)."""
    result = RunResult(scenario.name, strategy, back_references=len(scenario.back_references))
    responder = BenchResponder(scenario, user_facts)
    began = time.perf_counter()
    with serve(ScriptedResponder(responder)) as server:
        provider = Provider("bench", server.base_url, "bench", None, "bench", retries=False)
        model = BamlMathModel(provider.client_registry(), provider.base_url)
        agent = Agent(model, make_strategy(strategy), tool_runner=timed_tool)
        for task in scenario.tasks:
            for turn in task.turns:
                _play_turn(agent, task, turn.text, turn.replies[-1], result)
        requests = list(server.requests)
    result.seconds = time.perf_counter() - began
    if responder.misses:
        result.errors.append(
            f"{len(responder.misses)} script miss(es), first {responder.misses[0]}"
        )
    _account(result, agent, scenario, requests)
    if memory_probe is not None:
        result.memory_missing = memory_probe(requests)
    return result


def _play_turn(agent: Agent, task: Task, text: str, expected: str, result: RunResult) -> None:
    ledger = agent.model.ledger
    calls_before = len(ledger.calls)
    tools_before = _tool_seconds()
    started = time.perf_counter()
    turn = agent.run_turn(text)
    wall = time.perf_counter() - started
    new_calls = ledger.calls[calls_before:]
    llm = sum(c.duration_ms for c in new_calls) / 1000
    steps = sum(1 for c in new_calls if c.function == "MathChat") or 1
    tool_time = _tool_seconds() - tools_before
    result.step_overhead_ms.append(max(0.0, wall - llm - tool_time) * 1000 / steps)

    if not turn.ok or turn.reply is None:
        result.errors.append(f"{text!r}: {turn.error}")
        return
    if turn.reply.text != json.loads(expected)["response"]:
        result.errors.append(f"{text!r}: unexpected reply {turn.reply.text!r}")
    working = agent.session.working
    if unpaired_tool_messages(working) or unpaired_tool_messages(
        agent.strategy.view(working, None)
    ):
        result.errors.append(f"{text!r}: a tool call or result lost its pair")
    record = turn.compaction
    if record is not None and record.applied and turn.reply.task_status != "COMPLETED":
        result.errors.append(f"{text!r}: compacted in the middle of a task")
    if turn.reply.task_status == "COMPLETED":
        # The script's answers must quote what the real tools computed (else the benchmark,
        # not a strategy, would be losing facts).
        finished = split_history(working).finished
        if finished and finished[-1][-1] is turn.reply:
            missing = set(required_facts(finished[-1])) - extract_facts(turn.reply.text)
            if missing:
                result.errors.append(f"{text!r}: answer does not quote tool value(s) {missing}")


def _account(result: RunResult, agent: Agent, scenario: Scenario, requests: list[dict]) -> None:
    ledger = agent.model.ledger
    result.input_tokens, result.output_tokens = ledger.totals()
    result.summarizer_input_tokens, result.summarizer_output_tokens = ledger.totals(
        "SummarizeContext"
    )
    result.llm_calls = ledger.count()
    result.calls = [
        {"function": c.function, "input_tokens": c.input_tokens, "output_tokens": c.output_tokens}
        for c in ledger.calls
    ]
    result.prompt_series = [c.input_tokens for c in ledger.calls if c.function == "MathChat"]
    result.peak_prompt_tokens = max(result.prompt_series, default=0)
    chat_requests = [r for r in requests if is_math_chat(r.get("messages") or [])]
    reuse = prefix_use([r["messages"] for r in chat_requests])
    result.chat_prompt_tokens, result.reused_prompt_tokens = (
        reuse.prompt_tokens,
        reuse.reused_tokens,
    )
    tasks = tasks_by_text(scenario)
    result.floor_series = [floor_of(tasks, r["messages"]) for r in chat_requests]
    result.floor_input_tokens = sum(result.floor_series)
    server_count = sum(count_messages(r.get("messages") or []) for r in requests)
    if server_count != result.input_tokens:
        result.errors.append(
            f"ledger input tokens {result.input_tokens} != server count {server_count}"
        )
    if scenario.needs_are_text:
        result.retained, lost, result.retained_by_recall = text_retention(scenario, requests)
    else:
        result.retained, lost = retention_of(scenario, requests)
    result.recalls = sum(
        1
        for m in agent.session.conversation()
        if isinstance(m, ToolResultMessage) and m.tool == wire.RECALL_TOOL
    )
    result.by_distance = kept_by_distance(scenario, lost)
    if result.back_references:
        result.retention = result.retained / result.back_references
    result.lost = lost
    probes = [task for task in scenario.back_references if task.kind == "memory"]
    if probes:
        missing = lost_questions(scenario, lost)
        result.memory_probes = len(probes)
        result.memory_missing = [t.question for t in probes if t.question in missing]
    for entry in agent.session.transcript.entries:
        if isinstance(entry, CompactionRecord):
            if entry.applied:
                result.compactions += 1
            else:
                result.compaction_refusals += 1
