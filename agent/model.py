"""The two LLM functions the agent uses, behind a small protocol.

`BamlMathModel` calls the generated BAML client with the session's ClientRegistry (which
endpoint) and its single Collector (what it cost): every call, the summarizer's included,
lands in the session's `UsageLedger`. Tests and the benchmark use the same class against a
local replay or scripted server, so the real prompts and parser always run.
"""

from __future__ import annotations

import time
from typing import Protocol

from baml_py import AbortController, ClientRegistry, Collector

from agent.errors import explain_llm_error
from agent.usage import UsageLedger
from baml_client import b
from baml_client.types import (
    ChatMessage,
    ContextSummary,
    IntegralSolver,
    MessageToUser,
    QuadraticDerivative,
    QuadraticEvaluator,
    QuadraticSolver,
    UserFactChanges,
)

ToolStep = QuadraticSolver | QuadraticDerivative | QuadraticEvaluator | IntegralSolver
Step = ToolStep | MessageToUser


class MathModel(Protocol):
    ledger: UsageLedger

    def next_step(self, messages: list[ChatMessage], abort: AbortController | None = None) -> Step:
        """MathChat: the next tool call or message for this history."""
        ...

    def summarize(self, messages: list[ChatMessage]) -> ContextSummary:
        """SummarizeContext: terse question/answer pairs for finished tasks."""
        ...

    def extract_user_facts(self, known: list[str], message: str) -> UserFactChanges:
        """ExtractUserFacts: add/update/forget operations on the user's durable facts."""
        ...


class BamlMathModel:
    """MathChat, SummarizeContext and ExtractUserFacts through one ClientRegistry and one
    Collector."""

    def __init__(self, registry: ClientRegistry, endpoint: str, ledger: UsageLedger | None = None):
        self.collector = Collector(name="math-agent")
        self.ledger = ledger if ledger is not None else UsageLedger()
        self.endpoint = endpoint
        self._client = b.with_options(client_registry=registry, collector=self.collector)

    def _record(self, function: str, started: float, logs_before: int) -> None:
        """Add the call to the ledger; a call that never reached the endpoint has no log."""
        duration_ms = (time.perf_counter() - started) * 1000
        if len(self.collector.logs) == logs_before:
            self.ledger.add(function, 0, 0, duration_ms)
            return
        log = self.collector.last
        usage = log.usage if log is not None else None
        self.ledger.add(
            function,
            (usage.input_tokens or 0) if usage is not None else 0,
            (usage.output_tokens or 0) if usage is not None else 0,
            duration_ms,
        )

    def next_step(self, messages: list[ChatMessage], abort: AbortController | None = None) -> Step:
        started, logs_before = time.perf_counter(), len(self.collector.logs)
        options = {"abort_controller": abort} if abort is not None else {}
        try:
            return self._client.MathChat(messages, baml_options=options)
        except Exception as exc:
            raise explain_llm_error(exc, self.endpoint) from exc
        finally:
            self._record("MathChat", started, logs_before)

    def summarize(self, messages: list[ChatMessage]) -> ContextSummary:
        started, logs_before = time.perf_counter(), len(self.collector.logs)
        try:
            return self._client.SummarizeContext(messages)
        except Exception as exc:
            raise explain_llm_error(exc, self.endpoint) from exc
        finally:
            self._record("SummarizeContext", started, logs_before)

    def extract_user_facts(self, known: list[str], message: str) -> UserFactChanges:
        started, logs_before = time.perf_counter(), len(self.collector.logs)
        try:
            return self._client.ExtractUserFacts(known, message)
        except Exception as exc:
            raise explain_llm_error(exc, self.endpoint) from exc
        finally:
            self._record("ExtractUserFacts", started, logs_before)
