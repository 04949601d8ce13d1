"""A request's equations solved one at a time are also solved together, through a scripted
model: the numbers a two-unknown problem asks for reach a result the answer can quote."""

from __future__ import annotations

from agent.calls.joint_solve import joint_note, joint_system
from agent.core.loop import SmallModelAids
from agent.messages import ToolResultMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, solve
from baml_client.types import SystemSolver
from tests.core.test_loop import make_agent
from tools import solve_system


def _solved(subject: str, *values: str, ok: bool = True) -> ToolResultMessage:
    return ToolResultMessage(
        call_id="c", tool="solve", ok=ok, text="", values=values, subject=subject
    )


def test_equations_sent_one_at_a_time_are_solved_together() -> None:
    model = InProcessModel(
        [
            solve("x + y = 97", variable="y"),
            solve("x = y + 77", variable="x"),
            done("The numbers are 87 and 10."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("two numbers add up to 97, and one is 77 more than the other")
    first, second = (ran for _call, ran in result.tool_runs)
    assert first.text == "y = 97 - x"  # nothing to combine yet
    assert second.text == "x = y + 77 (solved together with x + y = 97: x = 87, y = 10)"
    assert result.reply.text == "The numbers are 87 and 10." and result.llm_calls == 3
    assert second.text in model.seen[2][-1].content  # what the model answered from


def test_an_unknown_fixed_later_fixes_the_earlier_one() -> None:
    earlier = [_solved("x + y = 80 for y", "80 - x")]
    system = joint_system(earlier, _solved("80 - 2*x = 26 for x", "27"))
    assert system == SystemSolver(
        tool="solve_system", equations=["x + y = 80", "80 - 2*x = 26"], variables=None
    )
    assert joint_note(system, solve_system(system.equations)) == (
        "solved together with x + y = 80: x = 27, y = 53"
    )


def test_only_equations_that_share_unknowns_and_fix_them_are_combined() -> None:
    open_result = _solved("x + y = 80 for y", "80 - x")
    # No earlier result in terms of another unknown: each solve stands alone.
    assert (
        joint_system([_solved("x**2 - 4 = 0 for x", "-2", "2")], _solved("x = 3 for x", "3"))
        is None
    )
    # No unknown in common.
    assert joint_system([open_result], _solved("t**2 = 9 for t", "-3", "3")) is None
    # More unknowns than equations: a parameter stays free, nothing is fixed.
    assert joint_system([open_result], _solved("x = a + y for x", "a + y")) is None
    # A failed call, or another tool, is not an equation of the request.
    assert joint_system([open_result], _solved("x = 3 for x", ok=False)) is None
    assert (
        joint_system([_solved("x + y = 80 for y", "80 - x", ok=False)], _solved("x = 3 for x", "3"))
        is None
    )
    # Equations that do not fix the unknowns add nothing.
    system = SystemSolver(tool="solve_system", equations=["x + y = 1", "2*x + 2*y = 2"])
    assert joint_note(system, solve_system(system.equations)) is None
    assert joint_note(system, solve_system(["x + y = 1", "x + y = 2"])) is None
