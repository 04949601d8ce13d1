"""Prints the pass rate of the generated correctness suite at the end of a run."""

from __future__ import annotations

import pytest

_outcomes: dict[str, int] = {"passed": 0, "failed": 0}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "test_generated_case[" not in report.nodeid:
        return
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        _outcomes["passed" if report.outcome == "passed" else "failed"] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    total = _outcomes["passed"] + _outcomes["failed"]
    if total:
        rate = 100 * _outcomes["passed"] / total
        terminalreporter.write_line(
            f"tools correctness suite: {_outcomes['passed']}/{total} generated cases passed "
            f"({rate:.1f}%)"
        )
