"""The loop with a workspace: ids in calls run on exact math, results get ids, notes stay.

A scripted model proves the plumbing only; how well a real model points at ids is measured
by `math-agent eval` on the embedded model.
"""

from __future__ import annotations

from agent import wire
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.testing.in_process import InProcessModel
from agent.testing.replies import answer, derivative, done, evaluate, solve, tool_call
from agent.workspace.building import build


def make_agent(model: InProcessModel, strategy: str = "window") -> Agent:
    return Agent(model=model, strategy=make_strategy(strategy))


def test_a_call_by_id_runs_on_the_items_math_and_its_result_gets_the_next_id() -> None:
    model = InProcessModel(
        [
            solve("#1"),
            done("x = -3, x = -2 (#2)"),
            evaluate("product(#2), (#2)^2"),
            done("6; 9 and 4"),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("solve x^2 + 5x + 6 = 0")
    turn = agent.run_turn("multiply the roots, and square each")
    (_call, result) = turn.tool_runs[0]
    assert result.ok and result.item == "#3" and result.values == ("6", "9", "4")
    # The person's equation was listed with the message that wrote it (before its words),
    # the roots' id and origin in their tool result; the stored request is as typed.
    first, result_line = model.seen[2][0].content, model.seen[2][2].content
    assert first == (
        wire.ANNOUNCED
        + "#1 equation (you; equations[1]; quadratic): x^2 + 5*x + 6 = 0\n"
        + wire.REQUEST_LABEL
        + "solve x^2 + 5x + 6 = 0"
    )
    assert result_line == "Tool result (solve) #2 roots of #1 (equations[1]): x = -3, x = -2"
    assert model.seen[2][-1].content == "multiply the roots, and square each"
    assert agent.session.conversation()[4].text == "multiply the roots, and square each"
    # The tool result the model reads carries the id and what it came from.
    assert model.seen[3][-1].content.startswith("Tool result (evaluate) #3 product(#2), (#2)^2: ")


def test_an_unknown_id_is_a_tool_error_the_model_can_fix() -> None:
    model = InProcessModel([derivative("#7"), derivative("#1"), done("2*x + 5")])
    agent = make_agent(model)
    turn = agent.run_turn("differentiate x^2 + 5x + 6")
    (_bad, error), (_good, result) = turn.tool_runs
    assert not error.ok and error.text == "There is no #7: the workspace has #1."
    assert result.ok and result.values == ("2*x + 5",) and result.item == "#2"
    assert turn.reply is not None and turn.reply.text == "2*x + 5"


def test_a_function_defined_in_a_message_is_used_by_name_in_later_turns() -> None:
    model = InProcessModel(
        [
            evaluate("h(2)"),
            done("h(2) = 21"),
            solve("h = 0", variable="t"),
            done("t = 2 - sqrt(105)/5 and t = 2 + sqrt(105)/5"),
            evaluate("h'(1)"),
            done("10"),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("Let h(t) = -5t^2 + 20t + 1. What is h(2)?")
    agent.run_turn("when is it zero?")
    turn = agent.run_turn("how fast is it rising at t = 1?")
    values = [r.values for c, r in agent_results(agent)]
    assert values == [("21",), ("2 - sqrt(105)/5", "2 + sqrt(105)/5"), ("10",)]
    assert turn.ok


def agent_results(agent: Agent) -> list:
    from agent.messages import ToolCall, ToolResultMessage

    conversation = agent.session.conversation()
    calls = {m.call_id: m for m in conversation if isinstance(m, ToolCall)}
    return [
        (calls[m.call_id], m) for m in conversation if isinstance(m, ToolResultMessage) and m.ok
    ]


def test_a_note_about_the_person_is_kept_in_the_workspace_through_compaction() -> None:
    noted = answer("Nice to meet you, Dana.", note="The user is Dana; wants 3 decimals")
    model = InProcessModel([noted, solve("y^2 - 2 = 0"), answer("y = ±1.414")])
    agent = make_agent(model, strategy="structural")
    agent.run_turn("I'm Dana, always 3 decimals please")
    agent.run_turn("solve y^2 - 2 = 0")
    assert build(agent.session.conversation()).notes == ["The user is Dana; wants 3 decimals"]
    # Folded away by the strategy, the note is still shown after the folded tasks.
    shown = "\n".join(m.content for m in model.seen[1])
    assert wire.ABOUT_USER + "The user is Dana; wants 3 decimals" in shown


def test_ids_survive_a_restart_because_the_record_is_rebuilt_from_the_transcript() -> None:
    model = InProcessModel([solve("x^2 - 4 = 0"), done("x = -2, x = 2")])
    agent = make_agent(model)
    agent.run_turn("solve x^2 - 4 = 0")
    again = build(agent.session.conversation())
    assert [i.line() for i in again.items] == [
        "#1 equation (you; quadratic): x^2 - 4 = 0",
        "#2 roots of #1: x = -2, x = 2",
    ]


def test_a_call_that_writes_no_id_still_needs_math_from_the_chat() -> None:
    model = InProcessModel([tool_call("integral", expression="x^7 + 3"), answer("?", "PROCESSING")])
    agent = make_agent(model)
    turn = agent.run_turn("integrate this")
    (_call, refused) = turn.tool_runs[0]
    assert not refused.ok and refused.text.startswith("Not run:")


def test_a_note_the_person_never_said_is_dropped() -> None:
    copied = answer("x = -1, x = 1", note="The user is called Sam")
    agent = make_agent(InProcessModel([solve("x^2 - 1 = 0"), copied]))
    assert agent.run_turn("solve x^2 - 1 = 0").reply.note is None
    assert build(agent.session.conversation()).notes == []


def test_integral_bounds_nobody_gave_run_as_the_antiderivative_with_a_note() -> None:
    model = InProcessModel(
        [
            derivative("2x^2 + 4x - 6"),
            done("4*x + 4"),
            tool_call("integral", expression="#2", lower="0", upper="1"),
            answer("Definite or indefinite, and between which bounds?", "PROCESSING"),
            tool_call("integral", expression="#2", lower="0", upper="1"),
            done("6"),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("differentiate 2x^2 + 4x - 6")
    turn = agent.run_turn("integrate this")
    ((call, antiderivative),) = turn.tool_runs
    assert call.arguments["lower"] is None and call.arguments["upper"] is None
    assert antiderivative.ok and antiderivative.text.endswith(
        "(the bounds 0, 1 were not given in this request, so this is the antiderivative; say "
        "the bounds for a definite integral)"
    )
    assert build(agent.session.conversation()).items[-1].origin == "antiderivative of #2"
    assert turn.reply is not None and turn.reply.task_status == "PROCESSING"
    # The person's answer gives them (in words too): the call runs.
    turn = agent.run_turn("definite, from zero to one")
    assert turn.tool_runs[0][1].ok and turn.tool_runs[0][1].values == ("6",)


def test_an_extremum_of_roots_drops_bounds_the_person_never_gave_even_a_results() -> None:
    model = InProcessModel(
        [
            solve("w^2 - 5w + 4 = 0"),
            done("w = 1, w = 4"),
            solve("k^2 + 5k + 6 = 0"),
            done("k = -3, k = -2"),
            tool_call("extrema", expression="#4", lower="1", upper="4", kind="min"),
            done("-3"),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("solve w^2 - 5w + 4 = 0")
    agent.run_turn("solve k^2 + 5k + 6 = 0")
    turn = agent.run_turn("which of those roots is the smallest?")
    ((call, smallest),) = turn.tool_runs
    assert call.arguments["lower"] is None and call.arguments["upper"] is None
    assert smallest.ok and smallest.values == ("-3",)
    assert smallest.text.endswith(
        "(the bounds 1, 4 were not given in this request, so it is taken without a range; "
        "say one to restrict it)"
    )


def test_an_extremums_bounds_the_person_gave_or_a_result_holds_are_kept() -> None:
    model = InProcessModel(
        [
            tool_call("extrema", expression="x^3 - 3x", lower="0", upper="2", kind="max"),
            done("2"),
            solve("x^2 - 1 = 0"),
            done("x = -1, x = 1"),
            tool_call("extrema", expression="x^3 - 3x", lower="-1", upper="1", kind="max"),
            done("2"),
        ]
    )
    agent = make_agent(model)
    ((call, kept),) = agent.run_turn("largest value of x^3 - 3x from 0 to 2").tool_runs
    assert (call.arguments["lower"], call.arguments["upper"]) == ("0", "2") and kept.ok
    assert "not given" not in kept.text
    agent.run_turn("solve x^2 - 1 = 0")
    ((call, between),) = agent.run_turn("and its largest value between those roots?").tool_runs
    assert (call.arguments["lower"], call.arguments["upper"]) == ("-1", "1") and between.ok
    assert "not given" not in between.text


def test_an_extremums_end_the_person_gave_stays_when_the_other_is_left_out() -> None:
    """A one-sided range is a range: the made-up 0 goes, the person's 25 bounds the maximum."""
    model = InProcessModel(
        [
            tool_call("extrema", expression="R", variable="n", lower="0", upper="25", kind="max"),
            done("875"),
        ]
    )
    turn = make_agent(model).run_turn(
        "R(n) = 60n - n^2 is the revenue from n seats, and the hall holds at most 25. "
        "the most revenue?"
    )
    ((call, most),) = turn.tool_runs
    assert (call.arguments["lower"], call.arguments["upper"]) == (None, "25")
    assert most.ok and most.values == ("875",)
    assert most.text.endswith(
        "(the bound 0 was not given in this request, so only 25 bounds the range)"
    )


def test_bounds_written_in_an_integrals_expression_are_its_bounds() -> None:
    model = InProcessModel(
        [
            tool_call("integral", expression="integrate 9*w^3 + 9*w^2 + 8 from -1 to 1"),
            done("22"),
        ]
    )
    turn = make_agent(model).run_turn("also, integrate 9w^3 + 9w^2 + 8 from -1 to 1")
    ((call, result),) = turn.tool_runs
    assert (call.arguments["lower"], call.arguments["upper"]) == ("-1", "1")
    assert result.ok and result.values == ("22",)


def test_bounds_written_in_the_expression_that_nobody_gave_are_left_out_too() -> None:
    model = InProcessModel(
        [
            solve("t^2 - 4 = 0"),
            done("t = -2, t = 2"),
            tool_call("integral", expression="#1 from -1 to 1"),
            done("t^3/3 - 4t"),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("solve t^2 - 4 = 0")
    ((call, result),) = agent.run_turn("and an antiderivative of that polynomial?").tool_runs
    assert call.arguments["lower"] is None and call.arguments["upper"] is None
    assert result.ok and "were not given in this request" in result.text
    assert build(agent.session.conversation()).items[-1].origin == "antiderivative of #1"


def test_a_system_of_a_definition_and_an_equation_on_it_is_solved_as_that_equation() -> None:
    model = InProcessModel(
        [
            tool_call("solve_system", equations=["h(t) = 150", "h(t) = -5t^2 + 25t + 120"]),
            done("t = 2 and t = 3"),
        ]
    )
    agent = make_agent(model)
    turn = agent.run_turn("Its height is h(t) = -5t^2 + 25t + 120 metres. When is it 150 m?")
    ((call, result),) = turn.tool_runs
    assert call.tool == "solve_system"
    assert result.ok and result.values == ("2", "3"), result.text


def test_a_function_pasted_in_latex_is_an_item_and_the_model_reads_it_plainly() -> None:
    model = InProcessModel([tool_call("simplify", expression="h"), done("x - 1 (#2)")])
    agent = make_agent(model)
    typed = r"Let h(x) = \frac{x^2 - 1}{x + 1}, simplify it"
    turn = agent.run_turn(typed)
    (_call, result) = turn.tool_runs[0]
    assert result.ok and result.values == ("x - 1",)
    assert model.seen[0][-1].content == (
        wire.ANNOUNCED
        + "#1 function h (you): h(x) = (x^2 - 1)/(x + 1)\n"
        + wire.REQUEST_LABEL
        + "Let h(x) = (x^2 - 1)/(x + 1), simplify it"
    )
    assert agent.session.conversation()[0].as_typed == typed  # the transcript keeps it


def test_an_answer_that_copies_the_loops_request_shows_the_person_none_of_it() -> None:
    model = InProcessModel([solve("#1"), done("x = -2, x = 2 (#2). " + wire.ANSWER_NOW)])
    turn = make_agent(model).run_turn("solve x^2 - 4 = 0")
    assert turn.reply is not None and turn.reply.text == "x = -2, x = 2 (#2)."
