"""`math-agent eval`: the question sets through the real agent on the configured model.

Offline figures come from scripted models that are always right; what people run is a small
local model that is not. This plays the sets in `agent/eval/data/` (reference, single,
sessions) through the same runtime as `chat` — the embedded model unless another provider is
configured — with a progress bar, then prints a table (or `--json`) and exits 1 when a target
is missed, so CI can gate on it (`--subset ci`, a fixed small part of every set).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from agent.app.repl import run_supervised
from agent.app.runtime import Runtime, RuntimeOptions, build_runtime, choose_strategy
from agent.context.registry import STRATEGIES, make_strategy
from agent.core.loop import Agent, TurnResult
from agent.errors import AgentError
from agent.eval.cases import SETS, EvalCase, load_set, subset
from agent.eval.report import SetFigures, TargetCheck, check_floors, check_targets, figures
from agent.eval.runner import TurnOutcome, TurnRunner, run_cases

# Sessions are played once per strategy; these unless --strategy says otherwise.
SESSION_STRATEGIES = ("none", "window", "ledger")


@dataclass(frozen=True)
class Plan:
    """Which cases of which set, with which strategies."""

    set_name: str
    cases: list[EvalCase]
    strategies: list[str]

    @property
    def turns(self) -> int:
        return sum(len(c.turns) for c in self.cases) * len(self.strategies)


def make_plans(args: argparse.Namespace, default_strategy: str) -> list[Plan]:
    plans = []
    for set_name in args.set or SETS:
        cases = load_set(set_name)
        if args.subset == "ci":
            cases = subset(set_name, cases)
        if args.limit is not None:
            cases = cases[: args.limit]
        if set_name == "sessions":
            strategies = args.strategy or _session_strategies(default_strategy)
        else:
            strategies = args.strategy[:1] if args.strategy else [default_strategy]
        plans.append(Plan(set_name, cases, strategies))
    return plans


def _session_strategies(default_strategy: str) -> list[str]:
    return list(dict.fromkeys([*SESSION_STRATEGIES, default_strategy]))


def supervised(runtime: Runtime, console: Console) -> TurnRunner:
    """The REPL's supervised turn: a dead embedded server is restarted, said in one line,
    and the turn retried once."""

    def run(agent: Agent, text: str) -> TurnResult:
        return run_supervised(runtime, text, console.print, agent=agent)

    return run


def play(plans: list[Plan], runtime: Runtime, console: Console) -> list[TurnOutcome]:
    model = runtime.agent.model

    def new_agent(strategy: str) -> Agent:
        return Agent(
            model,
            make_strategy(strategy),
            max_tool_steps=runtime.agent.max_tool_steps,
            aids=runtime.agent.aids,
        )

    outcomes: list[TurnOutcome] = []
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[right]}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("eval", total=sum(p.turns for p in plans), right="")
        judged = right = 0

        def observe(outcome: TurnOutcome) -> None:
            nonlocal judged, right
            judged += outcome.judged
            right += outcome.judged and outcome.ok
            bar.update(task, advance=1, right=f"{right}/{judged} right")

        for plan in plans:
            for strategy in plan.strategies:
                bar.update(task, description=f"{plan.set_name} · {strategy}")
                outcomes.extend(
                    run_cases(
                        plan.cases,
                        plan.set_name,
                        strategy,
                        new_agent,
                        supervised(runtime, console),
                        observe,
                    )
                )
    return outcomes


def print_table(console: Console, rows: list[SetFigures], checks: list[TargetCheck]) -> None:
    table = Table(title="math-agent eval", show_lines=False)
    for column in (
        "set",
        "strategy",
        "right",
        "dependent",
        "parse fail",
        "steps/turn",
        "s/turn p50",
        "p90",
        "tokens in/out",
        "wrong by category",
    ):
        table.add_column(column)
    for row in rows:
        table.add_row(
            row.set,
            row.strategy,
            f"{row.right}/{row.judged} ({row.accuracy:.1%})",
            f"{row.dependent_right}/{row.dependent}" if row.dependent else "-",
            f"{row.parse_failure_share:.1%}",
            f"{row.tool_steps_per_turn:.2f}",
            f"{row.seconds_median:.1f}",
            f"{row.seconds_p90:.1f}",
            f"{row.input_tokens_per_turn:.0f}/{row.output_tokens_per_turn:.0f}",
            ", ".join(f"{k} {v}" for k, v in sorted(row.wrong_by_category.items())) or "-",
        )
    console.print(table)
    for check in checks:
        mark = "[green]met[/]" if check.met else "[red]MISSED[/]"
        console.print(f"{mark}  {check.name}: {check.detail}")


def print_misses(console: Console, outcomes: list[TurnOutcome]) -> None:
    for o in outcomes:
        if o.judged and not o.ok:
            calls = "".join(f"\n    · {escape(call)}" for call in o.calls)
            console.print(
                f"[red]✗[/] {o.set}/{o.case}#{o.turn} ({o.strategy}) {escape(repr(o.text))}"
                f"{calls}\n    -> {escape(repr(o.reply))}\n    {escape(o.why)}",
                highlight=False,
                markup=True,
            )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="math-agent eval",
        description="Question sets through the real agent on the configured model (default: "
        "the embedded one), judged by SymPy; exits 1 when a target is missed.",
    )
    parser.add_argument("--set", action="append", choices=SETS, help="repeatable; default: all")
    parser.add_argument(
        "--strategy",
        action="append",
        choices=sorted(STRATEGIES),
        help="repeatable; sessions default to " + ", ".join(SESSION_STRATEGIES) + " and the "
        "provider's default; other sets use the provider's default",
    )
    parser.add_argument("--subset", choices=["ci"], help="a fixed small part of every set (CI)")
    parser.add_argument("--limit", type=int, help="the first N cases of each set")
    parser.add_argument("--provider", default=None, help="as for chat (default: auto)")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint")
    parser.add_argument("--model", help="model name sent to the endpoint")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", type=Path, help="also write the JSON, every turn included")
    parser.add_argument("--misses", action="store_true", help="list every wrong answer")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console(stderr=True, highlight=False)
    options = RuntimeOptions(
        provider=args.provider, base_url=args.base_url, model=args.model, save=False
    )
    try:
        runtime = build_runtime(options)
    except AgentError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    try:
        default_strategy = choose_strategy(options, runtime.provider)
        plans = make_plans(args, default_strategy)
        outcomes = play(plans, runtime, console)
        describe = runtime.provider.describe()
    finally:
        runtime.close()
    rows = figures(outcomes)
    checks = check_targets(rows, default_strategy)
    # The CI subset gates on its floors; a full run reports the targets.
    gate = check_floors(rows, default_strategy) if args.subset == "ci" else checks
    summary = {
        "provider": describe,
        "default_strategy": default_strategy,
        "subset": args.subset,
        "figures": [row.to_dict() for row in rows],
        "targets": [{"name": c.name, "met": c.met, "detail": c.detail} for c in checks],
        "gate": [{"name": c.name, "met": c.met, "detail": c.detail} for c in gate],
    }
    if args.out is not None:
        args.out.write_text(
            json.dumps({**summary, "turns": [o.to_dict() for o in outcomes]}, indent=1) + "\n",
            encoding="utf-8",
        )
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
        out.print(f"provider: {describe}")
        print_table(out, rows, checks if gate is checks else [*checks, *gate])
        if args.misses:
            print_misses(out, outcomes)
    return 0 if all(c.met for c in gate) else 1
