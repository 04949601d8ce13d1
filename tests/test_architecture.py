"""The house rules a newcomer relies on, checked: layers, no probes, small modules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.import_graph import cycles, module_graph, package_graph, strongly_connected

ROOT = Path(__file__).resolve().parents[1]
MAX_MODULE_LINES = 500  # baml_client/ is generated and not checked


def test_no_package_level_import_cycle() -> None:
    graph = package_graph()
    assert "agent.core" in graph and "agent.context" in graph  # the graph was really built
    assert cycles(graph) == []


@pytest.mark.parametrize("root", ["agent", "tools"])
def test_no_module_level_import_cycle(root: str) -> None:
    """Inside a package too: no module imports itself back through others, lazy imports and
    type-checking imports included (a cycle there breaks as soon as one import moves up)."""
    graph = module_graph(root)
    assert len(graph) > 10  # the graph was really built
    assert strongly_connected(graph) == []


def test_the_cycle_finder_finds_module_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert strongly_connected(graph) == [["a", "b", "c"], ["e"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


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
