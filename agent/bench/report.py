"""The benchmark's results as JSON, a table, the targets, and a plot."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.bench.runner import RunResult

OVERHEAD_TARGET_MS = 5.0
MATPLOTLIB_HINT = (
    "--plot needs matplotlib, which is not installed: pip install matplotlib "
    "(or the project's optional extra: pip install 'math-agent[bench]')."
)

Results = dict[str, dict[str, RunResult]]  # scenario -> strategy -> result


@dataclass(frozen=True)
class Target:
    name: str
    goal: str
    measured: str
    met: bool | None  # None: not measured in this run (filtered out)

    def as_json(self) -> dict[str, Any]:
        return {"target": self.name, "goal": self.goal, "measured": self.measured, "met": self.met}


def net_vs_none(results: Results, scenario: str, strategy: str) -> float | None:
    runs = results[scenario]
    if "none" not in runs or not runs["none"].input_tokens:
        return None
    return runs[strategy].input_tokens / runs["none"].input_tokens


def weighted_vs_none(
    results: Results, scenario: str, strategy: str, cached_price: float
) -> float | None:
    """Input cost with repeated prefixes billed at `cached_price`, as a share of `none`'s
    input at full price (what a provider without a cache would bill for `none`)."""
    base = results.get(scenario, {}).get("none")
    run = results[scenario][strategy]
    if base is None or not base.input_tokens:
        return None
    return round(run.weighted_input(cached_price) / base.input_tokens, 4)


def floor_tokens(results: Results, scenario: str) -> int:
    runs = list(results[scenario].values())
    return runs[0].floor_input_tokens if runs else 0


def slope_per_task(run: RunResult, tasks: int) -> float:
    """Least-squares growth of the prompt, in tokens per task, over the session."""
    series = run.prompt_series
    if len(series) < 2 or tasks < 2:
        return 0.0
    xs = [i * tasks / len(series) for i in range(len(series))]
    return statistics.linear_regression(xs, series).slope


# Issue 10's targets, on the phrased sessions: the cheapest strategy that keeps every
# back-reference and memory probe, its input vs none at 30 and 100 tasks, and its growth;
# and the default strategy keeping everything on every scenario run.
PHRASED_TARGETS = {"long-30": 0.35, "long-100": 0.20}
PHRASED_GROWTH = 1.5


def keeps_everything(run: RunResult) -> bool:
    return run.retention == 1.0 and run.memory in (None, 1.0)


def _phrased_targets(results: Results) -> list[Target]:
    short, long = results.get("long-30", {}), results.get("long-100", {})
    keeps = [
        name
        for name in set(short) & set(long)
        if name != "none" and keeps_everything(short[name]) and keeps_everything(long[name])
    ]
    if not keeps:
        return []
    best = min(keeps, key=lambda n: net_vs_none(results, "long-100", n) or 1.0)
    found = []
    for scenario, limit in PHRASED_TARGETS.items():
        net = net_vs_none(results, scenario, best) or 1.0
        goal = f"cheapest strategy keeping every reference and probe <= {limit:.0%} of none"
        found.append(Target(f"tokens {scenario}", goal, f"{best}: {net:.1%}", net <= limit))
    ratio = long[best].peak_prompt_tokens / max(1, short[best].peak_prompt_tokens)
    goal = f"its peak prompt at 100 tasks <= {PHRASED_GROWTH}x its peak at 30"
    found.append(Target(f"growth {best}", goal, f"x{ratio:.2f}", ratio <= PHRASED_GROWTH))
    return found


# The defaults: the hosted providers' (the registry's) and the embedded model's.
EMBEDDED_DEFAULT = "window"


def _default_target(results: Results) -> list[Target]:
    from agent.context.registry import DEFAULT_STRATEGY

    found = []
    for default, who in ((EMBEDDED_DEFAULT, "embedded"), (DEFAULT_STRATEGY, "hosted")):
        runs = [(s, r[default]) for s, r in results.items() if default in r]
        if not runs:
            continue
        lost = [s for s, run in runs if not keeps_everything(run)]
        by_recall = sum(run.retained_by_recall for _, run in runs)
        measured = f"kept all on {len(runs) - len(lost)}/{len(runs)}" + (
            f" (lost on {', '.join(lost)})" if lost else ""
        )
        measured += f"; {by_recall} reference(s) reached by recall"
        goal = "keeps every reference and memory probe on every scenario"
        found.append(Target(f"default {who} ({default})", goal, measured, not lost))
    return found


def targets(results: Results, task_counts: dict[str, int]) -> list[Target]:
    found = [*_phrased_targets(results), *_default_target(results)]
    for name in sorted(set(results.get("long-30", {})) & set(results.get("long-100", {}))):
        slope = slope_per_task(results["long-100"][name], task_counts.get("long-100", 100))
        ratio = results["long-100"][name].peak_prompt_tokens / max(
            1, results["long-30"][name].peak_prompt_tokens
        )
        measured = f"peak x{ratio:.2f} (long-100 vs long-30), slope {slope:+.1f} tokens/task"
        found.append(Target(f"growth {name}", "report the slope", measured, None))
    overheads = [
        v for runs in results.values() for run in runs.values() for v in run.step_overhead_ms
    ]
    if overheads:
        median = statistics.median(overheads)
        found.append(
            Target(
                "agent overhead",
                f"median per LLM step < {OVERHEAD_TARGET_MS:g} ms (excl. model and SymPy)",
                f"{median:.2f} ms median, {max(overheads):.2f} ms max over {len(overheads)} turns",
                median < OVERHEAD_TARGET_MS,
            )
        )
    return found


def as_json(results: Results, task_counts: dict[str, int]) -> dict[str, Any]:
    scenarios: dict[str, Any] = {}
    for scenario, runs in results.items():
        floor = floor_tokens(results, scenario)
        scenarios[scenario] = {
            name: {
                "input_tokens": run.input_tokens,
                "output_tokens": run.output_tokens,
                "summarizer_input_tokens": run.summarizer_input_tokens,
                "summarizer_output_tokens": run.summarizer_output_tokens,
                "summarizer_share": (
                    run.summarizer_input_tokens / run.input_tokens if run.input_tokens else 0.0
                ),
                "llm_calls": run.llm_calls,
                "peak_prompt_tokens": run.peak_prompt_tokens,
                "retention": run.retention,
                "back_references": run.back_references,
                "kept_in_prompt": run.retained - run.retained_by_recall,
                "kept_by_recall": run.retained_by_recall,
                "recalls": run.recalls,
                "by_category": {
                    label: {"kept": kept, "total": total}
                    for label, (kept, total) in sorted(run.by_distance.items())
                },
                "memory": run.memory,
                "prefix_reuse": round(run.prefix_reuse, 4),
                "cost_cached_0_1_vs_none": weighted_vs_none(results, scenario, name, 0.1),
                "cost_cached_0_5_vs_none": weighted_vs_none(results, scenario, name, 0.5),
                "net_vs_none": net_vs_none(results, scenario, name),
                "floor_input_tokens": floor,
                "vs_floor": run.input_tokens / floor if floor else None,
                "compactions": run.compactions,
                "compaction_refusals": run.compaction_refusals,
                "overhead_median_ms": round(run.overhead_median_ms, 3),
                "overhead_p95_ms": round(run.overhead_p95_ms, 3),
                "errors": run.errors,
                "not_retained": run.lost,
                "memory_kept": None if run.memory_missing is None else not run.memory_missing,
                "prompt_tokens_per_call": run.prompt_series,
                "calls": run.calls,
            }
            for name, run in runs.items()
        }
    return {
        "scenarios": scenarios,
        "floor_input_tokens": {s: floor_tokens(results, s) for s in results},
        "targets": [t.as_json() for t in targets(results, task_counts)],
    }


def _cost_cell(results: Results, scenario: str, strategy: str) -> str:
    cheap = weighted_vs_none(results, scenario, strategy, 0.1)
    half = weighted_vs_none(results, scenario, strategy, 0.5)
    return "-" if cheap is None or half is None else f"{cheap:.0%}/{half:.0%}"


def _memory_cell(run: RunResult) -> str:
    if run.memory_missing is None:
        return "-"
    return "kept" if not run.memory_missing else "lost: " + ", ".join(run.memory_missing)


def print_table(
    results: Results, task_counts: dict[str, int], descriptions: dict[str, str]
) -> None:
    import sys

    from rich.console import Console
    from rich.table import Table

    # Piped output would be cut to 80 columns; the table needs about 140.
    console = Console() if sys.stdout.isatty() else Console(width=150)
    for scenario, runs in results.items():
        floor = floor_tokens(results, scenario)
        table = Table(
            title=f"{scenario}: {descriptions.get(scenario, '')}",
            caption=f"floor = system prompt + schema + the current task + the facts it needs, "
            f"summed over the MathChat calls: {floor:,} input tokens. summarizer in/out: its "
            "tokens (included in input/output) and its share of the input. peak: largest "
            "MathChat prompt. by distance: back-references kept, by how many tasks back they "
            "point. prefix reuse: share of MathChat prompt tokens repeating the previous "
            "request's start. cost @0.1/@0.5: input with that prefix billed at 10%/50%, vs "
            "none at full price.",
        )
        memory = any(run.memory_missing is not None for run in runs.values())
        for column in (
            "strategy", "input", "output", "summarizer in/out", "calls", "in/call", "peak",
            "retention", "by distance", "vs none", "prefix reuse", "cost @0.1/@0.5",
            "overhead/step", *(["memory"] if memory else []),
        ):  # fmt: skip
            table.add_column(column, justify="left" if column == "strategy" else "right")
        for name, run in runs.items():
            net = net_vs_none(results, scenario, name)
            table.add_row(
                name,
                f"{run.input_tokens:,}",
                f"{run.output_tokens:,}",
                f"{run.summarizer_input_tokens:,}/{run.summarizer_output_tokens:,}"
                + (
                    f" ={run.summarizer_input_tokens / run.input_tokens:.0%}"
                    if run.summarizer_input_tokens
                    else ""
                ),
                str(run.llm_calls),
                f"{run.input_tokens // max(1, run.llm_calls):,}",
                f"{run.peak_prompt_tokens:,}",
                f"{run.retention:.0%} ({run.retained}/{run.back_references}"
                + (f"; {run.retained_by_recall} by recall)" if run.retained_by_recall else ")"),
                " ".join(
                    f"{label.removesuffix(' back')}:{kept}/{total}"
                    for label, (kept, total) in sorted(run.by_distance.items())
                )
                or "-",
                "-" if net is None else f"{net:.1%}",
                f"{run.prefix_reuse:.0%}",
                _cost_cell(results, scenario, name),
                f"{run.overhead_median_ms:.2f} ms",
                *([_memory_cell(run)] if memory else []),
            )
        console.print(table)
        for name, run in runs.items():
            for problem in [*run.errors, *(f"not retained: {x}" for x in run.lost)][:5]:
                console.print(f"  {name}: {problem}", markup=False, highlight=False)
    checks = targets(results, task_counts)
    if checks:
        table = Table(title="targets")
        for column in ("target", "goal", "measured", "met"):
            table.add_column(column)
        for check in checks:
            met = {True: "[green]yes[/]", False: "[red]no[/]", None: "-"}[check.met]
            table.add_row(check.name, check.goal, check.measured, met)
        console.print(table)


def plot(results: Results, path: Path) -> bool:
    """Prompt tokens per MathChat call, one line per strategy; False if matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(
        len(results), 1, figsize=(10, 3.6 * len(results)), squeeze=False, constrained_layout=True
    )
    for axis, (scenario, runs) in zip(axes[:, 0], results.items(), strict=True):
        for index, (name, run) in enumerate(runs.items()):
            # Distinct dashes, so strategies that send the same prompts stay visible.
            style = ("-", "--", "-.", ":")[index % 4]
            xs = range(1, len(run.prompt_series) + 1)
            axis.plot(xs, run.prompt_series, linestyle=style, linewidth=1.4, label=name)
        first = next(iter(runs.values()), None)
        if first is not None:
            axis.plot(
                range(1, len(first.floor_series) + 1),
                first.floor_series,
                color="black",
                linewidth=0.6,
                label="floor",
            )
        axis.set_title(f"{scenario}: prompt tokens per MathChat call (summarizer calls not shown)")
        axis.set_xlabel("MathChat call")
        axis.set_ylabel("prompt tokens")
        axis.legend()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True
