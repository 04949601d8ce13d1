"""The house rules a newcomer relies on, checked: layers, no probes, small modules."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.import_graph import cycles, package_graph

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 500  # baml_client/ is generated and not checked


def test_no_package_level_import_cycle() -> None:
    graph = package_graph()
    assert "agent.core" in graph and "agent.context" in graph  # the graph was really built
    assert cycles(graph) == []


def test_nothing_imports_the_app() -> None:
    graph = package_graph()
    importers = sorted(p for p, targets in graph.items() if "agent.app" in targets)
    assert importers == []


def test_no_getattr_probe_of_a_strategy() -> None:
    probe = re.compile(r"getattr\([^)]*strateg", re.IGNORECASE)
    offenders = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in (ROOT / "agent").rglob("*.py")
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if probe.search(line)
    ]
    assert offenders == []


def test_no_module_over_the_size_limit() -> None:
    too_long = {}
    for folder in ("agent", "tools", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_MODULE_LINES:
                too_long[relative] = lines
    assert too_long == {}
