"""`ref-3q`: the reference write-up's three questions, answered the way a careful model would."""

from __future__ import annotations

from agent.bench.references import Pointer, Reference
from agent.bench.scenarios import Scenario, Task, Turn
from agent.testing.replies import answer, tool_call


def reference_scenario() -> Scenario:
    """The write-up's three questions, answered the way a careful model would."""
    solve = Task(
        "solve",
        (
            Turn(
                "solve x^2 + 5*x + 6 = 0",
                (
                    tool_call("solve", equation="x^2 + 5*x + 6 = 0"),
                    answer("The roots are x = -3 and x = -2."),
                ),
            ),
        ),
        facts=("-2", "-3"),
    )
    derive = Task(
        "derivative",
        (
            Turn(
                "derivative of 2*x^2 + 4*x - 6",
                (
                    tool_call("derivative", expression="2*x^2 + 4*x - 6"),
                    answer("The derivative of 2*x^2 + 4*x - 6 is 4*x + 4."),
                ),
            ),
        ),
        facts=("4*x+4",),
    )
    squares = Task(
        "roots-implicit",
        (
            Turn(
                "what is the square of the roots",
                (
                    tool_call("evaluate", expression="x^2", at=["-3", "-2"]),
                    answer("The squares of the roots are 9 (for x = -3) and 4 (for x = -2)."),
                ),
                Reference(
                    (Pointer("solve x^2 + 5*x + 6 = 0", 0, "roots", ("-3", "-2")),),
                    tool_call("evaluate", expression="x^2", at=["@0"]),
                    "roots",
                ),
            ),
        ),
        facts=("4", "9"),
        needs=("-2", "-3"),
        refers_to=0,
    )
    return Scenario(
        "ref-3q",
        (solve, derive, squares),
        "the reference write-up's three questions",
        needs_are_text=True,
    )
