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
from agent.core.grounding import (
    is_number,
    miscalculations,
    note_is_grounded,
    ungrounded_reason,
    unverified_numbers,
    unwritten_values,
)
from agent.core.joint_solve import joint_note, joint_system
from agent.core.plain_math import plain_math
from agent.core.recall import recall
from agent.core.session import Session
from agent.core.tool_calls import as_run, run_tool, tool_arguments
from agent.core.transcript import CompactionRecord, ErrorRecord
from agent.core.unknowns import unknown_refusal
from agent.core.variable_fit import fitted_variable, foreign_point, foreign_variable
from agent.errors import AgentError, TurnCancelled
from agent.llm.model import AnswerBegun, MathModel, ProgressObserver, ToolStep
from agent.llm.step_schema import Wanted
from agent.messages import (
    AssistantMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from agent.workspace.pointing import pointed_arguments
from agent.workspace.record import Workspace, build
from agent.workspace.resolve import ReferenceProblem, resolve_arguments
from agent.workspace.results import result_values
from agent.workspace.said_once import said_once
from agent.workspace.shown import shown_chat
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

    def next_call(self) -> AbortController:
        """A controller of the LLM call about to start: its own, since a call may also be cut
        alone (`decide_only`), and aborted with the turn."""
        self.abort_controller = AbortController()
        if self.cancelled:
            self.abort_controller.abort()
        return self.abort_controller

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
    # What kind of failure `error` is (agent.errors.AgentError.kind, "internal",
    # "message_too_long"), for programs; None when the turn succeeded.
    error_kind: str | None = None

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
    for hosted models, which pay for none of it. Each reads math, never the request's words."""

    # Ask once per turn to compute with a tool the numbers an answer states that no tool
    # computed (small models do arithmetic by themselves); an answer that still states such
    # numbers after that gives way to the turn's tool results.
    verify_answers: bool = False
    # A derivative or integral call in a letter its math lacks runs in the math's one letter
    # (computed as a constant it would answer 0).
    fit_variable: bool = False
    # Fold every finished task but the latest after a turn: small models answer "add them
    # up" from the task as it happened, and miss it in its one-line fold.
    keep_latest_task: bool = False
    # After a math result, the model only decides whether the request needs another call;
    # the answer is the turn's results with their ids, written by code (a CPU model spends
    # seconds restating a result, and sometimes restates it wrongly).
    answer_from_results: bool = False

    @classmethod
    def every(cls) -> SmallModelAids:
        return cls(
            verify_answers=True,
            fit_variable=True,
            keep_latest_task=True,
            answer_from_results=True,
        )


def _held_to_tool(runs: list[tuple[ToolCall, ToolResultMessage]]) -> str | None:
    """The answer the turn's successful tool results give, in order, each with its id: what
    a small model's answer is replaced by when it still states numbers no tool computed after
    it was asked once to compute them ("4 - 5*12 = -52" after the tool said 4), and the
    answer itself when the model only decides (`SmallModelAids.answer_from_results`)."""
    results = [f"{ran.text} ({ran.item})" for _call, ran in runs if ran.ok and ran.item]
    return "; ".join(dict.fromkeys(results)) or None


def _decides_only(aids: SmallModelAids, runs: list[tuple[ToolCall, ToolResultMessage]]) -> bool:
    """After a math result (not an error, not a recall) the next reply only decides."""
    return aids.answer_from_results and bool(runs) and runs[-1][1].item is not None


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
            self._fail(start_length, result, exc.message, exc.kind)
        except KeyboardInterrupt:
            self._fail(start_length, result, TurnCancelled().message, TurnCancelled.kind)
        except Exception as exc:  # a bug of ours must not cost the user the conversation
            error = f"Internal error ({type(exc).__name__}: {exc})."
            self._fail(start_length, result, error, "internal")
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
        return TurnResult(reply=None, error=message, error_kind="message_too_long")

    def _fail(self, start_length: int, result: TurnResult, message: str, kind: str) -> None:
        """Roll the working context back to the start of the turn; the transcript keeps all."""
        self.session.rollback(start_length)
        self.session.record(ErrorRecord(text=message))
        result.error = message
        result.error_kind = kind
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
        asked = False
        # The reply the next step must be: a message when the model repeats a call, a math
        # tool call when its answer stated numbers no tool computed (once each per turn).
        wanted: Wanted = "any"
        # Messages sent after the history for one step only (never kept): a request to compute
        # what the last answer stated without a tool.
        follow_up: list[ChatMessage] = []
        conversation = self.session.conversation()
        workspace = build(conversation)
        # The person's new equations and expressions in this message: an answer to them needs
        # a tool's result (a definition alone may just be noted).
        new = workspace.added_by(len(conversation) - 1)
        fresh = [i.id for i in new if i.kind != "function"]
        while len(result.tool_runs) < self.max_tool_steps:
            if cancel.cancelled:
                raise TurnCancelled()
            context = self.strategy.view(self.session.working, user)
            chat = shown_chat(context, self.session.conversation(), workspace) + follow_up
            decide = _decides_only(self.aids, result.tool_runs) and wanted == "any"
            step = self.model.next_step(
                chat, cancel.next_call(), on_progress, wanted=wanted, decide_only=decide
            )
            saved = self.session.uncompacted_tokens - self.session.history_tokens(context)
            self.model.ledger.history_tokens_saved += saved
            if cancel.cancelled:
                raise TurnCancelled()
            if isinstance(step, AnswerBegun):  # decided: the request needs no other call
                text = _held_to_tool(result.tool_runs) or step.begun
                reply = AssistantMessage(text=text, task_status="COMPLETED")
                self.session.append(reply)
                return reply
            if isinstance(step, MessageToUser):
                note = (step.note or "").strip()
                reply = AssistantMessage(
                    text=workspace.without_unknown_citations(plain_math(step.response)),
                    task_status=step.task_status,
                    note=note if note and note_is_grounded(note, self._task_text()) else None,
                )
                doubt = None
                if self.aids.verify_answers:
                    doubt = self._unverified(reply, fresh if not result.tool_runs else [])
                if doubt is not None and not asked:  # once per turn: held to a tool call
                    asked = True
                    request = ChatMessage(role=wire.USER, content=doubt)
                    follow_up = [reply.to_chat(), request]
                    wanted = "tool"
                    continue
                if doubt is not None and (held := _held_to_tool(result.tool_runs)) is not None:
                    reply = reply.model_copy(update={"text": held})
                self.session.append(reply)
                return reply
            follow_up = []
            if wanted == "tool":
                wanted = "any"
            step = as_run(step)
            call = ToolCall(
                call_id=uuid.uuid4().hex[:12], tool=step.tool, arguments=tool_arguments(step)
            )
            # A small model that repeats a call it already made would loop to the step cap:
            # the call is not run again and the model is asked for its answer instead.
            if call.call_text in made:
                if self.aids.answer_from_results and (text := _held_to_tool(result.tool_runs)):
                    reply = AssistantMessage(text=text, task_status="COMPLETED")
                    self.session.append(reply)
                    return reply
                if wanted == "answer":  # asked once already, and it still calls: stop here
                    break
                wanted = "answer"
                continue
            made.add(call.call_text)
            if (once := said_once(call.tool, call.arguments, workspace)) != call.arguments:
                call = call.model_copy(update={"arguments": once})
                fields = type(step).model_fields
                step = step.model_copy(update={k: v for k, v in once.items() if k in fields})
            call, step, unsaid = self._unsaid_bounds(call, step, workspace)
            tool_result = self._run(call, step, user, workspace)
            joint = self._joint_solution(result.tool_runs, tool_result)
            if note := joint or (unsaid if tool_result.ok else None):
                tool_result = tool_result.model_copy(
                    update={"text": f"{tool_result.text} ({note})"}
                )
            if (pointed := pointed_arguments(call.tool, call.arguments, workspace)) is not None:
                call = call.model_copy(update={"pointed": pointed})
            self.session.append(call)
            self.session.append(tool_result)
            if tool_result.item is not None:
                workspace = build(self.session.conversation())
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

    def _joint_solution(
        self, runs: list[tuple[ToolCall, ToolResultMessage]], ran: ToolResultMessage
    ) -> str | None:
        """What a solve adds when it and the request's earlier solves fix their unknowns
        together (`core/joint_solve`); None otherwise. Only a solve has one, and a solve has
        no bounds to leave out, so a result gets at most one of the two notes."""
        system = joint_system([earlier for _call, earlier in runs], ran)
        return joint_note(system, self.tool_runner(system)) if system is not None else None

    def _unverified(self, reply: AssistantMessage, untooled: list[str]) -> str | None:
        """The sentence sent back once when a finished answer states numbers no tool computed
        (ones the chat never held, or arithmetic it writes out wrongly), or answers new math
        (`untooled`: its ids) that no tool worked on; else None."""
        if reply.task_status != "COMPLETED":
            return None
        if untooled:
            return wire.untooled_request(untooled)
        stated = unverified_numbers(reply.text, self.session.conversation())
        stated += [n for n in miscalculations(reply.text) if n not in stated]
        return wire.unverified_request(stated) if stated else None

    def _run(
        self,
        call: ToolCall,
        step: ToolStep | TaskRecall,
        user: UserMessage,
        workspace: Workspace,
    ) -> ToolResultMessage:
        """The outcome of one tool call: a search of the record, or math (ids resolved)."""
        # The whole conversation, not just the view: what a strategy keeps out of the prompt
        # is still searchable, and still grounds a call on it.
        conversation = self.session.conversation()
        if isinstance(step, TaskRecall):
            found = recall(conversation, workspace, step.query)
            return ToolResultMessage(call_id=call.call_id, tool=call.tool, ok=True, text=found)
        if (unknown := unknown_refusal(call.tool, call.arguments, self._task_text())) is not None:
            return ToolResultMessage(call_id=call.call_id, tool=call.tool, ok=False, text=unknown)
        try:
            arguments = resolve_arguments(call.tool, call.arguments, workspace)
        except ReferenceProblem as problem:
            return ToolResultMessage(
                call_id=call.call_id, tool=call.tool, ok=False, text=problem.message
            )
        if self.aids.fit_variable:
            arguments = fitted_variable(call.tool, arguments, user.text) or arguments
            foreign = foreign_variable(call.tool, arguments, user.text, workspace)
            if foreign is None and call.tool in wire.POINT_LIST_TOOLS:
                foreign = foreign_point(call.arguments, arguments, user.text, workspace)
            if foreign is not None:
                return ToolResultMessage(
                    call_id=call.call_id, tool=call.tool, ok=False, text=foreign
                )
        if arguments != call.arguments:
            step = step.model_copy(
                update={k: v for k, v in arguments.items() if k in type(step).model_fields}
            )
            # A system whose restated definition was dropped may be one equation now.
            written = call.arguments.get("equations") or []
            step = as_run(step, single=len(arguments.get("equations") or []) < len(written))
        elif (refusal := ungrounded_reason(step, conversation)) is not None:
            # Math the call wrote itself (no id) must come from the person or a result.
            return ToolResultMessage(call_id=call.call_id, tool=call.tool, ok=False, text=refusal)
        outcome = self.tool_runner(step)
        values = result_values(outcome.value) if outcome.ok else ()
        return ToolResultMessage(
            call_id=call.call_id,
            tool=call.tool,
            ok=outcome.ok,
            text=outcome.text,
            item=f"#{workspace.next_number}" if values else None,
            values=values,
            subject=outcome.input,
        )

    def _task_text(self) -> str:
        """What the person wrote in the open task: their messages since the last answer."""
        said: list[str] = []
        for message in reversed(self.session.conversation()):
            if isinstance(message, AssistantMessage) and message.task_status == "COMPLETED":
                break
            if isinstance(message, UserMessage):
                said.append(message.text)
        return "\n".join(reversed(said))

    def _unsaid_bounds(
        self, call: ToolCall, step: ToolStep | TaskRecall, workspace: Workspace
    ) -> tuple[ToolCall, ToolStep | TaskRecall, str | None]:
        """An integral's or an extremum's bounds that the person never gave and no result holds,
        left out with a note saying so (the model made them up): the integral runs as the
        antiderivative, the extremum without a range. For the extreme of several values
        (`#N` of roots), a result's number is no excuse: no one bounds roots by other roots."""
        if call.tool not in wire.BOUNDED_TOOLS:
            return call, step, None
        bounds = [str(call.arguments.get(k) or "") for k in ("lower", "upper")]
        bounds = [b for b in bounds if b and "#" not in b]
        known = {v for item in workspace.items if item.origin != "you" for v in item.values}
        cited = workspace.cited_alone(str(call.arguments.get("expression") or ""))
        if call.tool == "extrema" and cited is not None and len(cited.values) > 1:
            known = set()
        unsaid = unwritten_values(bounds, self._task_text(), known)
        if not unsaid or not all(is_number(b) for b in bounds):
            return call, step, None  # a bound that is no number: the tool says why
        cleared = {"lower": None, "upper": None}
        return (
            call.model_copy(update={"arguments": {**call.arguments, **cleared}}),
            step.model_copy(update=cleared),
            wire.unsaid_bounds_note(unsaid, call.tool),
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
                    workspace=build(self.session.conversation()),
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
