"""The agent loop's checks for small models, through a scripted model: answers with numbers
no tool computed are sent back once; a calculus call in a letter its math lacks is fitted;
an evaluation at a number the person gave to another letter is refused.
Each reads math only, never the request's words."""

from __future__ import annotations

from agent import wire
from agent.core.loop import Agent, SmallModelAids
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, integral, solve, tool_call
from tests.core.test_loop import make_agent


def test_an_answer_with_numbers_no_tool_computed_is_checked_once() -> None:
    model = InProcessModel(
        [
            done("The squares are 9 and 4, so 13."),
            evaluate("x^2", "-3", "-2"),
            done("The squares are 9 and 4."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("square -3 and -2")
    assert result.ok and result.reply.text == "The squares are 9 and 4."
    assert "No tool computed 9, 4, 13" in model.seen[1][-1].content
    # The step after the doubt is held to a math tool call; the one after it is free again.
    assert model.wanted == ["any", "tool", "any"]
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    # Off (the default for hosted models): the first answer stands.
    quiet = InProcessModel([done("The squares are 9 and 4, so 13.")])
    assert make_agent(quiet).run_turn("square -3 and -2").reply.text.endswith("13.")


def test_an_answer_that_still_misquotes_the_tool_gives_way_to_the_tool_s_result() -> None:
    model = InProcessModel(
        [
            done("4^3 - 5*12 = -52."),
            evaluate("4^3 - 5*12"),
            done("4 - 5*12 = -52 (#2)."),  # the tool said 4: quoted wrongly a second time
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("calculate 4^3 - 5*12")
    ((_call, ran),) = result.tool_runs
    assert ran.ok and ran.values == ("4",)
    assert result.reply.text == f"{ran.text} ({ran.item})"
    assert "52" not in result.reply.text and result.llm_calls == 3
    # Every result of the turn is stated, in order: the steps a word problem took.
    model = InProcessModel(
        [
            solve("x + y = 80", variable="y"),
            solve("80 - x - x = 26", variable="x"),
            done("The numbers are 27 and 54."),
            solve("80 - x - x = 26", variable="x"),  # repeated: not run again
            done("The numbers are 27 and 54."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("two numbers make 80 and the larger minus the smaller is 26")
    first, second = (ran for _call, ran in result.tool_runs)
    assert result.reply.text == f"{first.text} ({first.item}); {second.text} ({second.item})"
    # Without a successful tool result there is nothing to hold the answer to: it stands.
    model = InProcessModel([done("It is -52."), evaluate("4^3 - 5*"), done("It is -52.")])
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("calculate 4^3 - 5*12").reply.text == "It is -52."


def test_a_decimal_rounded_from_a_tool_s_decimal_is_the_tool_s_number() -> None:
    model = InProcessModel([evaluate("1/3 + 1/7"), done("To three decimals it is 0.476.")])
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("1/3 + 1/7 to three decimals")
    assert result.tool_runs[0][1].text.endswith("≈ 0.4762")
    assert result.reply.text == "To three decimals it is 0.476." and result.llm_calls == 2


def _solved_quartic(model: InProcessModel, aids: SmallModelAids) -> Agent:
    """An agent whose chat holds a quartic with constant 24 and roots -4, -2, -1, 3."""
    agent = make_agent(model, aids=aids)
    result = agent.run_turn("solve x^4 + 4x^3 - 7x^2 - 34x - 24 = 0")
    assert result.ok
    return agent


def test_arithmetic_written_out_wrong_is_computed_with_a_tool() -> None:
    model = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            evaluate("x^2", "-4", "-2", "-1", "3"),
            done("The sum of the squares is 16 + 4 + 1 + 9 = 24."),
            evaluate("16 + 4 + 1 + 9"),
            done("The sum of the squares is 30."),
        ]
    )
    agent = _solved_quartic(model, SmallModelAids(verify_answers=True))
    result = agent.run_turn("what is the sum of their squares?")
    assert result.ok and result.reply.text == "The sum of the squares is 30."
    assert "No tool computed 24" in model.seen[-2][-1].content


def test_ids_an_answer_cites_are_labels_not_numbers_to_check() -> None:
    model = InProcessModel([solve("#1"), done("The roots are x = -5 and x = 5 (#2, from #1).")])
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("solve x^2 - 25 = 0")
    assert result.ok and result.llm_calls == 2


def test_a_calculus_call_in_a_letter_its_math_lacks_runs_in_the_math_s_letter() -> None:
    # Computed as a constant it would answer 0, a wrong answer with no error.
    model = InProcessModel(
        [derivative("p^2 - 2p - 3", order=2, variable="r"), done("The second derivative is 2.")]
    )
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    result = agent.run_turn("and the second derivative of p^2 - 2p - 3")
    assert result.ok and result.reply.text == "The second derivative is 2."
    ((_call, ran),) = result.tool_runs
    assert ran.ok and ran.text.endswith("= 2") and ran.values == ("2",)
    # A request that writes the letter is taken at its word.
    model = InProcessModel([derivative("p^2", variable="r"), done("0")])
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    ((_call, ran),) = agent.run_turn("differentiate p^2 with respect to r").tool_runs
    assert ran.values == ("0",)


def test_an_integral_whose_differential_names_a_letter_its_math_lacks_runs_in_the_math_s() -> None:
    # `3*w**2 dx` from -1 to 1 is 6*w**2 in x: a wrong answer with no error.
    model = InProcessModel([integral("3*w**2 dx", "-1", "1"), done("2")])
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    ((_call, ran),) = agent.run_turn("also, integrate 3w^2 from -1 to 1").tool_runs
    assert ran.ok and ran.values == ("2",)
    # The differential's letter in the math, or written by the person, is taken as it is.
    model = InProcessModel([integral("3*w**2 dx", "-1", "1"), done("6w^2")])
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    ((_call, ran),) = agent.run_turn("integrate 3w^2 dx for x from -1 to 1").tool_runs
    assert ran.values == ("6*w**2",)


def test_an_answer_to_new_math_that_no_tool_worked_on_is_sent_back_once() -> None:
    model = InProcessModel(
        [
            done("The roots are x = 1, x = 2 and x = 3."),  # made up from the question's numbers
            solve("#1"),
            done("The roots are x = -2, x = 1 and x = 3 (#2)."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("solve x^3 - 2x^2 - 5x + 6 = 0")
    assert result.ok and result.reply.text.startswith("The roots are x = -2")
    assert "No tool has worked on #1 yet" in model.seen[1][-1].content
    # A definition alone may just be noted; a turn whose tool ran is not questioned.
    noted = InProcessModel([done("Noted: f(x) = x^2 + 1.")])
    agent = make_agent(noted, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("let f(x) = x^2 + 1").reply.text == "Noted: f(x) = x^2 + 1."


def test_a_calculus_call_in_the_persons_letter_on_math_in_another_is_refused() -> None:
    """`from s = 0 to 1` said, the call's math in w: the integral in s of a w-polynomial is a
    silent wrong value; the refusal names the math in s, and the corrected call runs."""
    model = InProcessModel(
        [
            solve("#1"),
            done("s = -4, s = -1"),
            solve("g = 0"),
            done("w = -1, w = 1"),
            tool_call("integral", expression="#3", variable="s", lower="0", upper="1"),
            tool_call("integral", expression="#1", variable="s", lower="0", upper="1"),
            done("41/6"),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    agent.run_turn("solve s^2 + 5s + 4 = 0")
    agent.run_turn("let g(w) = w^2 - 1; where is it zero?")
    turn = agent.run_turn("integrate the first one from s = 0 to 1")
    refused, ran = (r for _c, r in turn.tool_runs)
    assert not refused.ok
    assert refused.text == (
        "The request is in s, but the call's math is in w; the math in s is #1: use the one "
        "the request means."
    )
    assert ran.ok and ran.values == ("41/6",)
    # with respect to a letter no math of the chat is in: the call stands (a constant's integral)
    model = InProcessModel(
        [tool_call("integral", expression="#1", variable="t", lower="0", upper="2"), done("2w^2")]
    )
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    ((_c, ran),) = agent.run_turn("integrate w^2 in t from 0 to 2").tool_runs
    assert ran.ok and ran.values == ("2*w**2",)


def test_an_evaluation_at_a_number_the_person_gave_another_letter_is_refused() -> None:
    """`w = 3` said, the call's math in k: it points at other math than the person means,
    and the refusal names the math in w (a silent wrong value otherwise)."""
    model = InProcessModel(
        [
            tool_call("integral", expression="k^2 + 1", variable="k"),
            done("k^3/3 + k"),
            solve("g = 0"),
            done("w = 1, w = 4"),
            evaluate("#2", "3"),
            evaluate("g", "3"),
            done("g(3) = -2"),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
    agent.run_turn("an antiderivative of k^2 + 1")
    agent.run_turn("let g(w) = w^2 - 5w + 4; where is it zero?")
    refused, ran = (r for _c, r in agent.run_turn("evaluate that at w = 3").tool_runs)
    assert not refused.ok
    assert refused.text == (
        "The request gives w = 3, but #2 is in k; the math in w is #3: use the one the request "
        "means."
    )
    assert ran.ok and ran.values == ("-2",)
    # said in the math's own letter, or with no other math in that letter: the call stands
    for request in ("evaluate that at k = 3", "evaluate that at z = 3"):
        model = InProcessModel([evaluate("#1", "3"), done("12")])
        agent = make_agent(model, aids=SmallModelAids(fit_variable=True))
        ((_c, ran),) = agent.run_turn(f"k^2 + 3; {request}").tool_runs
        assert ran.ok and ran.values == ("12",)


def test_an_answer_that_repeats_a_tool_error_is_sent_back_once_to_fix_the_call() -> None:
    """The tool's error says how to fix the call; an answer that only repeats it is asked
    once for the fixed call (held to a tool call), and the fixed call's result answers."""
    model = InProcessModel(
        [
            solve("k^2 - 9 = 0"),
            done("k = -3, k = 3 (#2)"),
            evaluate("sum(#7)"),  # no such item: an error that lists what exists
            done("Tool error (evaluate): There is no #7: the workspace has #1-#2."),
            evaluate("sum(#2)"),
            done("0 (#3)"),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("solve k^2 - 9 = 0").ok
    result = agent.run_turn("what do they add up to?")
    assert result.reply is not None and result.reply.text == "0 (#3)"
    assert "repeats the tool's error" in model.seen[-2][-1].content
    assert model.wanted[-3:] == ["any", "tool", "any"]
    # asked once per turn: a second repetition gives way to a plain sentence that leaves the
    # task open for the person's rephrasing (nothing succeeded to hold it to)
    model = InProcessModel(
        [
            solve("k^2 - 9 = 0"),
            done("k = -3, k = 3 (#2)"),
            evaluate("sum(#7)"),
            done("There is no #7: the workspace has #1-#2."),
            evaluate("sum(#8)"),
            done("There is no #8: the workspace has #1-#2."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    agent.run_turn("solve k^2 - 9 = 0")
    result = agent.run_turn("what do they add up to?")
    assert result.reply is not None and result.reply.text == wire.COULD_NOT_FINISH
    assert result.reply.task_status == "PROCESSING"
    assert model.wanted[-3:] == ["any", "tool", "any"]
