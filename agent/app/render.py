"""How turns, histories and token use look in the terminal (rich markup).

Pure formatting: nothing here talks to the model or changes the session. When stdout is not a
terminal, rich drops colour by itself, so piped output stays plain text.
"""

from __future__ import annotations

import re

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from agent.accounting.ledger import UsageLedger
from agent.accounting.savings import HistorySaving
from agent.core.loop import Agent, TurnResult
from agent.core.session import Session, context_tokens
from agent.core.transcript import CompactionRecord
from agent.display.pretty import pretty
from agent.llm.model import StepProgress
from agent.messages import (
    ToolCall,
    ToolResultMessage,
)
from agent.storage.records import SessionInfo

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """Text from the model, a tool or the user, safe to print: no terminal control sequences
    (a reply could otherwise clear the screen or retitle the terminal) and no rich markup."""
    return escape(_CONTROL.sub("", text))


def displayed(text: str, raw: bool = False) -> str:
    """A stored answer or tool line as the terminal shows it: math as people write it
    (`agent.display.pretty`), or with `raw` the text exactly as stored, to copy; safe either way."""
    return shown(text if raw else readable(text))


def readable(text: str) -> str:
    """`text` with its math as people write it; the text itself if prettifying fails."""
    try:
        return pretty(text)
    except Exception:  # display only: an answer is never lost to a prettifying bug
        return text


def print_tool_run(
    console: Console, call: ToolCall, result: ToolResultMessage, raw: bool = False
) -> None:
    mark = "[green]✓[/]" if result.ok else "[red]✗[/]"
    console.print(
        f"  {mark} [dim]{displayed(call.call_text, raw)} → {displayed(result.text, raw)}[/]"
    )


class LiveTurn:
    """The answer as the model writes it, and which tool it is calling, while a turn runs.

    A spinner until the first field is decoded; then, for a tool call, one status line with
    the call so far, and for a message to the user, its text as it grows. Tool runs are
    printed above the live region as they finish. The region is transient: when the turn
    ends, `print_turn` prints the final answer in its place. The growing text is shown as the
    model writes it (half-written math would prettify wrongly); the final print is pretty.
    """

    def __init__(self, console: Console, raw: bool = False) -> None:
        self.console = console
        self.raw = raw
        self._live = Live(self._waiting(), console=console, transient=True, refresh_per_second=12)

    @staticmethod
    def _waiting() -> Spinner:
        return Spinner("dots", text=Text.from_markup("[dim]thinking… (Ctrl-C cancels)[/]"))

    def __enter__(self) -> LiveTurn:
        self._live.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._live.stop()

    def progress(self, step: StepProgress) -> None:
        if step.answering:
            self._live.update(Text(_CONTROL.sub("", step.response), style="bold"))
        elif step.tool and step.tool != "message_to_user":
            args = ", ".join(f"{k}={v!r}" for k, v in step.arguments.items())
            status = Text.from_markup(f"[dim]→ {shown(step.tool)}({shown(args)})…[/]")
            self._live.update(Group(Spinner("dots", text=status)))

    def tool_run(self, call: ToolCall, result: ToolResultMessage) -> None:
        print_tool_run(self._live.console, call, result, self.raw)
        self._live.update(self._waiting())


def print_turn(
    console: Console, result: TurnResult, details: bool = True, raw: bool = False
) -> None:
    """The answer (its math pretty unless `raw`), then (with details) one dim line of
    accounting."""
    if result.error:
        console.print(f"[red]{shown(result.error)}[/]")
        return
    if result.reply is None:
        return
    style = "bold" if result.reply.task_status == "COMPLETED" else "yellow"
    console.print(f"[{style}]{displayed(result.reply.shown, raw)}[/]")
    if not details:
        return
    parts = [
        f"tokens in {result.input_tokens} · out {result.output_tokens}",
        f"{result.llm_calls} LLM call{'s' if result.llm_calls != 1 else ''}",
    ]
    if result.reply.task_status == "PROCESSING":
        parts.append("waiting for your answer")
    if result.compaction is not None:
        parts.append(result.compaction.describe())
    console.print(f"[dim]  {' · '.join(parts)}[/]")


def print_history(console: Console, session: Session) -> None:
    """Working context (what the LLM sees) and the full transcript (what happened)."""
    working = Table(
        title=f"Working context: {len(session.working)} messages, "
        f"{context_tokens(session.working)} tokens (what the model sees)",
        show_lines=False,
        expand=True,
    )
    working.add_column("#", justify="right", style="dim", no_wrap=True)
    working.add_column("role", no_wrap=True)
    working.add_column("content")
    for i, message in enumerate(session.working, 1):
        role, text = message.terminal_row()
        working.add_row(str(i), role, shown(text))
    console.print(working)
    transcript = Table(
        title=f"Full transcript: {len(session.transcript)} entries (nothing is ever removed)",
        expand=True,
    )
    transcript.add_column("time", style="dim", no_wrap=True)
    transcript.add_column("kind", no_wrap=True)
    transcript.add_column("content")
    for entry in session.transcript.entries:
        kind, text = entry.terminal_row()
        transcript.add_row(entry.at.astimezone().strftime("%H:%M:%S"), kind, shown(text))
    console.print(transcript)


def history_saving(agent: Agent) -> HistorySaving:
    """What the agent's strategy kept out of MathChat prompts so far, and keeps out now."""
    session, ledger = agent.session, agent.model.ledger
    compactions = sum(
        1 for e in session.transcript.entries if isinstance(e, CompactionRecord) and e.applied
    )
    return HistorySaving(
        strategy=agent.strategy.name,
        kept_out_so_far=ledger.history_tokens_saved,
        chat_calls=ledger.count("MathChat"),
        shown_now=session.history_tokens(agent.strategy.view(session.working, None)),
        whole_now=session.uncompacted_tokens,
        compactions=compactions,
    )


def print_tokens(
    console: Console, ledger: UsageLedger, recent: int = 8, agent: Agent | None = None
) -> None:
    """Per function and per call, the helper calls' share and (given the agent) what its
    strategy did not send against `none`, so far and now."""
    table = Table(title="Token use this session")
    table.add_column("function")
    table.add_column("calls", justify="right")
    table.add_column("input", justify="right")
    table.add_column("output", justify="right")
    functions = dict.fromkeys(["MathChat", "SummarizeContext", *(c.function for c in ledger.calls)])
    for function in functions:
        calls = ledger.count(function)
        tokens_in, tokens_out = ledger.totals(function)
        table.add_row(function, str(calls), str(tokens_in), str(tokens_out))
    tokens_in, tokens_out = ledger.totals()
    table.add_row("[bold]total[/]", str(ledger.count()), str(tokens_in), str(tokens_out))
    console.print(table)
    if ledger.calls:
        calls = Table(title=f"Last {min(recent, len(ledger.calls))} calls")
        for column in ("turn", "function", "input", "output", "ms"):
            calls.add_column(column, justify="left" if column == "function" else "right")
        for call in ledger.calls[-recent:]:
            calls.add_row(
                str(call.turn),
                call.function,
                str(call.input_tokens),
                str(call.output_tokens),
                f"{call.duration_ms:.0f}",
            )
        console.print(calls)
    chat_in, _ = ledger.totals("MathChat")
    helpers_in = tokens_in - chat_in
    if tokens_in:
        console.print(
            f"[dim]summarizer, repair and other helper calls: {helpers_in} input tokens "
            f"({helpers_in / tokens_in:.0%} of input, as the server counts them).[/]"
        )
    if agent is not None:
        saving = history_saving(agent)
        for line in saving.lines():
            console.print(f"[dim]{escape(line)}[/]")
        console.print("[dim](history sizes: o200k token estimates)[/]")


def print_sessions(
    console: Console, sessions: list[SessionInfo], current: str | None, where: str
) -> None:
    table = Table(title=f"Saved sessions ({where})")
    for column in ("name", "updated", "turns", "entries", "tokens in", "tokens out", ""):
        table.add_column(column, justify="right" if column.startswith(("t", "e")) else "left")
    for info in sessions:
        note = (
            "this one"
            if info.name == current
            else ("open elsewhere" if info.open_elsewhere else "")
        )
        table.add_row(
            shown(info.name),
            info.updated_at[:19].replace("T", " "),
            str(info.turns),
            str(info.entries),
            str(info.input_tokens),
            str(info.output_tokens),
            note,
        )
    console.print(table)
