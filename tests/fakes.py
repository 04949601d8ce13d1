"""A scripted stand-in for the LLM, for unit tests of the loop and strategies.

End-to-end tests use the real BAML client against a local server instead (test_e2e.py);
these fakes keep loop tests fast and make every step explicit.
"""

from __future__ import annotations

from collections.abc import Sequence

from baml_py import AbortController

from agent.accounting.ledger import UsageLedger
from agent.errors import AgentError
from agent.llm.model import ProgressObserver, Step
from baml_client.types import (
    ChatMessage,
    ContextSummary,
    MessageToUser,
    QuadraticDerivative,
    QuadraticEvaluator,
    QuadraticSolver,
    SummaryExchange,
    TaskStatus,
)


def solve(equation: str) -> QuadraticSolver:
    return QuadraticSolver(tool="solve", equation=equation)


def derivative(expression: str, order: int | None = None) -> QuadraticDerivative:
    return QuadraticDerivative(tool="derivative", expression=expression, order=order)


def evaluate(expression: str, *at: str) -> QuadraticEvaluator:
    return QuadraticEvaluator(tool="evaluate", expression=expression, at=list(at))


def done(text: str) -> MessageToUser:
    return MessageToUser(tool="message_to_user", response=text, task_status=TaskStatus.COMPLETED)


def ask_back(text: str) -> MessageToUser:
    return MessageToUser(tool="message_to_user", response=text, task_status=TaskStatus.PROCESSING)


def summary(*pairs: tuple[str, str]) -> ContextSummary:
    return ContextSummary(exchanges=[SummaryExchange(question=q, answer=a) for q, a in pairs])


class ScriptedModel:
    """Returns the scripted steps in order; records every context it was shown."""

    def __init__(
        self,
        steps: Sequence[Step | Exception],
        summaries: Sequence[ContextSummary | Exception] = (),
    ) -> None:
        self.steps = list(steps)
        self.summaries = list(summaries)
        self.seen: list[list[ChatMessage]] = []
        self.summarized: list[list[ChatMessage]] = []
        self.ledger = UsageLedger()

    def next_step(
        self,
        messages: list[ChatMessage],
        abort: AbortController | None = None,
        on_progress: ProgressObserver | None = None,
    ) -> Step:
        self.seen.append(list(messages))
        self.ledger.add("MathChat", sum(len(m.content) for m in messages), 10, 1.0)
        if not self.steps:
            raise AgentError("script exhausted")
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        return step

    def summarize(self, messages: list[ChatMessage]) -> ContextSummary:
        self.summarized.append(list(messages))
        self.ledger.add("SummarizeContext", sum(len(m.content) for m in messages), 20, 1.0)
        if not self.summaries:
            raise AgentError("no summary scripted")
        result = self.summaries.pop(0)
        if isinstance(result, Exception):
            raise result
        return result
