"""One user turn: MathChat -> tool -> result -> MathChat ... -> MessageToUser.

The loop knows neither which provider answers nor which context strategy runs: it asks the
strategy for the context of each call and to compact after the turn. A failed or cancelled
turn rolls the working context back to where it was, so no half-appended tool call survives;
the transcript keeps what happened and why.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from baml_py import AbortController

from agent import wire
from agent.calls.desk import settle, task_text
from agent.calls.guards import Facts, Guard, ToolRunner, guards
from agent.calls.pending import Call, PendingCall
from agent.calls.runner_up import offer_of, offered_call, runner_up
from agent.context.base import Compaction, CompactionInput, ContextStrategy, Trigger
from agent.core.grounding import (
    miscalculations,
    note_is_grounded,
    repeats_tool_error,
    unverified_numbers,
)
from agent.core.recall import recall
from agent.core.session import Session
from agent.core.tool_calls import run_tool
from agent.core.transcript import CompactionRecord, ErrorRecord
from agent.errors import AgentError, TurnCancelled
from agent.llm.model import AnswerBegun, MathModel, ProgressObserver
from agent.llm.step_schema import Wanted
from agent.messages import (
    AssistantMessage,
    Message,
    Offer,
    TaskStatusName,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from agent.workspace.building import build
from agent.workspace.record import Workspace
from agent.workspace.shown import shown_chat
from baml_client.types import ChatMessage, MessageToUser
from tools.latex import plain_math

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
# Called after every tool step (False) and when a turn or a manual change is done (True),
# so a store can commit each completed step.
CheckpointHook = Callable[[bool], None]


@dataclass(frozen=True)
class SmallModelAids:
    """What the loop adds for a model too small to be trusted alone (a 1.5B one); all off
    for hosted models, which pay for none of it. Each reads math, never the request's words."""

    # Ask once per turn to compute with a tool the numbers an answer states that no tool
    # computed (small models do arithmetic by themselves); an answer that still states such
    # numbers after that gives way to the turn's tool results. An answer that repeats a failed
    # tool's error is asked back the same way, to fix the call as the error says.
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


def _offer_picked(conversation: Sequence[Message]) -> Offer | None:
    """The offer the person's newest message picks: the answer before it offered one, and
    the message is its keystroke."""
    if len(conversation) < 2:
        return None
    answer, message = conversation[-2], conversation[-1]
    if not isinstance(answer, AssistantMessage) or answer.offer is None:
        return None
    if not isinstance(message, UserMessage) or not answer.offer.picked_by(message.text):
        return None
    return answer.offer


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
        user = UserMessage.from_person(text)
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
        before = guards(self.aids.fit_variable)
        conversation = self.session.conversation()
        workspace = build(conversation)
        if (picked := _offer_picked(conversation)) is not None:
            return self._run_offer(picked, user, workspace, result, before, on_tool)
        # The call the model nearly made instead of the turn's last one (its runner-up),
        # offered under the answer.
        offer: Offer | None = None
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
                return self._reply(_held_to_tool(result.tool_runs) or step.begun, offer=offer)
            if isinstance(step, MessageToUser):
                reply = self._answer(step, workspace)
                doubt = None
                if self.aids.verify_answers:
                    doubt = self._unverified(reply, fresh if not result.tool_runs else [])
                    errors = [ran.text for _call, ran in result.tool_runs if not ran.ok]
                    if repeats_tool_error(reply.text, errors):
                        doubt = wire.REPEATED_ERROR_REQUEST
                if doubt is not None and not asked:  # once per turn: held to a tool call
                    asked = True
                    follow_up = [reply.to_chat(), ChatMessage(role=wire.USER, content=doubt)]
                    wanted = "tool"
                    continue
                if doubt is not None and (held := _held_to_tool(result.tool_runs)) is not None:
                    reply = reply.model_copy(update={"text": held})
                elif doubt == wire.REPEATED_ERROR_REQUEST:  # asked, and it repeats it again
                    could_not = {"text": wire.COULD_NOT_FINISH, "task_status": "PROCESSING"}
                    reply = reply.model_copy(update=could_not)
                if offer is not None and reply.task_status == "COMPLETED":
                    reply = reply.model_copy(update={"offer": offer})
                self.session.append(reply)
                return reply
            follow_up = []
            if wanted == "tool":
                wanted = "any"
            call = PendingCall(step)
            # A small model that repeats a call it already made would loop to the step cap:
            # the call is not run again and the model is asked for its answer instead.
            if call.call_text in made:
                if self.aids.answer_from_results and (held := _held_to_tool(result.tool_runs)):
                    return self._reply(held, offer=offer)
                if wanted == "answer":  # asked once already, and it still calls: stop here
                    break
                wanted = "answer"
                continue
            made.add(call.call_text)
            facts = self._facts(user, workspace, result)
            stored, ran = settle(call, facts, before)
            # The answer is the last call's result: the offer is that call's runner-up.
            offer = self._runner_up(step, ran, facts, before) if ran.ok else None
            self._keep_run(stored, ran, result, on_tool)
            if ran.item is not None:
                workspace = build(self.session.conversation())
        return self._reply(
            f"I stopped after {len(result.tool_runs)} tool steps without a final answer; "
            "say 'continue' to let me go on, or rephrase the request.",
            "PROCESSING",
        )

    def _reply(
        self, text: str, status: TaskStatusName = "COMPLETED", offer: Offer | None = None
    ) -> AssistantMessage:
        """An answer the loop writes (from the turn's results, or that it stopped), kept."""
        reply = AssistantMessage(text=text, task_status=status, offer=offer)
        self.session.append(reply)
        return reply

    def _runner_up(
        self, step: Call, ran: ToolResultMessage, facts: Facts, before: Sequence[Guard]
    ) -> Offer | None:
        """The call the model nearly made instead of `step` (its own token probabilities
        say so), offered when it runs and gives another result; nothing is stored."""
        other = runner_up(step, getattr(self.model, "token_choices", ()), facts.workspace)
        if other is None:
            return None
        _stored, tried = settle(PendingCall(other.call), facts, before)
        if not tried.ok or tried.text == ran.text:
            return None
        return offer_of(other, facts.workspace)

    def _run_offer(
        self,
        offer: Offer,
        user: UserMessage,
        workspace: Workspace,
        result: TurnResult,
        before: Sequence[Guard],
        on_tool: ToolObserver | None,
    ) -> AssistantMessage:
        """The person picked the runner-up: its call runs as offered, no model call."""
        step = offered_call(offer)
        if step is None:  # an offer this code cannot read back: say so, nothing run
            return self._reply("That choice can no longer be run; please say what you want.")
        stored, ran = settle(PendingCall(step), self._facts(user, workspace, result), before)
        self._keep_run(stored, ran, result, on_tool)
        return self._reply(_held_to_tool(result.tool_runs) or ran.text)

    def _keep_run(
        self,
        stored: ToolCall,
        ran: ToolResultMessage,
        result: TurnResult,
        on_tool: ToolObserver | None,
    ) -> None:
        """A settled call and its result into the chat and the turn, saved as a step."""
        self.session.append(stored)
        self.session.append(ran)
        result.tool_runs.append((stored, ran))
        self.checkpoint(turn_complete=False)
        if on_tool is not None:
            on_tool(stored, ran)

    def _answer(self, step: MessageToUser, workspace: Workspace) -> AssistantMessage:
        """The model's message as the person reads it: LaTeX written plainly, citations of ids
        that do not exist dropped, a note kept only when it restates the person's words."""
        note = (step.note or "").strip()
        said = task_text(self.session.conversation())
        return AssistantMessage(
            text=workspace.without_unknown_citations(
                wire.without_requests(plain_math(step.response))
            ),
            task_status=step.task_status,
            note=note if note and note_is_grounded(note, said) else None,
        )

    def _facts(self, user: UserMessage, workspace: Workspace, result: TurnResult) -> Facts:
        """What the guards of a call read: the whole conversation, not just the view (what a
        strategy keeps out of the prompt is still searchable, and still grounds a call)."""
        conversation = self.session.conversation()
        return Facts(
            workspace=workspace,
            conversation=conversation,
            message=user.text,
            said=task_text(conversation),
            earlier=[ran for _call, ran in result.tool_runs],
            run_tool=self.tool_runner,
            look_up=lambda query: recall(conversation, workspace, query),
        )

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
