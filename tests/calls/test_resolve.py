"""Ids and names in a call become exact math; a wrong id is one sentence listing what exists."""

from __future__ import annotations

import pytest
import sympy as sp

import tools
from agent.calls.resolve import ReferenceProblem, resolve_arguments
from agent.calls.said_once import bounds_in_fields, said_once
from agent.messages import ToolCall, ToolResultMessage, UserMessage
from agent.workspace.building import build
from agent.workspace.record import Workspace


@pytest.fixture(scope="module")
def workspace() -> Workspace:
    return build(
        [
            UserMessage(text="solve x^2 + 5x + 6 = 0"),
            ToolCall(call_id="a", tool="solve", arguments={"equation": "#1"}),
            ToolResultMessage(
                call_id="a",
                tool="solve",
                ok=True,
                text="x = -3, x = -2",
                item="#2",
                values=("-3", "-2"),
                subject="x**2 + 5*x + 6 = 0 for x",
            ),
            UserMessage(text="Let h(t) = -5t^2 + 20t + 1. When does it land?"),
        ]
    )


def test_the_record_numbers_the_persons_math_and_results_in_order(workspace: Workspace) -> None:
    assert [item.line() for item in workspace.items] == [
        "#1 equation (you; quadratic): x^2 + 5*x + 6 = 0",
        "#2 roots of #1: x = -3, x = -2",
        "#3 function h (you; quadratic): h(t) = -5*t^2 + 20*t + 1",
    ]
    assert workspace.next_number == 4


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("solve", {"equation": "#1"}, {"equation": "x**2 + 5*x + 6 = 0"}),
        ("derivative", {"expression": "#1"}, {"expression": "(x**2 + 5*x + 6)"}),
        ("solve", {"equation": "h = 0"}, {"equation": "-5*t**2 + 20*t + 1 = 0"}),
        ("solve", {"equation": "h(t) = 0"}, {"equation": "-5*t**2 + 20*t + 1 = 0"}),
        (
            "solve",
            {"equation": "h(t) = -5t^2 + 20t + 1 = 0"},
            {"equation": "-5*t**2 + 20*t + 1 = 0"},
        ),
        (
            "derivative",
            {"expression": "h(t) = -5t^2 + 20t + 1"},
            {"expression": "-5*t**2 + 20*t + 1"},
        ),
        ("evaluate", {"expression": "h'(2)", "at": []}, {"expression": "(0)", "at": []}),
        ("evaluate", {"expression": "h(1)", "at": []}, {"expression": "(16)", "at": []}),
        (
            "evaluate",
            {"expression": "#2[1] * #2[2]", "at": []},
            {"expression": "(-3) * (-2)", "at": []},
        ),
        ("evaluate", {"expression": "max(#2)", "at": []}, {"expression": "(-2)", "at": []}),
        (
            "evaluate",
            {"expression": "h", "at": ["#2"]},
            {"expression": "(-5*t**2 + 20*t + 1)", "at": ["-3", "-2"]},
        ),
        (
            "evaluate",
            {"expression": "#1", "at": ["x = #2[2]"]},
            {"expression": "(x**2 + 5*x + 6)", "at": ["x = -2"]},
        ),
        (
            "integral",
            {"expression": "h", "lower": "0", "upper": "#2[1]"},
            {"expression": "(-5*t**2 + 20*t + 1)", "lower": "0", "upper": "(-3)"},
        ),
    ],
)
def test_ids_and_names_resolve_to_exact_math(
    workspace: Workspace, tool: str, arguments: dict, expected: dict
) -> None:
    assert resolve_arguments(tool, arguments, workspace) == expected


def test_an_id_of_several_values_in_evaluate_means_each_value(workspace: Workspace) -> None:
    resolved = resolve_arguments(
        "evaluate", {"expression": "product(#2), (#2)^2", "at": []}, workspace
    )
    result = tools.evaluate(resolved["expression"], None)
    assert result.ok and [str(v) for v in result.value] == ["6", "9", "4"]
    assert "(-3)^2 = 9" in result.text and "((-3))" not in result.text  # brackets once


def test_sum_and_mean_of_values(workspace: Workspace) -> None:
    resolved = resolve_arguments(
        "evaluate", {"expression": "sum(#2), mean(#2)", "at": []}, workspace
    )
    assert [str(v) for v in tools.evaluate(resolved["expression"], None).value] == ["-5", "-5/2"]


def test_math_without_ids_is_left_as_written(workspace: Workspace) -> None:
    arguments = {"expression": "3*y^2 + y", "variable": "y"}
    assert resolve_arguments("derivative", arguments, workspace) == arguments


@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("solve", {"equation": "#9"}, "There is no #9: the workspace has #1-#3 (functions: h)."),
        ("derivative", {"expression": "#2"}, "#2 holds 2 values; pick one with #2[1]"),
        ("evaluate", {"expression": "#2[3]", "at": []}, "#2 has 2 value(s)"),
        ("evaluate", {"expression": "h(1, 2)", "at": []}, "h takes 1 argument(s)"),
    ],
)
def test_a_wrong_reference_is_one_clear_sentence(
    workspace: Workspace, tool: str, arguments: dict, says: str
) -> None:
    with pytest.raises(ReferenceProblem) as caught:
        resolve_arguments(tool, arguments, workspace)
    assert caught.value.message.startswith(says)


def test_an_id_before_any_math_says_the_workspace_has_nothing_yet() -> None:
    with pytest.raises(ReferenceProblem) as caught:
        resolve_arguments("solve", {"equation": "#1"}, build([]))
    assert caught.value.message == "There is no #1: the workspace has nothing yet."


def test_the_block_shows_notes_and_the_newest_items_and_counts_the_rest() -> None:
    messages: list = [UserMessage(text=f"differentiate x^{n} + {n}x") for n in range(2, 20)]
    workspace = build(messages)
    workspace.notes.append("The user is Dana; wants 3 decimals")
    block = workspace.render(shown=5)
    assert block is not None
    lines = block.splitlines()
    assert lines[1] == "About the user: The user is Dana; wants 3 decimals"
    assert lines[2] == "(13 older items not shown; their ids still work)"
    assert [line.split()[0] for line in lines[3:]] == ["#14", "#15", "#16", "#17", "#18"]


def test_functions_stay_in_view_however_old() -> None:
    messages: list = [UserMessage(text="Let f(x) = x^3 - 2x")]
    messages += [UserMessage(text=f"differentiate y^{n} + {n}y") for n in range(2, 12)]
    block = build(messages).render(shown=3)
    assert block is not None and "#1 function f (you; cubic): f(x) = x^3 - 2*x" in block


def test_a_result_named_by_its_own_line_is_that_result() -> None:
    workspace = build(
        [
            UserMessage(text="let q(x) = x^3 - 2x"),
            ToolCall(call_id="a", tool="derivative", arguments={"expression": "q", "order": 2}),
            ToolResultMessage(
                call_id="a", tool="derivative", ok=True, text="6*x", item="#2", values=("6*x",)
            ),
        ]
    )
    assert workspace.items[-1].origin == "2nd derivative of q"
    resolved = resolve_arguments(
        "evaluate", {"expression": "2nd derivative of q", "at": ["2"]}, workspace
    )
    assert resolved["expression"] == "(6*x)"


def test_english_in_a_math_field_is_refused_not_read_as_letters(workspace: Workspace) -> None:
    with pytest.raises(ReferenceProblem, match="'derivative' is a word, not math"):
        resolve_arguments("derivative", {"expression": "derivative of h"}, workspace)
    # another tool's operation: that tool first, then its result's id
    with pytest.raises(ReferenceProblem, match="asks for the integral tool's work") as refused:
        resolve_arguments("derivative", {"expression": "the antiderivative"}, workspace)
    # the newest items by what they are, newest first: the model picks one by its id
    newest = "the newest are #3 function h; #2 roots of #1; #1 equation."
    assert refused.value.message.endswith(newest)
    # names the parser knows are math
    assert resolve_arguments("evaluate", {"expression": "sqrt(theta)", "at": []}, workspace)


def test_a_function_put_into_itself_or_a_point_with_nowhere_to_go_is_refused(
    workspace: Workspace,
) -> None:
    with pytest.raises(ReferenceProblem, match=r"h\(#3\) puts h into itself"):
        resolve_arguments("evaluate", {"expression": "h(#3)", "at": ["3"]}, workspace)
    with pytest.raises(ReferenceProblem, match="leaves no variable to put 3 into"):
        resolve_arguments("evaluate", {"expression": "h(#2)", "at": ["3"]}, workspace)
    # h at each root, with no point: what it says
    assert resolve_arguments("evaluate", {"expression": "h(#2)", "at": []}, workspace)


def test_a_refused_field_shows_the_math_inside_its_words(workspace: Workspace) -> None:
    """A noun may name an object (the antiderivative of h is a function), so the math inside
    is shown for the model to send, never run in its place."""
    call = {"expression": "antiderivative of h"}
    with pytest.raises(ReferenceProblem, match='like "expression": "h"'):
        resolve_arguments("integral", call, workspace)
    # bounds the words carry and the call lacks: no suggestion that would lose them
    with pytest.raises(ReferenceProblem, match="put the id of the item you mean"):
        resolve_arguments("integral", {"expression": "integrate h from 0 to 1"}, workspace)


@pytest.mark.parametrize(
    ("tool", "arguments", "field", "math"),
    [
        (
            "integral",
            {"expression": "integrate h from 0 to 1", "lower": "0", "upper": "1"},
            "expression",
            "(-5*t**2 + 20*t + 1)",
        ),
        (
            "integral",
            {"expression": "integrate 3*w^2 from -1 to 1", "lower": "-1", "upper": "1"},
            "expression",
            "3*w^2",
        ),
        (
            "derivative",
            {"expression": "differentiate x^3 - 2x", "variable": "x"},
            "expression",
            "x^3 - 2x",
        ),
        ("solve", {"equation": "Solve x^2 - 4 = 0"}, "equation", "x^2 - 4 = 0"),
        (
            "evaluate",
            {"expression": "evaluate h", "at": ["2"]},
            "expression",
            "(-5*t**2 + 20*t + 1)",
        ),
    ],
)
def test_the_verb_of_the_tools_own_operation_is_not_math(
    workspace: Workspace, tool: str, arguments: dict, field: str, math: str
) -> None:
    """A request echoed into a math field: the tool already does what its verb asks."""
    assert resolve_arguments(tool, arguments, workspace)[field] == math


@pytest.mark.parametrize(
    ("expression", "written"),
    [
        ("x^2 from 0 to 1", ("x^2", "0", "1")),
        ("integrate h from -1 to #2[1]", ("h", "-1", "#2[1]")),
        ("sin(x) from 0 to pi", ("sin(x)", "0", "pi")),
        ("sin(x) from 0 to 2*pi", ("sin(x)", "0", "2*pi")),
        ("1/x between 1 and sqrt(2)", ("1/x", "1", "sqrt(2)")),
        ("(#3) from x = #2[1] to x = #2[2]", ("#3", "#2[1]", "#2[2]")),
    ],
)
def test_bounds_written_in_an_integrals_expression_go_to_their_fields(
    expression: str, written: tuple[str, str, str]
) -> None:
    moved = bounds_in_fields("integral", {"expression": expression, "variable": "x"})
    assert (moved["expression"], moved["lower"], moved["upper"]) == written
    assert moved["variable"] == "x"


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("integral", {"expression": "x^2 from 0 to 1", "lower": "0", "upper": "2"}),
        ("integral", {"expression": "x^2 + 1"}),
        ("integral", {"expression": "x^2 from 0"}),
        ("derivative", {"expression": "x^2 from 0 to 1"}),
    ],
)
def test_bounds_stay_where_they_are_unless_an_integral_writes_both_and_holds_none(
    tool: str, arguments: dict
) -> None:
    assert bounds_in_fields(tool, arguments) == arguments


def test_another_operations_verb_still_stops_the_call(workspace: Workspace) -> None:
    with pytest.raises(ReferenceProblem, match="'differentiate' asks for the derivative tool's"):
        resolve_arguments(
            "integral", {"expression": "differentiate h", "lower": "0", "upper": "1"}, workspace
        )


@pytest.mark.parametrize("placeholder", ["sum(#N)", "(#k)^2", "#id", "# + 1"])
def test_a_placeholder_for_an_id_is_refused_with_what_exists(
    workspace: Workspace, placeholder: str
) -> None:
    with pytest.raises(ReferenceProblem, match=r"An id is # and a number, like #3: .*#1-#3"):
        resolve_arguments("evaluate", {"expression": placeholder, "at": []}, workspace)


def test_equations_are_cited_by_their_place() -> None:
    workspace = build(
        [
            UserMessage(text="solve x^2 - 4 = 0"),
            UserMessage(text="let g(t) = t^3 - t; where is g zero?"),
            UserMessage(text="and solve y^2 = 9"),
        ]
    )
    assert [i.id for i in workspace.equations()] == ["#1", "#3"]  # g is not solved yet

    def solve(where: str) -> str:
        return resolve_arguments("solve", {"equation": where}, workspace)["equation"]

    assert solve("equations[1]") == solve("equations[-2]") == "x**2 - 4 = 0"
    assert solve("equations[-1]") == "y**2 = 9"
    with pytest.raises(ReferenceProblem, match=r"There is no equations\[0\]: the places are"):
        solve("equations[0]")
    with pytest.raises(ReferenceProblem, match=r"There is no equations\[3\]"):
        solve("equations[3]")


def test_a_function_value_written_with_its_point_again_is_that_value(
    workspace: Workspace,
) -> None:
    once = {"expression": "h(3)", "at": []}
    assert said_once("evaluate", {"expression": "h(3)", "at": ["t = 3"]}, workspace) == once
    assert said_once("evaluate", {"expression": "h(3)", "at": ["3"]}, workspace) == once
    other = {"expression": "h(3)", "at": ["2"]}
    assert said_once("evaluate", other, workspace) == other
    with pytest.raises(ReferenceProblem, match="leaves no variable to put 2 into"):
        resolve_arguments("evaluate", other, workspace)


@pytest.mark.parametrize("cited", ["#1", "#2"])
def test_a_function_named_twice_with_a_point_is_the_function_at_the_point(
    workspace: Workspace, cited: str
) -> None:
    """`h(#1)` at a point, #1 being h itself, or h(#2) with #2 made from h (its roots): h
    there. An id of another item inside h (#3) stays h of that item."""
    roots_of_h = build(
        [
            UserMessage(text="let h(t) = t^2 - 1; where is it zero?"),
            ToolCall(call_id="a", tool="solve", arguments={"equation": "h = 0"}),
            ToolResultMessage(
                call_id="a",
                tool="solve",
                ok=True,
                text="t = -1, t = 1",
                item="#2",
                values=("-1", "1"),
                subject="t**2 - 1 = 0 for t",
            ),
            UserMessage(text="solve x^2 = 4"),
        ]
    )
    called = {"expression": f"h({cited})", "at": ["t = 3"]}
    assert said_once("evaluate", called, roots_of_h) == {"expression": "h", "at": ["t = 3"]}
    other = {"expression": "h(#3)", "at": ["t = 3"]}
    assert said_once("evaluate", other, roots_of_h) == other
    without_point = {"expression": f"h({cited})", "at": []}
    assert said_once("evaluate", without_point, roots_of_h) == without_point


def test_a_field_that_says_its_own_operation_is_stored_as_its_math(
    workspace: Workspace,
) -> None:
    called = {"expression": "integrate h from 0 to 2", "lower": "0", "upper": "2"}
    assert said_once("integral", called, workspace)["expression"] == "h"
    other = {"expression": "differentiate h", "lower": "0", "upper": "2"}
    assert said_once("integral", other, workspace) == other


def test_roots_used_as_one_expression_point_to_the_equation_they_solve(
    workspace: Workspace,
) -> None:
    """ "Its derivative" after a solve: a model that points at the roots is told which id
    holds the equation itself."""
    with pytest.raises(ReferenceProblem) as caught:
        resolve_arguments("derivative", {"expression": "#2"}, workspace)
    assert caught.value.message.endswith("To use the math they solve, use #1.")


def test_the_variable_named_with_written_bounds_becomes_the_calls() -> None:
    moved = bounds_in_fields("integral", {"expression": "w(t) from t = 0 to t = 3"})
    assert moved == {"expression": "w(t)", "lower": "0", "upper": "3", "variable": "t"}


def test_an_integral_call_that_names_itself_is_that_call(workspace: Workspace) -> None:
    """ "integral of h" in an integral's expression echoes the call; any other noun or verb
    (a derivative, a solve) still stops it."""
    arguments = {"expression": "integral of h(t)", "lower": "0", "upper": "1"}
    assert resolve_arguments("integral", arguments, workspace)["expression"] == (
        "(-5*t**2 + 20*t + 1)"
    )
    with pytest.raises(ReferenceProblem, match="'derivative' asks for the derivative tool's"):
        resolve_arguments("integral", {**arguments, "expression": "derivative of h(t)"}, workspace)
    with pytest.raises(ReferenceProblem, match="call integral on that math first"):
        resolve_arguments("derivative", {"expression": "integrate(#1, x)"}, workspace)
    # "solve" in a system's equation is that tool's own word: no other tool is named
    with pytest.raises(ReferenceProblem, match="'solve' is a word, not math"):
        resolve_arguments(
            "solve_system", {"equations": ["solve x + y = 3 and x - y = 1"]}, workspace
        )


@pytest.mark.parametrize(
    ("expression", "order", "once"),
    [
        ("h'''", 3, ("h", 3)),
        ("h'''", None, ("h", 3)),
        ("h''(t)", 2, ("h", 2)),
        # another order says something else: the derivative of h''', as written
        ("h'''", 1, ("h'''", 1)),
        # no function of that name: nothing to say once
        ("g'''", 3, ("g'''", 3)),
    ],
)
def test_a_primed_name_with_its_order_is_said_once(
    workspace: Workspace, expression: str, order: int | None, once: tuple[str, int]
) -> None:
    arguments = said_once("derivative", {"expression": expression, "order": order}, workspace)
    assert (arguments["expression"], arguments["order"]) == once


@pytest.mark.parametrize(
    "at",
    [["#2"], ["-3", "-2"], ["x = -2", "x = -3"]],
)
def test_values_given_again_as_points_are_used_once(workspace: Workspace, at: list) -> None:
    for expression in ("(#2)^2", "sum(#2)"):
        arguments = {"expression": expression, "at": at}
        assert said_once("evaluate", arguments, workspace)["at"] == []


def test_other_points_stay(workspace: Workspace) -> None:
    for arguments in (
        {"expression": "(#2)^2", "at": ["5"]},
        {"expression": "x^2", "at": ["#2"]},
        {"expression": "#2[1] * x", "at": ["-3", "-2"]},
    ):
        assert said_once("evaluate", arguments, workspace) == arguments


def test_a_curve_restated_by_its_name_alone_is_its_body(workspace: Workspace) -> None:
    """`h = <h's body>` (a curve `y = ...` copied back) is the body, not an equation."""
    arguments = {"expression": "h = -5t^2 + 20t + 1"}
    assert resolve_arguments("derivative", arguments, workspace)["expression"] == (
        "-5*t**2 + 20*t + 1"
    )
    assert resolve_arguments("solve", {"equation": "h = 21"}, workspace)["equation"] == (
        "-5*t**2 + 20*t + 1 = 21"
    )


@pytest.mark.parametrize(
    ("arguments", "once"),
    [
        (
            {"expression": "integrate(2*t^2 - 2*t - 24, t, -2, 0)", "variable": "t"},
            {"expression": "2*t^2 - 2*t - 24", "variable": "t", "lower": "-2", "upper": "0"},
        ),
        ({"expression": "integrate(#4, t)"}, {"expression": "#4", "variable": "t"}),
        (
            {"expression": "integrate((#2)^2, (t, 0, 1))", "lower": "0", "upper": "1"},
            {"expression": "(#2)^2", "variable": "t", "lower": "0", "upper": "1"},
        ),
        # the fields say other bounds: the call stays as written (the tool names the clash)
        (
            {"expression": "integrate(x^2, x, 0, 1)", "lower": "0", "upper": "2"},
            {"expression": "integrate(x^2, x, 0, 1)", "lower": "0", "upper": "2"},
        ),
    ],
)
def test_an_integral_written_as_a_call_in_its_own_field_is_said_once(
    workspace: Workspace, arguments: dict, once: dict
) -> None:
    assert said_once("integral", arguments, workspace) == once


def test_a_definition_restated_beside_an_equation_on_it_is_dropped_from_a_system(
    workspace: Workspace,
) -> None:
    """`h(t) = <h's body>` in a system beside `h(t) = 21` is h's definition, not `body = 0`."""
    for equations in (
        ["h(t) = 21", "h(t) = -5t^2 + 20t + 1"],
        ["h(t) = -5t^2 + 20t + 1", "h(t) = 21"],
    ):
        resolved = resolve_arguments("solve_system", {"equations": equations}, workspace)
        assert resolved == {"equations": ["-5*t**2 + 20*t + 1 = 21"]}
    kept = ["h(t) = -5t^2 + 20t + 1", "x + y = 3"]  # nothing else uses h: as before
    assert len(resolve_arguments("solve_system", {"equations": kept}, workspace)["equations"]) == 2


def test_the_id_of_a_curve_alone_in_a_derivative_is_the_equation_as_written() -> None:
    """`#1` of `x^2 + y^2 = 25` in a derivative: the curve, differentiated implicitly (as
    `lhs - rhs`, y would be a constant); an equation in one letter is still `lhs - rhs`."""
    curve = build([UserMessage(text="x^2 + y^2 = 25, find dy/dx")])
    resolved = resolve_arguments("derivative", {"expression": "#1", "variable": "x"}, curve)
    assert resolved["expression"] == curve.items[0].body
    assert tools.derivative(resolved["expression"], "x").value == -sp.Symbol("x") / sp.Symbol("y")
    one_letter = build([UserMessage(text="x^2 - 5x + 6 = 0; its derivative?")])
    assert (
        "=" not in resolve_arguments("derivative", {"expression": "#1"}, one_letter)["expression"]
    )
