"""`/plot`: the request read right, the function sampled right, the workspace's roots and
points marked, errors in one sentence, and the image written when matplotlib is there."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import pytest
from rich.console import Console

import tools
from agent.app.repl import Repl
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.display import plot_drawing, plotting
from agent.display.plotting import Plot, PlotError, PlotRequest, make_plot, parse_request
from agent.llm.providers import Provider
from agent.messages import ToolCall, ToolResultMessage, UserMessage
from agent.runtime.single import Runtime
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, evaluate, solve
from agent.workspace.building import build
from agent.workspace.record import Item, Workspace


def workspace() -> Workspace:
    """#1 an equation and #2 its roots; f with its roots, a value and its turning points."""
    return Workspace(
        [
            Item(1, "equation", "you", "x**2 - 1 = 0"),
            Item(2, "roots", "roots of #1", "-1, 1", values=("-1", "1"), variable="x", source=1),
            Item(3, "function", "you", "x**3 - 3*x", name="f", params=("x",)),
            Item(
                4,
                "roots",
                "roots of f",
                "0, -sqrt(3), sqrt(3)",
                values=("0", "-sqrt(3)", "sqrt(3)"),
                variable="x",
                source=3,
            ),
            Item(5, "value", "f at x = 2", "2", source=3),
            Item(6, "roots", "roots of f'", "-1, 1", values=("-1", "1"), variable="x", source=3),
            Item(7, "roots", "roots of #1", "-I, I", values=("-I", "I"), variable="x", source=1),
            Item(8, "function", "you", "x*y", name="g", params=("x", "y")),
        ]
    )


# -- the request ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("f from -2 to 3", PlotRequest(("f",), -2.0, 3.0)),
        ("f, g -2 3", PlotRequest(("f", "g"), -2.0, 3.0)),
        ("#4 -1 1", PlotRequest(("#4",), -1.0, 1.0)),
        ("x^2 - 1 -2 2", PlotRequest(("x^2 - 1",), -2.0, 2.0)),
        ("x^2 - 1", PlotRequest(("x^2 - 1",))),
        ("f", PlotRequest(("f",))),
        ("sin(x), cos(x) [-pi, pi]", PlotRequest(("sin(x)", "cos(x)"), -math.pi, math.pi)),
        ("f' from -pi/2 to 2.5", PlotRequest(("f'",), -math.pi / 2, 2.5)),
        ("f and g' from -2 to 3", PlotRequest(("f", "g'"), -2.0, 3.0)),
        ("f, g AND x^2 [-1, 1]", PlotRequest(("f", "g", "x^2"), -1.0, 1.0)),
    ],
)
def test_the_request_forms(text: str, expected: PlotRequest) -> None:
    request = parse_request(text)
    assert request.specs == expected.specs
    assert request.lower == pytest.approx(expected.lower) if expected.lower else not request.lower
    assert request.upper == pytest.approx(expected.upper) if expected.upper else not request.upper


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("plot f from -2 to 3", "f from -2 to 3"),
        ("Plot: sin(x), cos(x)", "sin(x), cos(x)"),
        ("graph h and h' -1 5", "h and h' -1 5"),
        ("plot", None),
        ("solve x^2 - 4 = 0", None),
        ("what does the plot of f look like?", None),
        ("plotting f", None),
    ],
)
def test_a_chat_message_that_starts_with_plot_is_a_plot_request(
    message: str, asked: str | None
) -> None:
    assert plotting.plot_request_in(message) == asked


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "Say what to plot"),
        ("f 3 1", "The range must go from a smaller number to a larger one, not 3 to 1."),
        ("f from 2 to 2", "smaller number to a larger one"),
        ("f from a to 3", "'a' is not a number for the range."),
        ("f from 0 to oo", "not a finite real number"),
        ("a, b, c, d, e, f", "That is 6 functions; /plot draws at most 5 at once."),
    ],
)
def test_a_bad_request_is_one_sentence(text: str, says: str) -> None:
    with pytest.raises(PlotError) as error:
        parse_request(text)
    assert says in error.value.message
    assert error.value.message.count(". ") == 0 and "\n" not in error.value.message


# -- the data -------------------------------------------------------------------------------


def plot(text: str, ws: Workspace | None = None) -> Plot:
    return make_plot(parse_request(text), ws if ws is not None else workspace())


def test_the_curve_is_sampled_over_the_range() -> None:
    (curve,) = plot("x^2 - 1 -2 2").curves
    assert len(curve.xs) == plotting.SAMPLES + 1
    assert curve.xs[0] == -2 and curve.xs[-1] == pytest.approx(2)
    assert all(y == pytest.approx(x * x - 1) for x, y in zip(curve.xs, curve.ys, strict=True))
    assert curve.variable == "x" and curve.label == "x² − 1"


def test_points_where_the_function_is_undefined_are_skipped() -> None:
    sqrt_curve, log_curve, reciprocal = plot("sqrt(x), log(x), 1/x -1 1").curves
    for curve in (sqrt_curve, reciprocal):
        for x, y in zip(curve.xs, curve.ys, strict=True):
            if x < -1e-12:
                assert (y is None) == (curve is sqrt_curve)
    assert all(y is None for x, y in zip(log_curve.xs, log_curve.ys, strict=True) if x <= 0)
    middle = plotting.SAMPLES // 2
    assert reciprocal.xs[middle] == 0 and reciprocal.ys[middle] is None


def test_a_pole_breaks_the_line_and_does_not_flatten_the_rest() -> None:
    drawn = plot("tan(x) -3 3")
    (curve,) = drawn.curves
    pieces = drawn.segments(curve)
    assert len(pieces) == 3  # broken at -pi/2 and pi/2
    assert drawn.top < 100 and drawn.bottom > -100
    assert all(drawn.bottom <= y <= drawn.top for piece in pieces for _, y in piece)


def test_the_roots_of_an_equation_are_marked_when_in_range() -> None:
    marks = plot("#1 -2 2").marks
    assert [(m.kind, m.x, m.y, m.item) for m in marks] == [
        ("root", -1.0, 0.0, "#2"),
        ("root", 1.0, 0.0, "#2"),
    ]
    # Out of range: not marked; complex roots (#7) never are.
    assert [m.x for m in plot("#1 0 3").marks] == [1.0]


def test_inline_math_finds_the_roots_of_the_same_math() -> None:
    assert [m.x for m in plot("x^2 - 1 -2 2").marks] == [-1.0, 1.0]
    assert [m.x for m in plot("1 - x^2 -2 2").marks] == [-1.0, 1.0]
    assert plot("x^2 - 4 -3 3").marks == ()


def test_a_functions_roots_and_points_are_marked() -> None:
    drawn = plot("f from -2 to 2.5")
    roots = [(m.x, m.text) for m in drawn.marks if m.kind == "root"]
    assert [text for _, text in roots] == ["0", "-sqrt(3)", "sqrt(3)"]
    assert [x for x, _ in roots] == pytest.approx([0, -math.sqrt(3), math.sqrt(3)])
    points = [(m.x, m.y, m.item) for m in drawn.marks if m.kind == "point"]
    # f(2) = 2 from #5; the roots of f' (#6) are f's turning points, on the curve.
    assert points == [(2.0, 2.0, "#5"), (-1.0, 2.0, "#6"), (1.0, -2.0, "#6")]
    assert plot_drawing.marks_summary(drawn) == [
        "● roots of f (#4): 0, −√3, √3",
        "◆ points of f (#5): (2, 2)",
        "◆ points of f (#6): (−1, 2), (1, −2)",
    ]


def test_several_functions_share_one_plot() -> None:
    drawn = plot("f, f', #1 -2 2")
    assert [c.label for c in drawn.curves] == ["f: x³ − 3x", "f': 3x² − 3", "#1: x² − 1"]
    assert drawn.bottom <= -2 and drawn.top >= 9


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("h -1 1", "There is no function h in the workspace (functions: f, g)"),
        ("y -1 1", "There is no function y in the workspace"),
        ("g -1 1", "g has more than one variable (x, y)"),
        ("x*y", "x*y has more than one variable (x, y)"),
        ("#2", "#2 holds 2 values"),
        ("#9", "There is no #9"),
        ("sqrt(x) -5 -1", "sqrt(x) has no real values from -5 to -1"),
        ("x^^2", "Could not read"),
    ],
)
def test_what_cannot_be_plotted_is_one_sentence(text: str, says: str) -> None:
    with pytest.raises(PlotError) as error:
        plot(text)
    assert says in error.value.message
    assert "\n" not in error.value.message


# -- drawing --------------------------------------------------------------------------------


def test_the_terminal_chart_has_the_curve_its_name_and_the_marks() -> None:
    chart = plot_drawing.terminal_chart(plot("#1 -2 2"), width=70, height=16, color=False)
    assert "\x1b[" not in chart
    assert chart.splitlines()[0].strip() == "#1: x² − 1"  # one curve: named in the title
    assert chart.count(plot_drawing.ROOT_MARKER) == 2
    assert len(chart.splitlines()) >= 16
    assert max(len(line) for line in chart.splitlines()) <= 70
    assert "\x1b[" in plot_drawing.terminal_chart(plot("#1 -2 2"), 70, 16, color=True)


def test_several_curves_get_a_legend_where_it_hides_least() -> None:
    drawn = plot("x^2, -x^2 -2 2")  # the top right and bottom right are crowded alike
    chart = plot_drawing.terminal_chart(drawn, width=70, height=16, color=False)
    assert "x²" in chart and "−x²" in chart
    rising = plot("x, 2*x 0 5")  # empty in the top left and bottom right
    assert plot_drawing.legend_corner(rising, 70, 16) in (("left", "top"), ("right", "bottom"))
    assert plot_drawing.legend_corner(plot("-x, -2*x 0 5"), 70, 16) in (
        ("right", "top"),
        ("left", "bottom"),
    )


def test_save_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "f.png"
    assert plot_drawing.save_image(plot("f, #1 -2 2"), str(target)) == target
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_save_needs_an_image_name_and_says_how_to_get_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(PlotError, match=r"\.png"):
        plot_drawing.save_image(plot("f"), str(tmp_path / "f.txt"))
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    with pytest.raises(PlotError) as error:
        plot_drawing.save_image(plot("f"), str(tmp_path / "f.png"))
    assert error.value.message == plot_drawing.MATPLOTLIB_HINT
    assert not (tmp_path / "f.png").exists()


# -- through the REPL -----------------------------------------------------------------------


def make_repl(replies: list[str]) -> tuple[Repl, io.StringIO]:
    agent = Agent(model=InProcessModel(replies), strategy=make_strategy("window"))
    provider = Provider("scripted", "http://127.0.0.1:9/v1", "scripted", None, "test")
    out = io.StringIO()
    console = Console(file=out, width=90, color_system=None, highlight=False)
    return Repl(Runtime(agent=agent, provider=provider), console, interactive=False), out


def test_plot_in_the_repl_marks_what_the_chat_found(tmp_path: Path) -> None:
    repl, out = make_repl(
        [
            evaluate("h", "t = 2"),
            done("h(2) = 21"),
            solve("h = 0", variable="t"),
            done("t = 2 - sqrt(105)/5 and t = 2 + sqrt(105)/5"),
        ]
    )
    repl.handle("/plot save x.png")
    assert "There is no plot to save yet" in out.getvalue()
    repl.handle("Let h(t) = -5t^2 + 20t + 1. What is h(2)?")
    repl.handle("when is it zero?")
    repl.handle("/plot h from -1 to 5")
    shown = out.getvalue()
    assert "h: −5t² + 20t + 1" in shown
    # Piped, the numbers are as stored (to copy); on a terminal (or after /raw) readable.
    assert "● roots of h (#3): 2 - sqrt(105)/5, 2 + sqrt(105)/5" in shown
    assert "◆ points of h (#2): (2, 21)" in shown
    repl.handle("/raw")
    repl.handle("/plot h -1 5")
    assert "● roots of h (#3): 2 − √105/5, 2 + √105/5" in out.getvalue()
    assert repl.last_plot is not None and len(repl.last_plot.marks) == 3
    repl.handle("plot h and h' from -1 to 5")  # a message, drawn without the model
    assert repl.last_plot is not None and [c.name for c in repl.last_plot.curves] == ["h", "h'"]
    repl.handle("/plot")
    assert plotting.USAGE in " ".join(out.getvalue().split())
    repl.handle("/plot k")
    assert "There is no function k in the workspace (functions: h)" in out.getvalue()
    if "matplotlib" in sys.modules or _has_matplotlib():
        repl.handle(f"/plot save {tmp_path / 'h.png'}")
        assert (tmp_path / "h.png").exists()
        assert "Wrote the plot to" in out.getvalue()


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def test_the_critical_points_the_extrema_tool_found_are_marked() -> None:
    """Built from the chat's messages, so the mark follows the result's own origin."""
    found = tools.extrema("x^3 - 3*x")
    chat = build(
        [
            UserMessage(text="let f(x) = x^3 - 3x"),
            ToolCall(call_id="a", tool="extrema", arguments={"expression": "f"}),
            ToolResultMessage(
                call_id="a",
                tool="extrema",
                ok=True,
                text=found.text,
                item="#2",
                values=tuple(str(v) for v in found.value),
                subject="x**3 - 3*x",
            ),
        ]
    )
    drawn = plot("f from -2 to 2", chat)
    assert [(m.kind, m.x, m.y, m.item) for m in drawn.marks] == [
        ("critical", -1.0, 2.0, "#2"),
        ("critical", 1.0, -2.0, "#2"),
    ]
    assert plot_drawing.marks_summary(drawn) == ["▲ critical points of f (#2): (−1, 2), (1, −2)"]
