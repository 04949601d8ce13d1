"""Play evaluation cases through a real agent and record what a person would have seen.

Each case starts a fresh conversation (a new Agent from `new_agent`), so one case's mistakes
never leak into another's. Every turn is judged by SymPy on the reply text the person reads
(`agent.eval.judge`), and measured: seconds, tool steps, tokens, replies that had to be
re-asked because they did not parse, and two failures a person must never see (a "not a
valid tool call" sentence and a tool's raw error text given as the answer).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

from agent.core.grounding import repeats_tool_error
from agent.core.loop import Agent, TurnResult
from agent.eval.cases import EvalCase
from agent.eval.judge import judge
from agent.llm.model import REPAIR_FUNCTION
from agent.messages import ToolCall, ToolResultMessage

# Makes the agent for one case; the argument is the context strategy's name.
AgentFactory = Callable[[str], Agent]
# Runs one turn (the app's supervised runner restarts a dead local server and retries).
TurnRunner = Callable[[Agent, str], TurnResult]
# Told after every turn (a progress bar).
TurnObserver = Callable[["TurnOutcome"], None]

# The start of the sentence a person sees when a reply could not be parsed, even after the
# repair round (agent.errors words it; checked by tests/eval/test_runner.py).
INVALID_REPLY_MARK = "not a valid tool call"


@dataclass(frozen=True)
class TurnOutcome:
    set: str
    case: str
    category: str
    wording: str
    strategy: str
    turn: int
    text: str
    judged: bool
    depends: bool
    ok: bool
    why: str
    reply: str
    asked_back: bool
    error: str | None
    tool_steps: int
    llm_calls: int
    repairs: int
    seconds: float
    input_tokens: int
    output_tokens: int
    # A failed tool's error text came back as the answer.
    tool_error_shown: bool
    # The person saw "not a valid tool call" (the reply did not parse even after repair).
    invalid_reply_shown: bool
    # Each tool call of the turn and what it returned, "solve {...} -> x = -3, x = -2": what
    # a miss is read by (was the wrong expression sent, or the right result misquoted?).
    calls: tuple[str, ...] = ()
    # The answer offered the runner-up (`1) ...`), and how likely the model thought it.
    offered: bool = False
    offer_share: float | None = None
    # A wrong answer with an offer: the simulated person typed the pick; was that answer
    # right (None: no pick was made)?
    picked_ok: bool | None = None
    picked_reply: str | None = None

    @property
    def right_after_pick(self) -> bool:
        """Right at the first answer, or after the person picked the runner-up once."""
        return self.ok or bool(self.picked_ok)

    @property
    def silent_miss(self) -> bool:
        """Wrong, and nothing offered: the person is left with a wrong answer."""
        return self.judged and not self.ok and not self.offered

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def default_turn_runner(agent: Agent, text: str) -> TurnResult:
    return agent.run_turn(text)


def run_case(
    case: EvalCase,
    set_name: str,
    strategy: str,
    new_agent: AgentFactory,
    run_turn: TurnRunner = default_turn_runner,
    observe: TurnObserver | None = None,
) -> list[TurnOutcome]:
    """Every turn of one case, in a fresh conversation."""
    agent = new_agent(strategy)
    outcomes = []
    for index, turn in enumerate(case.turns):
        repairs_before = agent.model.ledger.count(REPAIR_FUNCTION)
        started = time.perf_counter()
        result = run_turn(agent, turn.text)
        seconds = time.perf_counter() - started
        reply = result.reply.text if result.reply is not None else (result.error or "")
        asked_back = result.reply is not None and result.reply.task_status == "PROCESSING"
        verdict = (
            judge(reply, asked_back, turn.expected, turn.text)
            if turn.expected is not None
            else None
        )
        offer = result.reply.offer if result.reply is not None else None
        picked_ok, picked_reply = None, None
        if verdict is not None and not verdict.ok and offer is not None and turn.expected:
            # The simulated person picks the runner-up once (as typed: its keystroke).
            picked = run_turn(agent, offer.PICK)
            picked_reply = picked.reply.text if picked.reply is not None else picked.error
            picked_ok = (
                picked.reply is not None
                and judge(picked_reply or "", False, turn.expected, turn.text).ok
            )
        outcome = TurnOutcome(
            set=set_name,
            case=case.name,
            category=case.category,
            wording=case.wording,
            strategy=strategy,
            turn=index + 1,
            text=turn.text,
            judged=verdict is not None,
            depends=turn.depends,
            ok=verdict.ok if verdict is not None else True,
            why=verdict.why if verdict is not None else "not judged",
            reply=reply,
            asked_back=asked_back,
            error=result.error,
            tool_steps=len(result.tool_runs),
            llm_calls=result.llm_calls,
            repairs=agent.model.ledger.count(REPAIR_FUNCTION) - repairs_before,
            seconds=seconds,
            input_tokens=result.input_tokens,
            output_tokens=result.output_tokens,
            tool_error_shown=_tool_error_shown(result),
            invalid_reply_shown=INVALID_REPLY_MARK in reply,
            calls=tuple(_call_line(call, tool_result) for call, tool_result in result.tool_runs),
            offered=offer is not None,
            offer_share=offer.share if offer is not None else None,
            picked_ok=picked_ok,
            picked_reply=picked_reply,
        )
        outcomes.append(outcome)
        if observe is not None:
            observe(outcome)
    return outcomes


def run_cases(
    cases: Iterable[EvalCase],
    set_name: str,
    strategy: str,
    new_agent: AgentFactory,
    run_turn: TurnRunner = default_turn_runner,
    observe: TurnObserver | None = None,
) -> list[TurnOutcome]:
    outcomes: list[TurnOutcome] = []
    for case in cases:
        outcomes.extend(run_case(case, set_name, strategy, new_agent, run_turn, observe))
    return outcomes


def _call_line(call: ToolCall, result: ToolResultMessage) -> str:
    given = {name: value for name, value in call.arguments.items() if value is not None}
    arguments = json.dumps(given, ensure_ascii=False)
    return f"{call.tool} {arguments} -> {'' if result.ok else 'error: '}{result.text}"


def _tool_error_shown(result: TurnResult) -> bool:
    """The answer repeats a failed tool's error text (a person reads the tool's complaint,
    not an answer)."""
    if result.reply is None:
        return False
    errors = [ran.text for _call, ran in result.tool_runs if not ran.ok]
    return repeats_tool_error(result.reply.text, errors)
