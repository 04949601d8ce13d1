"""`math-agent bench context`: token cost and retention of each context strategy.

Scripted scenarios run through the real agent loop, the real BAML prompts and client (HTTP to
a local scripted server) and the real SymPy tools, once per strategy; the scripted model
behaves identically for every strategy, so the differences are the strategies' alone. See
`scenarios` (what is asked), `scripted` (the stand-in LLM), `runner` (what is measured and
how) and `report` (targets, table, JSON, plot).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("BAML_LOG", "error")  # before baml_client is imported (see agent/cli.py)


# Strategies measured by default: every registered one, plus the facts memory on two of them.
FACTS_VARIANTS = ("structural+facts", "budget+facts")
# Memory scenarios (agent/memory/scenarios.py) run by default; fleet-12 on request.
DEFAULT_MEMORY_SCENARIOS = ("fleet-40", "decimals-50")


def build_parser() -> argparse.ArgumentParser:
    from agent.bench.catalog import SCENARIOS
    from agent.bench.memory_scenarios import MEMORY_SCENARIOS
    from agent.context.registry import STRATEGIES

    parser = argparse.ArgumentParser(
        prog="math-agent bench context",
        description="Input/output tokens, peak prompt and retention of each context strategy "
        "on scripted conversations (offline, deterministic).",
    )
    parser.add_argument(
        "--scenario",
        action="append",
        choices=[*SCENARIOS, *MEMORY_SCENARIOS],
        help="run only this scenario (repeatable; default: all but fleet-12)",
    )
    parser.add_argument(
        "--strategy",
        action="append",
        choices=[*STRATEGIES, *FACTS_VARIANTS],
        help="run only this strategy (repeatable; default: all; 'none' is the baseline "
        "the savings are measured against)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the generated long-N sessions (default: the fixed benchmark seed); "
        "try a few to see how much the results depend on the task mix",
    )
    parser.add_argument(
        "--scenario-file",
        action="append",
        type=Path,
        metavar="FILE",
        help="run your own scenarios: a JSON file or a Python module with SCENARIOS (format: "
        "agent/bench/scenario_file.py and the README); repeatable; with it, only --scenario "
        "names are added to them",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--plot", type=Path, metavar="FILE.png", help="plot prompt tokens per call (matplotlib)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 0 on success, 1 if a run hit an error (script miss, failed turn).

    A strategy that cannot be built here (one needing an optional extra) is skipped, and said
    so, rather than failing the whole benchmark.
    """
    args = build_parser().parse_args(argv)
    from agent.bench.catalog import SCENARIOS
    from agent.bench.memory_scenarios import MEMORY_SCENARIOS, memory_retention
    from agent.bench.report import MATPLOTLIB_HINT, as_json, plot, print_table
    from agent.bench.runner import RunResult, run_scenario
    from agent.bench.scenario_file import ScenarioFileError, load_scenarios
    from agent.bench.scenarios import DEFAULT_SEED, Scenario
    from agent.context.registry import STRATEGIES, make_strategy

    seed = DEFAULT_SEED if args.seed is None else args.seed
    outside: dict[str, Scenario] = {}
    for path in args.scenario_file or []:
        try:
            outside.update({s.name: s for s in load_scenarios(path)})
        except ScenarioFileError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    default_names = [] if outside else [*SCENARIOS, *DEFAULT_MEMORY_SCENARIOS]
    scenario_names = [*(args.scenario or default_names), *outside]
    strategy_names: list[str] = []
    skipped: dict[str, str] = {}
    for name in args.strategy or [*STRATEGIES, *FACTS_VARIANTS]:
        try:
            make_strategy(name)  # one that needs an optional extra says so here
        except Exception as exc:
            skipped[name] = f"{type(exc).__name__}: {exc}"
            print(f"skipping strategy {name}: {skipped[name]}", file=sys.stderr)
        else:
            strategy_names.append(name)
    results: dict[str, dict[str, RunResult]] = {}
    task_counts: dict[str, int] = {}
    descriptions: dict[str, str] = {}
    for scenario_name in scenario_names:
        memory = MEMORY_SCENARIOS[scenario_name]() if scenario_name in MEMORY_SCENARIOS else None
        if scenario_name in outside:
            scenario = outside[scenario_name]
        else:
            scenario = memory.scenario if memory else SCENARIOS[scenario_name](seed)
        task_counts[scenario_name] = len(scenario.tasks)
        descriptions[scenario_name] = scenario.description
        results[scenario_name] = {}
        for strategy_name in strategy_names:
            if not args.json:
                print(f"running {scenario_name} with {strategy_name}...", file=sys.stderr)
            results[scenario_name][strategy_name] = run_scenario(
                scenario,
                strategy_name,
                user_facts=memory.user_facts if memory else None,
                memory_probe=(lambda requests, m=memory: memory_retention(m, requests))
                if memory
                else None,
            )
    if args.json:
        report = as_json(results, task_counts)
        if skipped:
            report["skipped_strategies"] = skipped
        print(json.dumps(report, indent=2))
    else:
        print_table(results, task_counts, descriptions)
    if args.plot is not None:
        if plot(results, args.plot):
            print(f"plot written to {args.plot}", file=sys.stderr)
        else:
            print(MATPLOTLIB_HINT, file=sys.stderr)
    failed = any(run.errors for runs in results.values() for run in runs.values())
    return 1 if failed else 0


__all__ = ["main"]
