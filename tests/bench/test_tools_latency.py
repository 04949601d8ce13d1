"""pytest-benchmark runs for the two hot tools (correctness asserted, never timing)."""

from __future__ import annotations

import json

import pytest
import sympy as sp

import tools
from agent.bench import tools_latency as bench

x = sp.Symbol("x")


@pytest.fixture(scope="module", autouse=True)
def _warm_worker() -> None:
    tools.warm_up(wait=True)


def test_benchmark_solve_quadratic(benchmark) -> None:
    result = benchmark(tools.solve, "x^2 + 5x + 6 = 0")
    assert result.ok and result.value == [-3, -2]


def test_benchmark_first_derivative(benchmark) -> None:
    result = benchmark(tools.derivative, "3x^2 - 5x + 2")
    assert result.ok and result.value == 6 * x - 5


def test_bench_run_reports_every_tool(capsys: pytest.CaptureFixture[str]) -> None:
    report = bench.run(cases=2, repeat=1, check_timeout=False)
    assert set(report["tools"]) == {"solve_quadratic", "derivative_first", "evaluate", "integral"}
    for row in report["tools"].values():
        assert row["calls"] == 2 and not row["failures"]
        assert row["median_ms"] > 0 and row["p99_ms"] >= row["median_ms"]
    assert "solve_quadratic" in capsys.readouterr().out


def test_bench_main_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench.main(["--json", "--repeat", "1", "--cases", "1", "--timeout-limit", "1"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["timeout"]["stopped"] and report["timeout"]["next_call_ok"]
    assert report["timeout"]["overshoot_ratio"] >= 1.0
