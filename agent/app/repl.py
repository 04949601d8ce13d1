"""The terminal front: an interactive REPL, a line-per-message script mode, and `ask`.

Each turn runs in a worker thread so that Ctrl-C in the main thread can cancel it (the LLM
call is aborted, the working context rolled back) without ending the session. Ctrl-D exits.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from agent.app.render import (
    LiveTurn,
    print_history,
    print_sessions,
    print_tokens,
    print_turn,
    shown,
)
from agent.context.registry import STRATEGIES, make_strategy
from agent.core.loop import Agent, CancelToken, TurnResult
from agent.display import plot_drawing, plotting
from agent.display.export import transcript_markdown
from agent.llm.model import ProgressObserver
from agent.messages import ToolCall, ToolResultMessage
from agent.runtime.single import Runtime
from agent.workspace.building import build

HELP = """\
Type a math request in plain words, e.g. "solve x^2 + 5x + 6 = 0", then "now its derivative".
Commands:
  /help              this help
  /history           the working context (what the model sees) and the full transcript
  /tokens            token use per LLM function and in total
  /compact           compact finished tasks now, with the current strategy
  /undo-compact      restore the working context from before the last compaction
  /strategy [NAME]   show or switch the context strategy ({strategies}; NAME+facts
                     adds the user-facts memory, e.g. structural+facts)
  /ws                the workspace: every equation, function and result with its id
                     (#3, h): use the ids in your messages, e.g. "square each of #2"
  /facts             what the assistant remembers about you (with +facts)
  /forget N          forget remembered fact N
  /pin [N]           keep the latest (or N-th) finished task verbatim (strategy scored)
  /sessions          saved sessions (resume one with: math-agent chat --session NAME)
  /export FILE.md    write the full transcript as Markdown
  /plot F[, G] [from A to B]
                     draw functions in the terminal: names (f, f'), ids (#4) or math
                     (x^2 - 1); the range also as "A B" at the end (default -10 to 10);
                     marks the roots, critical points and evaluated points the workspace
                     holds for them; a message "plot f and g from -2 to 3" draws the same
  /plot save FILE.png  write the last plot as an image (needs matplotlib)
  /raw               switch answers between readable math (x², √2, −3) and the stored
                     plain text (x**2, sqrt(2), -3) to copy
  /exit              leave (Ctrl-D works too); Ctrl-C cancels the current answer
"""


def run_turn_cancellable(
    agent: Agent,
    text: str,
    on_tool: Callable[[ToolCall, ToolResultMessage], None] | None = None,
    on_cancel: Callable[[], None] | None = None,
    on_progress: ProgressObserver | None = None,
    run: Callable[[CancelToken], TurnResult] | None = None,
) -> TurnResult:
    """Run one turn in a worker thread (`run`, default: the agent's own); Ctrl-C cancels it
    and we wait for the rollback."""
    cancel = CancelToken()
    box: dict[str, TurnResult] = {}
    finished = threading.Event()

    def work() -> None:
        try:
            if run is not None:
                box["result"] = run(cancel)
            else:
                box["result"] = agent.run_turn(text, cancel, on_tool, on_progress)
        except Exception as exc:  # run_turn promises not to raise; if it does, keep the REPL
            detail = " ".join(str(exc).split())[:200]
            box["result"] = TurnResult(
                reply=None, error=f"Internal error ({type(exc).__name__}: {detail})."
            )
        finally:
            finished.set()

    # Waiting on an Event (not Thread.join) stays correct when Ctrl-C interrupts the wait.
    threading.Thread(target=work, name="math-agent-turn", daemon=True).start()
    while not finished.is_set():
        try:
            finished.wait(0.1)
        except KeyboardInterrupt:
            cancel.cancel()
            if on_cancel is not None:
                on_cancel()
    return box["result"]


def run_supervised(
    runtime: Runtime,
    text: str,
    notify: Callable[[str], None],
    on_tool: Callable[[ToolCall, ToolResultMessage], None] | None = None,
    on_cancel: Callable[[], None] | None = None,
    on_progress: ProgressObserver | None = None,
    agent: Agent | None = None,
) -> TurnResult:
    """A turn of `agent` (default: the runtime's) through the process runtime, which
    restarts a dead embedded server, says so in one line (`notify`) and retries once."""
    agent = agent if agent is not None else runtime.agent
    process = runtime.process
    if process is None:
        return run_turn_cancellable(agent, text, on_tool, on_cancel, on_progress)

    def run(cancel: CancelToken) -> TurnResult:
        return process.turn(
            agent, text, cancel, on_tool, on_progress, session=runtime.name or "", notify=notify
        )

    return run_turn_cancellable(agent, text, on_tool, on_cancel, on_progress, run=run)


class Repl:
    def __init__(
        self, runtime: Runtime, console: Console, interactive: bool, raw: bool | None = None
    ) -> None:
        self.runtime = runtime
        self.agent = runtime.agent
        self.console = console
        self.interactive = interactive
        self.failures = 0
        # Answers as stored (to copy, and for scripts reading piped output) or with readable
        # math; a terminal gets readable math unless --raw.
        self.raw = not interactive if raw is None else raw
        self.last_plot: plotting.Plot | None = None

    # -- commands ---------------------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Run a slash command; False means leave."""
        name, _, arg = line.strip().partition(" ")
        arg = arg.strip()
        if name in ("/exit", "/quit"):
            return False
        if name == "/help":
            self.console.print(escape(HELP.format(strategies=", ".join(STRATEGIES))))
        elif name == "/history":
            print_history(self.console, self.agent.session)
        elif name == "/tokens":
            print_tokens(self.console, self.agent.model.ledger, agent=self.agent)
        elif name == "/compact":
            record = self.agent.compact("manual")
            self.agent.checkpoint()
            self.console.print(record.describe() if record else "Nothing to compact.")
        elif name == "/undo-compact":
            undone = self.agent.session.undo_compaction()
            self.agent.checkpoint()
            self.console.print(
                "Restored the working context from before the last compaction."
                if undone
                else "There is no compaction to undo."
            )
        elif name == "/strategy":
            self._strategy(arg)
        elif name == "/ws":
            self._workspace()
        elif name == "/facts":
            self._facts()
        elif name == "/forget":
            self._forget(arg)
        elif name == "/pin":
            self._pin(arg)
        elif name == "/sessions":
            self._sessions()
        elif name == "/export":
            self._export(arg)
        elif name == "/plot":
            self._plot(arg)
        elif name == "/raw":
            self._raw(arg)
        else:
            self.console.print(f"Unknown command {shown(name)}; /help lists the commands.")
        return True

    def _strategy(self, name: str) -> None:
        if not name:
            self.console.print(f"Context strategy: {self.agent.strategy.name}")
            return
        try:
            self.agent.strategy = make_strategy(name)
        except ValueError as exc:
            self.console.print(str(exc))
            return
        self.agent.checkpoint()
        self.console.print(f"Context strategy is now {name}.")

    def _workspace(self) -> None:
        """Every item of the workspace with its id, and the notes about the person."""
        workspace = build(self.agent.session.conversation())
        if not workspace.items and not workspace.notes:
            self.console.print(
                "The workspace is empty: the math you write and every result get an id here."
            )
            return
        for note in workspace.notes:
            self.console.print(f"note: {escape(note)}")
        positions = workspace.positions()
        for item in workspace.items:
            self.console.print(escape(workspace.line_of(item, positions)))

    def _facts(self) -> None:
        described = self.agent.strategy.describe_facts()
        if described is None:
            self.console.print(
                "No facts memory in this strategy; switch with /strategy "
                f"{self.agent.strategy.name}+facts"
            )
            return
        self.console.print(escape(described))

    def _forget(self, arg: str) -> None:
        if self.agent.strategy.describe_facts() is None:
            self.console.print("No facts memory in this strategy (see /facts).")
            return
        if not arg.isdigit():
            self.console.print("Say which: /forget N (numbers as /facts shows them)")
            return
        forgotten = self.agent.strategy.forget_fact(int(arg))
        self.console.print(escape(forgotten or "Nothing to forget."))
        self.agent.checkpoint()

    def _pin(self, arg: str) -> None:
        if arg and not arg.isdigit():
            self.console.print("Say which: /pin, or /pin N for the N-th finished task")
            return
        pinned = self.agent.strategy.pin(self.agent.session.working, int(arg) if arg else None)
        if pinned is None:
            self.console.print("Pinning needs the scored strategy: /strategy scored")
            return
        self.console.print(escape(pinned))
        self.agent.checkpoint()

    def _sessions(self) -> None:
        store = self.runtime.store
        if store is None:
            self.console.print("This conversation is not being saved (--no-save).")
            return
        print_sessions(self.console, store.sessions(), self.runtime.name, store.describe())

    def _export(self, target: str) -> None:
        if not target:
            self.console.print("Say where: /export FILE.md")
            return
        path = Path(target).expanduser()
        title = self.runtime.name or "unsaved"
        try:
            path.write_text(transcript_markdown(self.agent.session, title), encoding="utf-8")
        except OSError as exc:
            self.console.print(
                f"Could not write {escape(str(path))}: {escape(exc.strerror or str(exc))}."
            )
            return
        self.console.print(f"Wrote the transcript to {escape(str(path))}.")

    def _raw(self, arg: str) -> None:
        if arg not in ("", "on", "off"):
            self.console.print("Say /raw to switch, or /raw on, /raw off.")
            return
        self.raw = not self.raw if not arg else arg == "on"
        self.console.print(
            "Answers now show the plain text as stored (x**2, sqrt(2)), to copy; /raw again "
            "for readable math."
            if self.raw
            else "Answers now show readable math (x², √2); /raw for the plain text to copy."
        )

    def _plot(self, arg: str) -> None:
        """Draw (or, with `save FILE`, write as an image) functions of the workspace."""
        word, _, rest = arg.partition(" ")
        if word == "save":
            self._save_plot(rest.strip())
            return
        try:
            request = plotting.parse_request(arg)
            plot = plotting.make_plot(request, build(self.agent.session.conversation()))
        except plotting.PlotError as exc:
            self.console.print(escape(exc.message))
            return
        self.last_plot = plot
        color = self.console.color_system is not None
        height = max(12, min(24, self.console.height - 6))
        chart = plot_drawing.terminal_chart(plot, self.console.width, height, color)
        self.console.print(Text.from_ansi(chart) if color else Text(chart), soft_wrap=True)
        for line in plot_drawing.marks_summary(plot, raw=self.raw):
            self.console.print(Text(line, style="dim"))

    def _save_plot(self, target: str) -> None:
        if not target:
            self.console.print("Say where: /plot save FILE.png")
            return
        if self.last_plot is None:
            self.console.print("There is no plot to save yet: draw one with /plot first.")
            return
        try:
            path = plot_drawing.save_image(self.last_plot, target)
        except plotting.PlotError as exc:
            self.console.print(escape(exc.message))
            return
        self.console.print(f"Wrote the plot to {escape(str(path))}.")

    # -- turns ------------------------------------------------------------------------------

    def message(self, text: str) -> None:
        if self.interactive:
            with LiveTurn(self.console, raw=self.raw) as live:
                result = run_supervised(
                    self.runtime,
                    text,
                    notify=lambda note: self.console.print(f"[yellow]{escape(note)}[/]"),
                    on_tool=live.tool_run,
                    on_cancel=lambda: self.console.print("[yellow]cancelling…[/]"),
                    on_progress=live.progress,
                )
        else:
            result = run_supervised(self.runtime, text, notify=self.console.print)
        if result.error:
            self.failures += 1
        print_turn(self.console, result, details=self.interactive, raw=self.raw)
        if (problem := self.runtime.last_save_error) is not None:
            self.console.print(f"[red]{escape(problem)}[/]")

    def handle(self, line: str) -> bool:
        """One input line: a command or a message. False means leave."""
        text = line.strip()
        if not text:
            return True
        if text.startswith("/"):
            return self.command(text)
        if (plot := plotting.plot_request_in(text)) is not None:
            self._plot(plot)
            return True
        self.message(text)
        return True

    def banner(self) -> None:
        provider = self.runtime.provider
        compaction = "on" if self.agent.compaction_enabled else "off"
        strategy = self.agent.strategy.name
        if provider.default_strategy == strategy:
            strategy += f", the default for {provider.name}"
        self.console.print(f"[bold]math-agent[/] · {escape(provider.describe())}")
        if provider.is_local:
            self.console.print(
                "[dim]embedded model on this CPU: answers take tens of seconds; set "
                "OPENROUTER_API_KEY, OPENAI_API_KEY or MATH_AGENT_BASE_URL for a faster one[/]"
            )
        store = self.runtime.store
        if store is not None:
            state = "resumed" if self.runtime.resumed else "new"
            turns = self.agent.model.ledger.turn
            self.console.print(
                f"[dim]session {escape(self.runtime.name or '')} ({state}, {turns} turns) · "
                f"saved in {escape(store.location)}[/]"
            )
        self.console.print(
            f"[dim]context strategy: {strategy} (compaction {compaction}) · "
            "/help for commands · Ctrl-D to leave[/]"
        )


def _history_file() -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    path = base / "math-agent" / "repl_history"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def interactive_loop(repl: Repl) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    prompt = PromptSession(history=FileHistory(str(_history_file())))
    repl.banner()
    while True:
        try:
            line = prompt.prompt("you › ")
        except KeyboardInterrupt:
            continue
        except EOFError:
            break
        if not repl.handle(line):
            break
    repl.console.print("[dim]bye[/]")


def scripted_loop(repl: Repl, lines: Iterable[str]) -> None:
    """stdin is not a terminal: one message per line, plain answers."""
    for line in lines:
        if line.lstrip().startswith("#"):
            continue
        if not repl.handle(line):
            break


def chat(runtime: Runtime, stdin_is_tty: bool | None = None, raw: bool = False) -> int:
    """The REPL on a terminal, else one message per line of stdin. Answers show readable
    math on a terminal unless `raw`; piped, they stay as stored (scripts read them)."""
    interactive = sys.stdin.isatty() if stdin_is_tty is None else stdin_is_tty
    console = (
        Console(highlight=False)
        if interactive
        else Console(highlight=False, no_color=True, force_terminal=False, soft_wrap=True)
    )
    if not interactive and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(line_buffering=True)  # each answer visible as soon as it exists
    repl = Repl(runtime, console, interactive, raw=True if raw else None)
    if interactive:
        interactive_loop(repl)
        return 0
    scripted_loop(repl, sys.stdin)
    return 1 if repl.failures else 0


def ask(runtime: Runtime, text: str, raw: bool = False) -> int:
    """One answer; readable math on a terminal unless `raw`, as stored when piped."""
    terminal = sys.stdout.isatty()
    console = Console(highlight=False, no_color=not terminal, soft_wrap=True)
    notices = Console(stderr=True, highlight=False, no_color=True)
    result = run_supervised(runtime, text, notify=notices.print)
    print_turn(console, result, details=False, raw=raw or not terminal)
    return 0 if result.ok else 1
