"""The terminal tables of `math-agent eval`: figures per set and strategy, the spread
across seeds, and each wrong answer with the calls that led to it."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from agent.eval.report import SeedSpread, SetFigures, TargetCheck
from agent.eval.runner import TurnOutcome


def turn_label(outcome: TurnOutcome) -> str:
    """`set/case#turn`: how the report names one turn."""
    return f"{outcome.set}/{outcome.case}#{outcome.turn}"


def print_table(
    console: Console,
    rows: list[SetFigures],
    checks: list[TargetCheck],
    title: str = "math-agent eval",
) -> None:
    table = Table(title=title, show_lines=False)
    for column in (
        "set",
        "strategy",
        "right",
        "dependent",
        "after one pick (dep.)",
        "silent misses (dep.)",
        "offers on right",
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
            f"{row.right_after_pick} ({row.dependent_right_after_pick})",
            f"{row.silent_misses} ({row.dependent_silent_misses})",
            f"{row.offered_when_right}/{row.right}",
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
        console.print(Text.from_markup(mark) + Text(f"  {check.name}: {check.detail}"))


def print_spread(console: Console, rows: list[SeedSpread]) -> None:
    table = Table(title="across seeds: median (min-max)", show_lines=False)
    for column in ("set", "strategy", "seeds", "accuracy", "dependent accuracy"):
        table.add_column(column)
    for row in rows:
        low, high = row.spread
        dependent = "-"
        if row.dependent_median is not None and row.dependent_spread is not None:
            d_low, d_high = row.dependent_spread
            dependent = f"{row.dependent_median:.1%} ({d_low:.1%}-{d_high:.1%})"
        table.add_row(
            row.set,
            row.strategy,
            ",".join(map(str, row.seeds)),
            f"{row.median:.1%} ({low:.1%}-{high:.1%})",
            dependent,
        )
    console.print(table)


def print_misses(console: Console, outcomes: list[TurnOutcome]) -> None:
    for o in outcomes:
        if o.judged and not o.ok:
            calls = "".join(f"\n    · {escape(call)}" for call in o.calls)
            console.print(
                f"[red]✗[/] {turn_label(o)} ({o.strategy}) {escape(repr(o.text))}"
                f"{calls}\n    -> {escape(repr(o.reply))}\n    {escape(o.why)}",
                highlight=False,
                markup=True,
            )
