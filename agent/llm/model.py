"""The two LLM functions the agent uses, behind a small protocol.

`BamlMathModel` calls the generated BAML client with the session's ClientRegistry (which
endpoint) and its single Collector (what it cost): every call, the summarizer's included,
lands in the session's `UsageLedger`. Tests and the benchmark use the same class against a
local replay or scripted server, so the real prompts and parser always run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from baml_py import AbortController, ClientRegistry, Collector

from agent import wire
from agent.accounting.ledger import UsageLedger
from agent.accounting.tokenizer import count_messages, count_text
from agent.errors import MalformedReply, explain_llm_error
from agent.llm.providers import Provider
from agent.llm.salvage import misplaced_response, names_a_math_tool
from agent.llm.step_schema import WANTED_KINDS, Wanted
from agent.llm.token_choices import TokenChoice, choices_from_chunks
from baml_client import b
from baml_client.types import (
    ChatMessage,
    ContextSummary,
    ExtremaFinder,
    IntegralSolver,
    LimitFinder,
    MessageToUser,
    QuadraticDerivative,
    QuadraticEvaluator,
    QuadraticSolver,
    Rewriter,
    SeriesExpansion,
    SystemSolver,
    TangentLine,
    TaskRecall,
    UserFactChanges,
)

T = TypeVar("T")

# The ledger's name for a MathChat call that re-asks after a reply that did not parse: the
# count of these is the share of replies that failed to parse (`math-agent eval`, /tokens).
REPAIR_FUNCTION = "MathChat repair"
# A MathChat client per kind of reply wanted and per round: (wanted, True) is the repair round.
StepKind = tuple[Wanted, bool]
STEP_KINDS: tuple[StepKind, ...] = tuple(
    (wanted, repair) for wanted in WANTED_KINDS for repair in (False, True)
)

# A math tool call, run by `agent.core.tool_calls` with SymPy.
ToolStep = (
    QuadraticSolver
    | SystemSolver
    | QuadraticDerivative
    | QuadraticEvaluator
    | IntegralSolver
    | ExtremaFinder
    | TangentLine
    | Rewriter
    | LimitFinder
    | SeriesExpansion
)
# What MathChat can answer: a math tool call, a search of earlier tasks, or a message.
Step = ToolStep | TaskRecall | MessageToUser


@dataclass(frozen=True)
class AnswerBegun:
    """The model began a message to the user and was stopped there (`next_step`'s
    `decide_only`): the loop writes the answer from the turn's results. Decoding an answer
    that restates a tool's result costs a small CPU model several seconds; deciding that
    the request needs no further call costs it a few tokens."""

    begun: str


@dataclass(frozen=True)
class StepProgress:
    """What has been decoded so far of a MathChat reply, while it streams in.

    `tool` is the union member once its literal is decoded ("message_to_user", "solve", ...);
    `response` the answer text so far (a message_to_user writes it first, before its literal);
    `arguments` a tool call's fields so far. The REPL shows the answer as it grows and which
    tool is being called.
    """

    tool: str | None
    response: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)

    @property
    def answering(self) -> bool:
        """Answer text has begun. `response` is a message's first field, so it streams before
        the `tool` literal is decoded (only a message has a `response`)."""
        return bool(self.response) and self.tool in (None, "message_to_user")


ProgressObserver = Callable[[StepProgress], None]


def progress_of(partial: Any) -> StepProgress:
    """A BAML partial (any member of the streamed union, fields None until decoded)."""
    fields = partial.model_dump() if hasattr(partial, "model_dump") else {}
    tool = fields.pop("tool", None)
    response = fields.pop("response", None) or ""
    fields.pop("task_status", None)
    arguments = {k: v for k, v in fields.items() if v not in (None, "", [])}
    return StepProgress(tool=tool, response=str(response), arguments=arguments)


class MathModel(Protocol):
    ledger: UsageLedger

    def next_step(
        self,
        messages: list[ChatMessage],
        abort: AbortController | None = None,
        on_progress: ProgressObserver | None = None,
        wanted: Wanted = "any",
        decide_only: bool = False,
    ) -> Step | AnswerBegun:
        """MathChat: the next tool call or message for this history (streamed to
        `on_progress` as it is decoded, when given); `wanted`: the kind of reply the loop
        needs now (any, a message to the user, a math tool call); `decide_only`: a message
        is cut as soon as it begins (`AnswerBegun`), since the loop will write it."""
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

    def __init__(
        self,
        registry: ClientRegistry,
        endpoint: str,
        ledger: UsageLedger | None = None,
        step_registries: dict[StepKind, ClientRegistry | None] | None = None,
    ):
        self.collector = Collector(name="math-agent")
        self.ledger = ledger if ledger is not None else UsageLedger()
        # The token probabilities of the last MathChat reply, where the endpoint sent them;
        # read only when the provider asks for them (`for_provider`, `use_provider`).
        self.token_choices: tuple[TokenChoice, ...] = ()
        self.reads_token_choices = False
        self.use_endpoint(registry, endpoint, step_registries)

    @classmethod
    def for_provider(cls, provider: Provider, ledger: UsageLedger | None = None) -> BamlMathModel:
        """The model for a resolved provider: MathChat with the provider's step options
        (a schema that constrains decoding, where the endpoint takes one)."""
        model = cls(
            provider.client_registry(), provider.endpoint, ledger, _step_registries(provider)
        )
        model.reads_token_choices = token_choices_asked(provider)
        return model

    def use_provider(self, provider: Provider) -> None:
        """Talk to another endpoint from now on (a restarted local server has a new port);
        the ledger and collector carry on."""
        self.use_endpoint(provider.client_registry(), provider.endpoint, _step_registries(provider))
        self.reads_token_choices = token_choices_asked(provider)

    def use_endpoint(
        self,
        registry: ClientRegistry,
        endpoint: str,
        step_registries: dict[StepKind, ClientRegistry | None] | None = None,
    ) -> None:
        self.endpoint = endpoint
        self._client = b.with_options(client_registry=registry, collector=self.collector)
        # MathChat's own clients, per kind of reply wanted and round (first or repair): the
        # same endpoint, plus per-request options only it takes (a schema of that kind).
        registries = step_registries or {}
        step_client = self._with(registries.get(("any", False))) or self._client
        self._step_clients: dict[StepKind, Any] = {
            kind: self._with(registries.get(kind)) or step_client for kind in STEP_KINDS
        }
        # Which clients hold the reply to a schema (the embedded model's repair round).
        self._held = {kind: registries.get(kind) is not None for kind in STEP_KINDS}

    def _with(self, registry: ClientRegistry | None) -> Any:
        if registry is None:
            return None
        return b.with_options(client_registry=registry, collector=self.collector)

    def _last_log_id(self) -> str | None:
        log = self.collector.last
        return log.id if log is not None else None

    def _call(
        self,
        function: str,
        call: Callable[[], T],
        estimate: Callable[[T], tuple[int, int]] | None = None,
    ) -> T:
        """Run one BAML call: failures become one-sentence AgentErrors, usage goes to the
        ledger (a call that never reached the endpoint leaves no new log: zero tokens).
        `estimate` counts a completed call's tokens offline when the endpoint reported none
        (hosted APIs send no usage on a stream unless asked in a way their non-streaming
        endpoint refuses)."""
        started, last_before = time.perf_counter(), self._last_log_id()
        result: T | None = None
        try:
            result = call()
            return result
        except Exception as exc:
            raise explain_llm_error(exc, self.endpoint) from exc
        finally:
            duration_ms = (time.perf_counter() - started) * 1000
            log = self.collector.last
            usage = log.usage if log is not None and log.id != last_before else None
            tokens_in = (usage.input_tokens or 0) if usage is not None else 0
            tokens_out = (usage.output_tokens or 0) if usage is not None else 0
            cached = (usage.cached_input_tokens or 0) if usage is not None else 0
            reported = bool(tokens_in)
            if not tokens_in and result is not None and estimate is not None:
                tokens_in, tokens_out = estimate(result)
            self.ledger.add(function, tokens_in, tokens_out, duration_ms, cached, reported)

    def next_step(
        self,
        messages: list[ChatMessage],
        abort: AbortController | None = None,
        on_progress: ProgressObserver | None = None,
        wanted: Wanted = "any",
        decide_only: bool = False,
    ) -> Step | AnswerBegun:
        """One repair round: a reply that does not parse goes back to the model with a request
        to answer again (these two messages are not kept in the history), or, where only the
        repair round is held to the schema, the same request is asked again held; a second
        bad reply is the user's one-sentence error. `wanted` "answer": the loop wants the
        answer now (the model repeated a call): it is asked to; "tool": a math tool call (the loop has
        asked for it). Where decoding is constrained the model can only write that kind.
        `decide_only`: a message is cut where it begins (`AnswerBegun`)."""
        if wanted == "answer":
            messages = [*messages, ChatMessage(role=wire.USER, content=wire.ANSWER_NOW)]
        try:
            return self._next_step(messages, abort, on_progress, wanted=wanted, cut=decide_only)
        except MalformedReply as bad:
            if (meant := misplaced_response(bad.raw)) is not None:
                return meant  # a tool call with its math under `response`: no round needed
            # A reply that names a math tool is shown and asked again held to a tool call
            # (where held), to be written as it meant. A reply that may be anything is asked
            # the same again held to the schema where only the repair round is held (shown
            # its bad reply, a small model says it again, now valid: a refusal for a
            # greeting); any other is shown its reply.
            kind: Wanted = "tool" if wanted == "any" and names_a_math_tool(bad.raw) else wanted
            ask_again = (
                kind == wanted == "any"
                and self._held[(kind, True)]
                and not self._held[(kind, False)]
            )
            repair = (
                messages
                if ask_again
                else [
                    *messages,
                    ChatMessage(
                        role=wire.ASSISTANT,
                        content=bad.raw[: wire.REPAIR_QUOTE_CHARS] or wire.EMPTY_REPLY,
                    ),
                    ChatMessage(role=wire.USER, content=wire.REPAIR_REQUEST),
                ]
            )
            try:
                return self._next_step(
                    repair, abort, on_progress, REPAIR_FUNCTION, kind, repairing=True
                )
            except MalformedReply as again:  # the repair round's reply may be such a call too
                if (meant := misplaced_response(again.raw)) is not None:
                    return meant
                raise

    def _next_step(
        self,
        messages: list[ChatMessage],
        abort: AbortController | None,
        on_progress: ProgressObserver | None,
        function: str = "MathChat",
        wanted: Wanted = "any",
        cut: bool = False,
        repairing: bool = False,
    ) -> Step | AnswerBegun:
        self.token_choices = ()
        if cut and abort is None:
            abort = AbortController()
        options = {"abort_controller": abort} if abort is not None else {}
        client = self._step_clients[(wanted, repairing)]
        if on_progress is None and not cut:
            step = self._call(function, lambda: client.MathChat(messages, baml_options=options))
            self.token_choices = self._choices_of_last_call()
            return step

        def streamed() -> Step | AnswerBegun:
            stream = client.stream.MathChat(messages, baml_options=options)
            last: StepProgress | None = None
            for partial in stream:
                progress = progress_of(partial)
                if cut and progress.answering and abort is not None:
                    abort.abort()  # the server stops decoding when the request goes away
                    return AnswerBegun(progress.response)
                if progress != last and on_progress is not None:
                    on_progress(progress)
                    last = progress
            return stream.get_final_response()

        def estimate(step: Step | AnswerBegun) -> tuple[int, int]:
            body = client.request.MathChat(messages).body.json()
            written = step.begun if isinstance(step, AnswerBegun) else step.model_dump_json()
            return count_messages(body.get("messages") or []), count_text(written)

        step = self._call(function, streamed, estimate)
        if not isinstance(step, AnswerBegun):
            self.token_choices = self._choices_of_last_call()
        return step

    def _choices_of_last_call(self) -> tuple[TokenChoice, ...]:
        """The token probabilities the endpoint returned with the reply that was used (none
        when it was not asked for them, or its body is not JSON: they are only a hint)."""
        if not self.reads_token_choices:
            return ()
        log = self.collector.last
        call = log.selected_call if log is not None else None
        if call is None:
            return ()
        try:
            events = call.sse_responses() if hasattr(call, "sse_responses") else None
            if events:
                bodies = [body for e in events if isinstance(body := e.json(), dict)]
                return choices_from_chunks(bodies)
            response = call.http_response
            body = response.body.json() if response is not None else None
        except Exception:  # a body or event that is not JSON
            return ()
        return choices_from_chunks([body]) if isinstance(body, dict) else ()

    def request_body(self, messages: list[ChatMessage]) -> dict[str, Any]:
        """The chat request MathChat would send for `messages`; nothing is sent."""
        body: dict[str, Any] = (
            self._step_clients[("any", False)].request.MathChat(messages).body.json()
        )
        return body

    def summarize(self, messages: list[ChatMessage]) -> ContextSummary:
        return self._call("SummarizeContext", lambda: self._client.SummarizeContext(messages))

    def extract_user_facts(self, known: list[str], message: str) -> UserFactChanges:
        return self._call("ExtractUserFacts", lambda: self._client.ExtractUserFacts(known, message))


def token_choices_asked(provider: Provider) -> bool:
    """Whether the provider's requests ask for token probabilities."""
    return bool(provider.request_fields.get("logprobs"))


def _step_registries(provider: Provider) -> dict[StepKind, ClientRegistry | None]:
    return {
        (wanted, repair): provider.step_registry(wanted, repair) for wanted, repair in STEP_KINDS
    }
