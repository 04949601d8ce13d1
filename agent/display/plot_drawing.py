"""`/plot`'s drawings: the chart in the terminal (plotext) and the image file (matplotlib).

Why plotext: a maintained terminal plotting library with no dependencies of its own (lines
drawn at sub-character resolution, colours, a legend), whose chart is a string rich can
print. matplotlib (the optional `bench` extra) is imported only by `save_image`, which says how to
install it when it is missing.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from agent.display.plotting import Mark, MarkKind, Plot, PlotError
from agent.display.pretty import pretty

IMAGE_SUFFIXES = (".png", ".svg", ".pdf")
MATPLOTLIB_HINT = (
    "Saving a plot needs matplotlib, which is not installed: pip install matplotlib "
    "(or the project's optional extra: pip install 'math-agent[bench]')."
)
ROOT_MARKER = "●"
POINT_MARKER = "◆"
CRITICAL_MARKER = "▲"
# Each kind of mark: its terminal glyph, its matplotlib marker, and its words in a legend.
MARK_STYLES: tuple[tuple[MarkKind, str, str, str], ...] = (
    ("root", ROOT_MARKER, "o", "roots"),
    ("point", POINT_MARKER, "D", "points"),
    ("critical", CRITICAL_MARKER, "^", "critical points"),
)


def terminal_chart(plot: Plot, width: int = 80, height: int = 20, color: bool = True) -> str:
    """The plot as terminal text (ANSI colours unless `color` is False). One curve is named
    in the title; several get a legend in the emptiest corner. The marks are explained by
    `marks_summary`, printed under the chart."""
    import plotext

    width, height = max(40, width), max(10, height)
    figure = plotext.figure
    figure.clear()
    figure.theme("simple")
    several = len(plot.curves) > 1
    for curve in plot.curves:
        pieces = plot.segments(curve)
        points = [p for piece in pieces for p in piece]
        signal = figure.signal([p[0] for p in points], [p[1] for p in points]).lines()
        if several:
            signal.label(curve.label)
        start = 0
        for piece in pieces:
            if start:
                signal.line(start, False)  # no line across a gap
            start += len(piece)
        figure.draw(signal)
    for kind, marker, _, _ in MARK_STYLES:
        chosen = [m for m in plot.marks if m.kind == kind and plot.bottom <= m.y <= plot.top]
        if chosen:
            figure.draw(figure.signal([m.x for m in chosen], [m.y for m in chosen], marker=marker))
    if plot.bottom < 0 < plot.top:
        figure.line(0)
    if several:
        ha, va = legend_corner(plot, width, height)
        x = plot.lower if ha == "left" else plot.upper
        y = plot.top if va == "top" else plot.bottom
        figure.legend(x=x, y=y, ha=ha, va=va, relative=True)
    else:
        figure.title(plot.curves[0].label)
    figure.ruler("x").lim(plot.lower, plot.upper)
    figure.ruler("y").lim(plot.bottom, plot.top)
    if plot.variables:
        figure.label(", ".join(plot.variables), axis="x")
    figure.plot_size(width, height)
    chart = figure.build().string(colorless=not color)
    figure.clear()
    return str(chart).rstrip()


def legend_corner(plot: Plot, width: int, height: int) -> tuple[str, str]:
    """The corner (horizontal, vertical) where the legend box (about as wide as the longest
    label, two rows a curve) hides the fewest drawn points; top left among equals."""
    box_width = min(1.0, (max(len(c.label) for c in plot.curves) + 6) / max(1, width - 8))
    box_height = min(1.0, (2 * len(plot.curves) + 1) / max(1, height - 4))
    span_x, span_y = plot.upper - plot.lower, plot.top - plot.bottom
    points = [p for c in plot.curves for piece in plot.segments(c) for p in piece]
    points += [(m.x, m.y) for m in plot.marks]

    def hidden(corner: tuple[str, str]) -> int:
        ha, va = corner
        count = 0
        for x, y in points:
            across = (x - plot.lower) / span_x
            up = (y - plot.bottom) / span_y
            in_x = across <= box_width if ha == "left" else across >= 1 - box_width
            in_y = up >= 1 - box_height if va == "top" else up <= box_height
            count += in_x and in_y
        return count

    corners = [("left", "top"), ("right", "top"), ("left", "bottom"), ("right", "bottom")]
    return min(corners, key=hidden)


def marks_summary(plot: Plot, raw: bool = False) -> list[str]:
    """One line per marked item, so the marks can be read as numbers too."""
    lines = []
    for kind, marker, _, what in MARK_STYLES:
        by_item: dict[tuple[str, str], list[Mark]] = {}
        for mark in plot.marks:
            if mark.kind == kind:
                by_item.setdefault((mark.item, mark.curve), []).append(mark)
        for (item, curve), marks in by_item.items():
            shown = ", ".join(m.text for m in marks)
            lines.append(f"{marker} {what} of {curve} ({item}): {shown}")
    return lines if raw else [pretty(line) for line in lines]


def save_image(plot: Plot, target: str) -> Path:
    """The plot as an image with matplotlib (png, svg or pdf by the file's suffix)."""
    path = Path(target).expanduser()
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise PlotError(f"Say where, with a .png (or .svg, .pdf) name: /plot save {path}.png")
    figure = _figure(plot)
    try:
        figure.savefig(path, dpi=120)
    except OSError as exc:
        raise PlotError(f"Could not write {path}: {exc.strerror or exc}.") from None
    return path


def png_bytes(plot: Plot) -> bytes:
    """The same image as `save_image`, as PNG bytes (the chat page shows it)."""
    import io

    buffer = io.BytesIO()
    _figure(plot).savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


def _figure(plot: Plot) -> Any:
    """The matplotlib figure of a plot: its curves and the workspace's marks on them."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError(MATPLOTLIB_HINT) from None
    figure = Figure(figsize=(8, 5), constrained_layout=True)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for curve in plot.curves:
        xs: list[float] = []
        ys: list[float] = []
        for piece in plot.segments(curve):
            xs += [p[0] for p in piece] + [math.nan]
            ys += [p[1] for p in piece] + [math.nan]
        axes.plot(xs, ys, label=curve.label)
    for kind, _, marker, label in MARK_STYLES:
        chosen = [m for m in plot.marks if m.kind == kind]
        if chosen:
            xs, ys = [m.x for m in chosen], [m.y for m in chosen]
            axes.scatter(xs, ys, marker=marker, color="black", zorder=3, label=label)
    axes.axhline(0, color="gray", linewidth=0.8)
    axes.set_xlim(plot.lower, plot.upper)
    axes.set_ylim(plot.bottom, plot.top)
    axes.set_xlabel(", ".join(plot.variables))
    axes.grid(alpha=0.3)
    axes.legend()
    return figure
