"""One user turn: MathChat -> tool -> result -> MathChat ... -> MessageToUser.

The loop knows neither which provider answers nor which context strategy runs: it asks the
strategy for the context of each call and to compact after the turn. A failed or cancelled
turn rolls the working context back to where it was, so no half-appended tool call survives;
the transcript keeps what happened and why.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from baml_py import AbortController

from agent import wire
from agent.context.base import Compaction, CompactionInput, ContextStrategy, Trigger
from agent.core.equation_index import equation_index
from agent.core.grounding import (
    miscalculations,
    stated_numbers,
    ungrounded_reason,
    unverified_numbers,
)
from agent.core.plain_math import plain_math
from agent.core.recall import recall
from agent.core.referent_fit import (
    CHECKED_TOOLS,
    ignored_polynomial,
    left_out_roots,
    value_call,
)
from agent.core.referents import bind
from agent.core.session import Session
from agent.core.tool_calls import run_tool, tool_arguments
from agent.core.tool_fit import (
    asks_for_arithmetic,
    misfit_reason,
    order_reason,
    request_words,
    speaks_of_derivative,
    untooled_reason,
    variable_fix,
    variable_reason,
)
from agent.core.transcript import CompactionRecord, ErrorRecord
from agent.errors import AgentError, TurnCancelled
from agent.llm.model import MathModel, ProgressObserver, ToolStep
from agent.messages import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat_list,
)
from baml_client.types import ChatMessage, MessageToUser, TaskRecall
from tools import ToolResult

DEFAULT_MAX_TOOL_STEPS = 8
# Chat math is short and each tool reads at most 2,000 characters; a pasted megabyte would be
# re-sent to the model, re-counted and re-saved on every later turn.
MAX_MESSAGE_CHARS = 20_000


class CancelToken:
    """Set from another thread (Ctrl-C); aborts the LLM call in flight."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.abort_controller = AbortController()

    def cancel(self) -> None:
        self._event.set()
        self.abort_controller.abort()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass
class TurnResult:
    reply: AssistantMessage | None
    tool_runs: list[tuple[ToolCall, ToolResultMessage]] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    llm_calls: int = 0
    compaction: CompactionRecord | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.reply is not None


ToolObserver = Callable[[ToolCall, ToolResultMessage], None]
# Runs a model's tool call; injected so a benchmark can time or memoise the tools.
ToolRunner = Callable[[ToolStep], ToolResult]
# Called after every tool step (False) and when a turn or a manual change is done (True),
# so a store can commit each completed step.
CheckpointHook = Callable[[bool], None]


@dataclass(frozen=True)
class SmallModelAids:
    """What the loop adds for a model too small to be trusted alone (a 1.5B one); all off
    for hosted models, which pay for none of it."""

    # Ask once per turn to compute with a tool the numbers an answer states that no tool
    # computed: small models do arithmetic by themselves.
    verify_answers: bool = False
    # Question once a derivative or integral call the request's words never asked for (and
    # an evaluate call where they ask for one): small models mix tools up.
    check_tool_fit: bool = False
    # Show the equations solved so far, labelled first/last/cubic, with the request: small
    # models cannot count back through a long history ("the first equation").
    index_equations: bool = False
    # Fold every finished task but the latest after a turn: small models answer "add them
    # up" from the task as it happened, and miss it in its one-line fold.
    keep_latest_task: bool = False

    @classmethod
    def every(cls) -> SmallModelAids:
        return cls(
            verify_answers=True, check_tool_fit=True, index_equations=True, keep_latest_task=True
        )


def _with_index(context: list[Message], user: UserMessage, index: str | None) -> list[ChatMessage]:
    """The context rendered for the model, the open request shown after `index` (if any)."""
    chat = to_chat_list(context)
    if index is None:
        return chat
    for position, message in enumerate(context):
        if message is user:
            text = wire.with_equation_index(index, user.text)
            chat[position] = ChatMessage(role=wire.USER, content=text)
    return chat


class Agent:
    def __init__(
        self,
        model: MathModel,
        strategy: ContextStrategy,
        session: Session | None = None,
        max_tool_steps: int = DEFAULT_MAX_TOOL_STEPS,
        compaction_enabled: bool = True,
        on_checkpoint: CheckpointHook | None = None,
        tool_runner: ToolRunner = run_tool,
        aids: SmallModelAids = SmallModelAids(),
    ) -> None:
        self.model = model
        self.aids = aids
        self.strategy = strategy
        self.session = session if session is not None else Session()
        self.max_tool_steps = max_tool_steps
        self.compaction_enabled = compaction_enabled
        self.on_checkpoint = on_checkpoint
        self.tool_runner = tool_runner

    def checkpoint(self, turn_complete: bool = True) -> None:
        if self.on_checkpoint is not None:
            self.on_checkpoint(turn_complete)

    def run_turn(
        self,
        text: str,
        cancel: CancelToken | None = None,
        on_tool: ToolObserver | None = None,
        on_progress: ProgressObserver | None = None,
    ) -> TurnResult:
        """Answer one user message; never raises for LLM or tool failures. `on_tool` sees
        each tool run, `on_progress` each MathChat reply as it streams in."""
        cancel = cancel or CancelToken()
        if len(text) > MAX_MESSAGE_CHARS:
            return self._refuse(text)
        turn = self.model.ledger.begin_turn()
        calls_before = self.model.ledger.count()
        start_length = len(self.session.working)
        user = UserMessage(text=text)
        self.session.append(user)
        result = TurnResult(reply=None)
        try:
            # e.g. FactsMemory: ExtractUserFacts, one LLM call; it never raises.
            self.strategy.observe_user_message(user, self.model)
            if cancel.cancelled:
                raise TurnCancelled()
            result.reply = self._steps(user, cancel, result, on_tool, on_progress)
        except AgentError as exc:
            self._fail(start_length, result, exc.message)
        except KeyboardInterrupt:
            self._fail(start_length, result, TurnCancelled().message)
        except Exception as exc:  # a bug of ours must not cost the user the conversation
            self._fail(start_length, result, f"Internal error ({type(exc).__name__}: {exc}).")
        if result.reply is not None and self.compaction_enabled:
            result.compaction = self.compact("turn_end")
        result.input_tokens, result.output_tokens = self.model.ledger.totals(turn=turn)
        result.llm_calls = self.model.ledger.count() - calls_before
        try:
            self.checkpoint(turn_complete=True)
        except Exception as exc:  # the turn is done; a failed save must not undo that
            self.session.record(ErrorRecord(text=f"Saving failed ({type(exc).__name__})."))
        return result

    def _refuse(self, text: str) -> TurnResult:
        """A message too long to send: say so; the transcript keeps its start."""
        message = (
            f"That message is {len(text):,} characters long; the limit is "
            f"{MAX_MESSAGE_CHARS:,}, so it was not sent: paste only the math."
        )
        self.session.record(UserMessage(text=text[:500] + " … (cut)"))
        self.session.record(ErrorRecord(text=message))
        return TurnResult(reply=None, error=message)

    def _fail(self, start_length: int, result: TurnResult, message: str) -> None:
        """Roll the working context back to the start of the turn; the transcript keeps all."""
        self.session.rollback(start_length)
        self.session.record(ErrorRecord(text=message))
        result.error = message
        result.reply = None
        result.tool_runs.clear()

    def _steps(
        self,
        user: UserMessage,
        cancel: CancelToken,
        result: TurnResult,
        on_tool: ToolObserver | None,
        on_progress: ProgressObserver | None,
    ) -> AssistantMessage:
        made: set[str] = set()
        questioned: set[str] = set()
        answer_now = checked = echo_sent = False
        # Messages sent after the history for one step only (never kept): a request to compute
        # what the last answer stated without a tool.
        follow_up: list[ChatMessage] = []
        # Built once per turn, so every call of the turn shares the prompt up to the request.
        index = (
            equation_index(self.session.conversation(), user.text)
            if self.aids.index_equations
            else None
        )
        while len(result.tool_runs) < self.max_tool_steps:
            if cancel.cancelled:
                raise TurnCancelled()
            context = self.strategy.view(self.session.working, user)
            chat = _with_index(context, user, index) + follow_up
            step = self.model.next_step(
                chat, cancel.abort_controller, on_progress, answer_only=answer_now
            )
            saved = self.session.uncompacted_tokens - self.session.history_tokens(context)
            self.model.ledger.history_tokens_saved += saved
            if cancel.cancelled:
                raise TurnCancelled()
            if isinstance(step, MessageToUser):
                reply = AssistantMessage(
                    text=plain_math(step.response), task_status=step.task_status
                )
                if questioned and not echo_sent and wire.ECHOED_CHECK in reply.text.lower():
                    echo_sent = True  # once per turn: act on the question, do not repeat it
                    request = ChatMessage(role=wire.USER, content=wire.echoed_check_request())
                    follow_up = [reply.to_chat(), request]
                    answer_now = False
                    continue
                doubt = (
                    None
                    if checked or not self.aids.verify_answers
                    else self._unverified(reply, user, result)
                )
                checked = True
                if doubt is not None:  # once per turn: compute it with a tool (tools allowed)
                    request = ChatMessage(role=wire.USER, content=doubt)
                    follow_up = [reply.to_chat(), request]
                    answer_now = False
                    continue
                self.session.append(reply)
                return reply
            follow_up = []
            call = ToolCall(
                call_id=uuid.uuid4().hex[:12], tool=step.tool, arguments=tool_arguments(step)
            )
            resent = call.call_text in questioned  # sent again after a question: it runs
            if resent:
                call, step = self._with_variable_fixed(call, step, user)
            # A small model that repeats a call it already made would loop to the step cap:
            # the call is not run again and the model is asked for its answer instead.
            if call.call_text in made:
                if answer_now:  # asked once already, and it still calls: stop here
                    break
                answer_now = True
                continue
            misfit = None if resent else self._misfit(call, user, result)
            if misfit is not None:  # once per call: the same call sent again runs
                questioned.add(call.call_text)
                follow_up = [call.to_chat(), ChatMessage(role=wire.USER, content=misfit)]
                continue
            made.add(call.call_text)
            tool_result = self._run(call, step)
            self.session.append(call)
            self.session.append(tool_result)
            result.tool_runs.append((call, tool_result))
            self.checkpoint(turn_complete=False)
            if on_tool is not None:
                on_tool(call, tool_result)
        reply = AssistantMessage(
            text=(
                f"I stopped after {len(result.tool_runs)} tool steps without a final answer; "
                "say 'continue' to let me go on, or rephrase the request."
            ),
            task_status="PROCESSING",
        )
        self.session.append(reply)
        return reply

    def _with_variable_fixed(
        self, call: ToolCall, step: ToolStep | TaskRecall, user: UserMessage
    ) -> tuple[ToolCall, ToolStep | TaskRecall]:
        """A calculus call sent again in a letter its math lacks runs in the math's letter
        (`tool_fit.variable_fix`); any other call sent again runs as sent."""
        request = request_words(user, self.session.conversation())
        fixed = variable_fix(call.tool, call.arguments, request)
        if fixed is None or isinstance(step, TaskRecall):
            return call, step
        step = step.model_copy(
            update={k: v for k, v in fixed.items() if k in type(step).model_fields}
        )
        return ToolCall(call_id=call.call_id, tool=call.tool, arguments=tool_arguments(step)), step

    def _misfit(self, call: ToolCall, user: UserMessage, result: TurnResult) -> str | None:
        """Why `call` contradicts what the request asks, when that check is on."""
        if not self.aids.check_tool_fit:
            return None
        conversation = self.session.conversation()
        request = request_words(user, conversation)
        tools_run = [c.tool for c, _ in result.tool_runs]
        misfit = misfit_reason(call.tool, request, tools_run)
        if misfit is None and call.tool == "derivative":
            misfit = order_reason(call.arguments, request, tools_run)
        if misfit is None and call.tool in CHECKED_TOOLS:
            bindings = bind(user.text, conversation)  # read once for both checks
            if call.tool == "evaluate" and "evaluate" not in tools_run:
                at = call.arguments.get("at") or []
                math = " ".join([str(call.arguments.get("expression") or ""), *map(str, at)])
                misfit = left_out_roots(bindings, math)
            if misfit is None:
                done = [r.text for _, r in result.tool_runs if r.ok]
                misfit = ignored_polynomial(
                    bindings, call.tool, call.arguments, done, speaks_of_derivative(request)
                )
        return misfit or variable_reason(call.tool, call.arguments, request)

    def _unverified(
        self, reply: AssistantMessage, user: UserMessage, result: TurnResult
    ) -> str | None:
        """Why a finished answer needs a tool first, as the sentence sent back, or None.

        Numbers it states that no tool computed: ones the chat never held, results of
        arithmetic it writes out wrongly, and, when the request asks for arithmetic and no
        tool ran this turn, every number the request did not write (the chat's coefficients
        made "their product is 24" look computed when it was -24). Then, with no tool run, a
        request that asks for a computation, or an answer that copies a tool's record."""
        if reply.task_status != "COMPLETED":
            return None
        conversation = self.session.conversation()
        stated = unverified_numbers(reply.text, conversation)
        stated += [n for n in miscalculations(reply.text) if n not in stated]
        if not stated and not result.tool_runs and asks_for_arithmetic(user.text):
            stated = stated_numbers(reply.text, user.text)
        if stated:
            doubt: str | None = wire.unverified_request(stated)
        elif result.tool_runs:
            return None
        else:
            doubt = untooled_reason(reply.text, request_words(user, conversation))
        if doubt is not None and not result.tool_runs:
            # "f(4) for the cubic from before" answered by hand: the call its words fix
            call = value_call(bind(user.text, conversation))
            if call is not None:
                doubt += f" Send this call: {call}"
        return doubt

    def _run(self, call: ToolCall, step: ToolStep | TaskRecall) -> ToolResultMessage:
        """The outcome of one tool call: a search of earlier tasks, or math (if grounded)."""
        # The whole conversation, not just the view: what a strategy keeps out of the prompt
        # is still searchable, and still grounds a call on it.
        conversation = self.session.conversation()
        if isinstance(step, TaskRecall):
            found = recall(conversation, step.query)
            return ToolResultMessage(call_id=call.call_id, tool=call.tool, ok=True, text=found)
        refusal = ungrounded_reason(step, conversation)
        if refusal is not None:
            return ToolResultMessage(call_id=call.call_id, tool=call.tool, ok=False, text=refusal)
        outcome = self.tool_runner(step)
        return ToolResultMessage(
            call_id=call.call_id, tool=call.tool, ok=outcome.ok, text=outcome.text
        )

    def compact(self, trigger: Trigger) -> CompactionRecord | None:
        """Ask the strategy to compact; record what it did (or, when asked by hand, why not)."""
        try:
            decision = self.strategy.compact(
                CompactionInput(
                    working=list(self.session.working),
                    trigger=trigger,
                    model=self.model,
                    keep_latest_task=self.aids.keep_latest_task,
                )
            )
        except Exception as exc:  # a faulty strategy keeps the history, never ends the turn
            decision = Compaction(None, f"strategy error, history kept: {exc}", failed=True)
        if decision.working is not None:
            return self.session.apply_compaction(
                decision.working, self.strategy.name, decision.reason, decision.failed
            )
        if trigger == "manual" or decision.failed:
            record = CompactionRecord(
                strategy=self.strategy.name,
                applied=False,
                messages_before=len(self.session.working),
                messages_after=len(self.session.working),
                tokens_before=0,
                tokens_after=0,
                reason=decision.reason,
                failed=decision.failed,
            )
            self.session.record(record)
            return record
        return None
