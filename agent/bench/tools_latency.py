"""Latency benchmark for the tools, as the agent sees them (worker round trip included).

Why: the agent calls a tool on most turns, so the common case (quadratics, first derivatives)
must stay well under the LLM's own latency, and the wall-clock limit must really hold.
Run with ``math-agent bench tools [--json] [--repeat N]`` or
``python -c "import agent.bench.tools_latency as b; b.main([])"``.

Reported per tool: median and p99 latency in ms over a fixed, deterministic case set (all
passes, and the first pass alone, before SymPy's cache has seen the case; the targets use the
stricter first-pass median). The
timeout check runs an integral SymPy cannot finish with a short limit and reports
``elapsed / limit`` (the overshoot ratio; target ≤ 1.10) and how long the next call took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from tools import api, worker
from tools.result import ToolResult

TARGET_MEDIAN_MS = 30.0
TARGET_OVERSHOOT = 1.10
#: SymPy's integrator runs for minutes on this (measured: far beyond 60 s).
SLOW_INTEGRAND = "sin(x^2 + 1/x) * e^(x^3) * log(x + sqrt(x))"


def _quadratics() -> list[tuple[Any, ...]]:
    out = []
    for i in range(24):
        a = (1, 2, 3, -1, 5)[i % 5]
        b = (i * 7) % 19 - 9
        c = (i * 5) % 17 - 8
        out.append((f"{a}x^2 + {b}x + {c} = 0",))
    return out


def _derivatives() -> list[tuple[Any, ...]]:
    bodies = [
        "3x^2 - 5x + 2",
        "x^3 sin(x)",
        "e^(2x) cos(x)",
        "ln(x^2 + 1)",
        "sqrt(x^2 + 4)",
        "(x + 1)/(x - 1)",
        "x^4 - 2x^3 + x",
        "sin(3x) + cos(2x)",
        "x e^(-x)",
        "tan(x)",
        "atan(x^2)",
        "t^2 - 4t",
        "x^5 + 3x^2 - 7",
        "sin(x) cos(x)",
        "exp(x^2)",
        "1/(x^2 + 1)",
        "x^2 ln(x)",
        "cos(x)^3",
        "(2x + 3)^4",
        "sqrt(x) + 1/x",
        "theta^2 sin(theta)",
        "5x - 3",
        "sinh(x)",
        "x^(3/2)",
    ]
    return [(body,) for body in bodies]


def _evaluations() -> list[tuple[Any, ...]]:
    return [
        ("x^2 + 3x - 4", "2"),
        ("sin(x)", "pi/6"),
        ("sqrt(x) + 1", "9"),
        ("x^3 - x", "-1/2"),
        ("e^x", "0"),
        ("x y + 1", "x=2, y=3"),
        ("(x + 1)/(x - 1)", "3"),
        ("cos(x)^2", "pi/4"),
        ("ln(x)", "e"),
        ("2^x", "10"),
        ("x^2 - 2", "sqrt(2)"),
        ("1/x", "3/4"),
        ("x^4", "-2"),
        ("atan(x)", "1"),
        ("(x^2 + 1)/(x + 2)", "1/3"),
        ("cos(2x)", "pi/3"),
        ("x^3 + x", "2/5"),
        ("|x - 5|", "2"),
        ("x!", "6"),
        ("log(x, 2)", "8"),
    ]


def _integrals() -> list[tuple[Any, ...]]:
    return [
        ("x^2",),
        ("3x^2 + 2x", None, "0", "1"),
        ("sin(x)",),
        ("e^(2x)",),
        ("1/x",),
        ("x e^x",),
        ("cos(x)", None, "0", "pi"),
        ("1/(1 + x^2)", None, "-oo", "oo"),
        ("e^(-x)", None, "0", "oo"),
        ("x^3 - x",),
    ]


CASE_SETS: dict[str, tuple[Callable[..., ToolResult], Callable[[], list[tuple[Any, ...]]]]] = {
    "solve_quadratic": (api.solve, _quadratics),
    "derivative_first": (api.derivative, _derivatives),
    "evaluate": (api.evaluate, _evaluations),
    "integral": (api.integral, _integrals),
}
TARGETED = ("solve_quadratic", "derivative_first")


def _percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (p99 of 20 samples is the maximum)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(pct / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def _time_tool(
    func: Callable[..., ToolResult], cases: list[tuple[Any, ...]], repeat: int
) -> dict[str, Any]:
    """All passes together, and the first pass alone (before SymPy's cache has seen a case)."""
    samples: list[float] = []
    first: list[float] = []
    failures: list[str] = []
    for rep in range(repeat):
        for args in cases:
            start = time.perf_counter()
            result = func(*args)
            elapsed = (time.perf_counter() - start) * 1000
            samples.append(elapsed)
            if rep == 0:
                first.append(elapsed)
                if not result.ok:
                    failures.append(f"{args}: {result.error}")
    return {
        "calls": len(samples),
        "median_ms": round(statistics.median(samples), 2),
        "p99_ms": round(_percentile(samples, 99), 2),
        "mean_ms": round(statistics.fmean(samples), 2),
        "first_pass_median_ms": round(statistics.median(first), 2),
        "first_pass_p99_ms": round(_percentile(first, 99), 2),
        "failures": failures,
    }


def timeout_check(limit: float = 2.0) -> dict[str, Any]:
    """Run a never-ending integral under ``limit`` seconds; report overshoot and recovery."""
    start = time.perf_counter()
    result = api.integral(SLOW_INTEGRAND, timeout=limit)
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    after = api.solve("x^2 - 4 = 0")
    recovery = time.perf_counter() - start
    return {
        "limit_s": limit,
        "elapsed_s": round(elapsed, 3),
        "overshoot_ratio": round(elapsed / limit, 3),
        "stopped": (not result.ok) and "took too long" in (result.error or ""),
        "next_call_ok": after.ok,
        "next_call_ms": round(recovery * 1000, 1),
    }


def run(
    cases: int | None = None,
    json_output: bool = False,
    repeat: int = 3,
    check_timeout: bool = True,
    timeout_limit: float = 2.0,
) -> dict[str, Any]:
    """Benchmark every tool; print a table (or JSON) and return the numbers as a dict.

    ``cases`` caps the number of cases per tool (None: the whole fixed set).
    """
    start = time.perf_counter()
    worker.warm_up(wait=True)
    startup_ms = (time.perf_counter() - start) * 1000
    for func, make in CASE_SETS.values():  # warm SymPy's caches and imports once
        func(*make()[0])
    report: dict[str, Any] = {"worker_start_ms": round(startup_ms, 1), "tools": {}}
    for name, (func, make) in CASE_SETS.items():
        chosen = make()[: cases or None]
        report["tools"][name] = _time_tool(func, chosen, max(1, repeat))
    targets: dict[str, bool] = {
        f"{name}_median_under_{TARGET_MEDIAN_MS:g}ms": report["tools"][name]["first_pass_median_ms"]
        < TARGET_MEDIAN_MS
        for name in TARGETED
    }
    if check_timeout:
        report["timeout"] = timeout_check(timeout_limit)
        targets[f"timeout_overshoot_under_{TARGET_OVERSHOOT:g}"] = (
            report["timeout"]["stopped"]
            and report["timeout"]["overshoot_ratio"] <= TARGET_OVERSHOOT
        )
    report["targets"] = targets
    report["all_targets_met"] = all(targets.values())
    if json_output:
        print(json.dumps(report, indent=2))
    else:
        print(_table(report))
    return report


def _table(report: dict[str, Any]) -> str:
    lines = [f"worker start: {report['worker_start_ms']:.0f} ms", ""]
    lines.append(
        f"{'tool':<18}{'calls':>7}{'median ms':>11}{'p99 ms':>9}{'mean ms':>9}"
        f"{'1st-pass median':>17}{'1st-pass p99':>14}  failures"
    )
    for name, row in report["tools"].items():
        lines.append(
            f"{name:<18}{row['calls']:>7}{row['median_ms']:>11.2f}{row['p99_ms']:>9.2f}"
            f"{row['mean_ms']:>9.2f}{row['first_pass_median_ms']:>17.2f}"
            f"{row['first_pass_p99_ms']:>14.2f}  {len(row['failures'])}"
        )
    if "timeout" in report:
        t = report["timeout"]
        lines += [
            "",
            f"timeout: limit {t['limit_s']:g} s, stopped after {t['elapsed_s']:.3f} s "
            f"(overshoot ratio {t['overshoot_ratio']:.3f}); stopped={t['stopped']}, "
            f"next call ok={t['next_call_ok']} in {t['next_call_ms']:.0f} ms",
        ]
    lines.append("")
    for target, met in report["targets"].items():
        lines.append(f"{'PASS' if met else 'MISS'}  {target}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """CLI entry: ``math-agent bench tools [--json] [--repeat N] [--cases N] [--strict]``."""
    parser = argparse.ArgumentParser(prog="math-agent bench tools", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the case set (3)")
    parser.add_argument("--cases", type=int, default=None, help="cases per tool (all)")
    parser.add_argument(
        "--timeout-limit", type=float, default=2.0, help="limit for the timeout check (2 s)"
    )
    parser.add_argument("--no-timeout-check", action="store_true", help="skip the timeout check")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    report = run(
        cases=args.cases,
        json_output=args.json,
        repeat=args.repeat,
        check_timeout=not args.no_timeout_check,
        timeout_limit=args.timeout_limit,
    )
    failures = sum(len(row["failures"]) for row in report["tools"].values())
    if failures:
        print(f"{failures} benchmark call(s) failed", file=sys.stderr)
    if args.strict and (failures or not report["all_targets_met"]):
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
