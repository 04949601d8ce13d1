"""`math-agent eval`: the question sets through the real agent on the configured model.

Offline figures come from scripted models that are always right; what people run is a small
local model that is not. This plays the sets (reference, and the `--part` of single,
sessions and problems, generated for `--seed` or each of `--seeds`) through the same runtime as `chat` — the
embedded model unless another provider is configured — with a progress bar, then prints a
table (or `--json`) and exits 1 when a target is missed, so CI can gate on it (`--subset ci`,
a fixed small part of the test part of seed 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agent.app.eval_tables import print_misses, print_spread, print_table, turn_label
from agent.app.render import readable
from agent.app.repl import run_supervised
from agent.context.registry import STRATEGIES, make_strategy
from agent.core.loop import Agent, TurnResult
from agent.display.pretty import RAW_MARKERS
from agent.errors import AgentError
from agent.eval.cases import (
    CI_PART,
    CI_SEED,
    CI_SETS,
    DEFAULT_PART,
    DEFAULT_SEED,
    PARTED_SETS,
    PARTS,
    SETS,
    EvalCase,
    load_file,
    subset,
)
from agent.eval.generate import make_cases
from agent.eval.rejudge import rejudged
from agent.eval.report import (
    TargetCheck,
    check_floors,
    check_targets,
    figures,
    spread,
)
from agent.eval.runner import TurnOutcome, TurnRunner, run_cases
from agent.llm.local.start_state import ConversationStart, StartStateError
from agent.llm.model import BamlMathModel
from agent.runtime.single import Runtime, RuntimeOptions, build_runtime, choose_strategy

# Sessions are played once per strategy; these unless --strategy says otherwise.
SESSION_STRATEGIES = ("none", "window", "ledger")


@dataclass(frozen=True)
class Plan:
    """Which cases of which set (part and seed), with which strategies."""

    set_name: str
    cases: list[EvalCase]
    strategies: list[str]
    seed: int = DEFAULT_SEED
    part: str | None = None

    @property
    def turns(self) -> int:
        return sum(len(c.turns) for c in self.cases) * len(self.strategies)


def seeds_of(args: argparse.Namespace) -> list[int]:
    """The seeds to play: `--seeds`, else `--seed` (CI's subset: its own fixed seed)."""
    if args.subset == "ci":
        return [CI_SEED]
    return args.seeds or [args.seed]


def make_plans(args: argparse.Namespace, default_strategy: str) -> list[Plan]:
    """Every set for every seed; `reference` has no seed and is played once; `--file` cases
    once (with the first seed), alone unless `--set` is given too."""
    part = CI_PART if args.subset == "ci" else args.part
    plans = []
    for name, cases in args.files:
        if cases := _narrowed(args, cases):
            plans.append(Plan(name, cases, args.strategy or [default_strategy], seeds_of(args)[0]))
    built_in = args.set or ([] if args.file else list(SETS))
    for index, seed in enumerate(seeds_of(args)):
        for set_name in built_in:
            parted = set_name in PARTED_SETS
            if (not parted and index) or (args.subset == "ci" and set_name not in CI_SETS):
                continue
            cases = make_cases(set_name, part if parted else None, seed)
            if args.subset == "ci":
                cases = subset(set_name, cases)
            cases = _narrowed(args, cases)
            if args.case and not cases:
                continue
            if set_name == "sessions" and args.subset != "ci":
                strategies = args.strategy or _session_strategies(default_strategy)
            else:
                strategies = args.strategy[:1] if args.strategy else [default_strategy]
            plans.append(Plan(set_name, cases, strategies, seed, part if parted else None))
    return plans


def _narrowed(args: argparse.Namespace, cases: list[EvalCase]) -> list[EvalCase]:
    """`--limit`'s first cases, and `--case`'s named ones (one dev miss played again in
    minutes, not the whole set)."""
    if args.limit is not None:
        cases = cases[: args.limit]
    return [c for c in cases if c.name in args.case] if args.case else cases


def unmatched_cases(args: argparse.Namespace, plans: list[Plan]) -> list[str]:
    """The `--case` names no plan plays (a typo, or a case of another set, part or seed)."""
    played = {case.name for plan in plans for case in plan.cases}
    return [name for name in args.case or [] if name not in played]


def _session_strategies(default_strategy: str) -> list[str]:
    return list(dict.fromkeys([*SESSION_STRATEGIES, default_strategy]))


def supervised(runtime: Runtime, console: Console) -> TurnRunner:
    """The REPL's supervised turn: a dead embedded server is restarted, said in one line,
    and the turn retried once."""

    def run(agent: Agent, text: str) -> TurnResult:
        return run_supervised(runtime, text, console.print, agent=agent)

    return run


class SlotReset:
    """Before each case, the embedded server's slot is put back to one saved start
    (agent.llm.local.start_state), so a case's replies do not depend on the cases before it.
    Other providers, or a server that cannot save its slot: nothing is done, said once."""

    def __init__(self, runtime: Runtime, console: Console) -> None:
        self.runtime = runtime
        self.console = console
        self.starts: dict[str, ConversationStart] = {}
        self.failed: str | None = None

    @property
    def state(self) -> str:
        """For the run's JSON: how each conversation started."""
        if self.failed is not None:
            return f"after the previous conversation ({self.failed})"
        return "from the saved start" if self.starts else "not applicable (no embedded server)"

    def __call__(self) -> None:
        server, model = self.runtime.local_server, self.runtime.agent.model
        if server is None or self.failed is not None or not isinstance(model, BamlMathModel):
            return
        start = self.starts.get(server.root_url)
        if start is None:  # a restarted server has a new address and no saved state
            start = ConversationStart(
                server.root_url, lambda: model.request_body([]), server.saved_states, server.key
            )
            self.starts[server.root_url] = start
        try:
            start.restore()
        except StartStateError as exc:
            self.failed = str(exc)
            self.console.print(
                "The embedded server could not save its slot: each case starts after the one "
                "before it, as in the REPL (results may then depend on the order of cases)."
            )


def play(
    plans: list[Plan], runtime: Runtime, console: Console, reset: Callable[[], None] = lambda: None
) -> dict[int, list[TurnOutcome]]:
    """Every plan's turns, by seed; `reset` runs before each case."""
    model = runtime.agent.model

    def new_agent(strategy: str) -> Agent:
        reset()
        return Agent(
            model,
            make_strategy(strategy),
            max_tool_steps=runtime.agent.max_tool_steps,
            aids=runtime.agent.aids,
        )

    outcomes: dict[int, list[TurnOutcome]] = {}
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
                where = f"{plan.set_name}-{plan.part}" if plan.part else plan.set_name
                bar.update(task, description=f"{where} · seed {plan.seed} · {strategy}")
                outcomes.setdefault(plan.seed, []).extend(
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


def raw_math_shown(outcomes: list[TurnOutcome]) -> list[TurnOutcome]:
    """Turns whose answer, as the terminal renders it, still shows `**` or LaTeX."""
    return [o for o in outcomes if any(mark in readable(o.reply) for mark in RAW_MARKERS)]


def readable_math_check(raw: list[TurnOutcome]) -> TargetCheck:
    """Issue 29's target: no rendered answer of the run shows raw LaTeX or Python powers."""
    where = ", ".join(turn_label(o) for o in raw[:3])
    marks = ", ".join(RAW_MARKERS[:-1]) + " or " + RAW_MARKERS[-1]
    return TargetCheck(
        f"no rendered answer shows {marks}",
        not raw,
        f"{len(raw)} shown" + (f" ({where}{', ...' if len(raw) > 3 else ''})" if raw else ""),
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
    parser.add_argument(
        "--part",
        choices=PARTS,
        default=DEFAULT_PART,
        help="which part of single, sessions and problems: dev (read its misses freely) or test "
        "(report it; never read its misses to write code); default: %(default)s",
    )
    seeds = parser.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, help=f"draws the cases; default: {DEFAULT_SEED}")
    seeds.add_argument(
        "--seeds",
        type=_seed_list,
        metavar="N,N,...",
        help="play each seed; report each one and the median and spread (min-max)",
    )
    parser.add_argument(
        "--subset", choices=["ci"], help="a fixed small part of the test part, seed 1 (CI)"
    )
    parser.add_argument("--limit", type=int, help="the first N cases of each set")
    parser.add_argument(
        "--case",
        action="append",
        metavar="NAME",
        help="repeatable: only this case (a name the run prints, e.g. sessions-dev-1-06)",
    )
    parser.add_argument(
        "--file",
        action="append",
        type=Path,
        metavar="CASES.json",
        help="repeatable: play your own cases (the schema of agent/eval/data/*.json), "
        "reported under the file's name; alone unless --set is given too",
    )
    parser.add_argument("--provider", default=None, help="as for chat (default: auto)")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint")
    parser.add_argument("--model", help="model name sent to the endpoint")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", type=Path, help="also write the JSON, every turn included")
    parser.add_argument("--misses", action="store_true", help="list every wrong answer")
    parser.add_argument(
        "--rejudge",
        type=Path,
        metavar="RUN.json",
        help="judge a run saved with --out again, with today's judge (no model needed)",
    )
    return parser


def _seed_list(text: str) -> list[int]:
    try:
        seeds = [int(piece) for piece in text.split(",") if piece.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of seeds like 1,2,3: {text!r}") from None
    if not seeds or len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"give distinct seeds like 1,2,3: {text!r}")
    return seeds


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.subset == "ci" and (
        args.seeds or args.part != CI_PART or args.seed not in (None, CI_SEED)
    ):
        parser.error(f"--subset ci is always the {CI_PART} part of seed {CI_SEED}")
    try:  # read before the model loads: a wrong file is one sentence, at once
        args.files = [load_file(path) for path in args.file or []]
    except ValueError as error:
        parser.error(str(error))
    if args.seed is None:
        args.seed = DEFAULT_SEED
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.rejudge is not None:
        return _rejudge(args)
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
        if unmatched := unmatched_cases(args, plans):
            print(
                f"No case named {', '.join(unmatched)} in the sets, part and seeds asked for.",
                file=sys.stderr,
            )
            return 2
        reset = SlotReset(runtime, console)
        by_seed = play(plans, runtime, console, reset)
        describe = runtime.provider.describe()
    finally:
        runtime.close()
    outcomes = [o for seed_outcomes in by_seed.values() for o in seed_outcomes]
    rows = figures(outcomes)
    per_seed = {seed: figures(seed_outcomes) for seed, seed_outcomes in by_seed.items()}
    spreads = spread(per_seed) if len(per_seed) > 1 else []
    raw = raw_math_shown(outcomes)
    checks = [*check_targets(rows, default_strategy), readable_math_check(raw)]
    # The CI subset gates on its floors; a full run reports the targets.
    gate = check_floors(rows, default_strategy) if args.subset == "ci" else checks
    summary = {
        "provider": describe,
        "default_strategy": default_strategy,
        "subset": args.subset,
        "part": _part_played(args),
        "seeds": list(per_seed),
        "figures": [row.to_dict() for row in rows],
        "per_seed": {str(seed): [row.to_dict() for row in r] for seed, r in per_seed.items()},
        "spread": [row.to_dict() for row in spreads],
        "targets": [{"name": c.name, "met": c.met, "detail": c.detail} for c in checks],
        "gate": [{"name": c.name, "met": c.met, "detail": c.detail} for c in gate],
        "raw_math_shown": [turn_label(o) for o in raw],
        "conversation_start": reset.state,
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
        played = f"part {summary['part']}; seeds {summary['seeds']}" if summary["part"] else "files"
        out.print(f"provider: {describe}; {played}")
        if spreads:
            for seed, seed_rows in per_seed.items():
                print_table(out, seed_rows, [], title=f"seed {seed}")
            print_spread(out, spreads)
            out.print("all seeds together:")
        print_table(out, rows, checks if gate is checks else [*checks, *gate])
        if args.misses:
            print_misses(out, outcomes)
    return 0 if all(c.met for c in gate) else 1


def _part_played(args: argparse.Namespace) -> str | None:
    """The part of the built-in sets played; None when only `--file` cases were."""
    if args.file and not args.set:
        return None
    return CI_PART if args.subset == "ci" else args.part


def _rejudge(args: argparse.Namespace) -> int:
    """`--rejudge RUN.json`: the saved replies judged again; the figures printed (and the
    run with its new verdicts written to `--out`)."""
    try:
        saved = json.loads(args.rejudge.read_text(encoding="utf-8"))
        outcomes = rejudged(saved)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"Cannot judge {args.rejudge} again: {error}", file=sys.stderr)
        return 2
    rows = figures(outcomes)
    changed = sum(old["ok"] != new.ok for old, new in zip(saved["turns"], outcomes, strict=True))
    if args.out is not None:
        turns = [o.to_dict() for o in outcomes]
        stale = ("per_seed", "spread", "targets", "gate")  # of the old verdicts
        summary = {k: v for k, v in saved.items() if k not in stale}
        summary.update(figures=[row.to_dict() for row in rows], rejudged=True, turns=turns)
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps({"figures": [row.to_dict() for row in rows], "changed": changed}))
    else:
        out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
        out.print(f"{args.rejudge}: judged again, {changed} verdicts changed")
        print_table(out, rows, [])
        if args.misses:
            print_misses(out, outcomes)
    return 0
