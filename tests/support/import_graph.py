"""The import graphs of agent/ and tools/: per package (drawn as Mermaid in
docs/architecture.md) and per module (where no cycle may hide inside a package).

`python -m tests.support.import_graph` prints the package graph; `package_graph()` and
`module_graph()` are what the architecture test reads. Static: grimp parses the sources,
nothing is imported or run, and every import counts, a lazy one inside a function or one
under `if TYPE_CHECKING:` included. Top-level modules of agent/ (messages, wire, errors,
processes) count as packages of their own.
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


def module_graph(root: str) -> dict[str, set[str]]:
    """{module: modules of `root` it imports}, for every module of `root` (a package's
    `__init__` is the package's own name)."""
    graph = grimp.build_graph(root, exclude_type_checking_imports=False)
    return {
        module: {
            target
            for target in graph.find_modules_directly_imported_by(module)
            if target == root or target.startswith(root + ".")
        }
        for module in graph.modules
    }


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of two or more nodes that import each other, directly or round a circle,
    and every node that imports itself (Tarjan's algorithm, iterative); empty: no cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph.get(node, ()):
                    groups.append(sorted(group))
    return sorted(groups)


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
