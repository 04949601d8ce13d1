"""The package-level import graph of agent/, drawn as Mermaid (docs/architecture.md).

`python -m tests.support.import_graph` prints it; `package_graph()` is what the layering
test reads. Static: grimp parses the sources, nothing is imported or run. Top-level modules
of agent/ (messages, wire, errors, processes) count as packages of their own.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import grimp


def _package(module: str, depth: int = 2) -> str:
    return ".".join(module.split(".")[:depth])


def package_graph(root: str = "agent") -> dict[str, set[str]]:
    """{package: packages it imports}, for the packages one level below `root`."""
    graph = grimp.build_graph(root)
    edges: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        source = _package(module)
        edges.setdefault(source, set())
        for imported in graph.find_modules_directly_imported_by(module):
            target = _package(imported)
            if target != source and target.startswith(root + "."):
                edges[source].add(target)
    return dict(edges)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every package that can reach itself, with one path back (empty: no cycle)."""
    found: list[list[str]] = []
    for start in sorted(graph):
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        seen: set[str] = set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    found.append([*path, start])
                    stack.clear()
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    return found


def mermaid(graph: dict[str, set[str]]) -> str:
    lines = ["graph TD"]
    for source in sorted(graph):
        for target in sorted(graph[source]):
            lines.append(f"  {source.split('.', 1)[1]} --> {target.split('.', 1)[1]}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.path.insert(0, ".")
    print(mermaid(package_graph()))
