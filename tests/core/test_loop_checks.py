"""The agent loop's checks for small models, through a scripted model: answers with numbers
no tool computed, and tool calls that do not fit the request, each sent back once."""

from __future__ import annotations

from agent.core.loop import Agent, SmallModelAids
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, solve
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
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    # Off (the default for hosted models): the first answer stands.
    quiet = InProcessModel([done("The squares are 9 and 4, so 13.")])
    assert make_agent(quiet).run_turn("square -3 and -2").reply.text.endswith("13.")


def _solved_quartic(model: InProcessModel, aids: SmallModelAids) -> Agent:
    """An agent whose chat holds a quartic with constant 24 and roots -4, -2, -1, 3."""
    agent = make_agent(model, aids=aids)
    result = agent.run_turn("solve x^4 + 4x^3 - 7x^2 - 34x - 24 = 0")
    assert result.ok
    return agent


def test_arithmetic_asked_and_answered_without_a_tool_is_computed_with_one() -> None:
    # 24 is in the chat (the constant), so it does not look made up; no tool ran, though.
    model = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            done("Their product is 24."),
            evaluate("(-4)*(-2)*(-1)*3"),
            done("Their product is -24."),
        ]
    )
    agent = _solved_quartic(model, SmallModelAids(verify_answers=True))
    result = agent.run_turn("and their product?")
    assert result.ok and result.reply.text == "Their product is -24."
    assert "No tool computed 24" in model.seen[-2][-1].content
    # A request with no arithmetic in its words is answered from the chat as it is.
    recalled = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            done("They were x = -4, x = -2, x = -1 and x = 3."),
        ]
    )
    agent = _solved_quartic(recalled, SmallModelAids(verify_answers=True))
    assert agent.run_turn("what were the roots again?").llm_calls == 1


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


def test_a_computation_answered_without_a_tool_is_computed_with_one() -> None:
    # The answer copies a tool record's form, and its numbers are all in the chat already.
    model = InProcessModel(
        [
            solve("w^3 - 7w - 6 = 0"),
            done("The roots are w = -2, w = -1 and w = 3."),
            done("It is 6*w. [derivative: d²/dw² (w**3 - 7*w - 6) = 6*w**2]"),
            derivative("w^3 - 7w - 6", order=2),
            done("The second derivative is 6*w."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("solve w^3 - 7w - 6 = 0").ok
    result = agent.run_turn("what's its second derivative?")
    assert result.ok and result.reply.text == "The second derivative is 6*w."
    assert "Call the derivative tool" in model.seen[-2][-1].content
    assert [call.tool for call, _ in result.tool_runs] == ["derivative"]
    # Asked once per turn: a second answer without a tool stands.
    stubborn = InProcessModel([done("It is 6*w."), done("It is 6*w, as I said.")])
    agent = make_agent(stubborn, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("the second derivative of w^3 - 7w - 6")
    assert result.ok and result.reply.text == "It is 6*w, as I said."


def test_a_value_answered_by_hand_comes_back_with_the_call_that_computes_it() -> None:
    # Seen with `ledger`: "f(4) for the cubic from before" answered "80" twice, no tool run.
    call = '{"tool": "evaluate", "expression": "f(m) = m^3 + m^2 - 14m - 24", "at": ["4"]}'
    model = InProcessModel(
        [
            solve("m^3 + m^2 - 14m - 24 = 0"),
            done("The roots are m = -3, m = -2 and m = 4."),
            solve("n^2 - 5n + 6 = 0"),
            done("The roots are n = 2 and n = 3."),
            done("The value of the cubic when m = 4 is 80."),
            evaluate("f(m) = m^3 + m^2 - 14m - 24", "4"),
            done("f(4) = 0."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("solve m^3 + m^2 - 14m - 24 = 0").ok
    assert agent.run_turn("solve n^2 - 5n + 6 = 0").ok
    result = agent.run_turn("what's f(4) for the cubic from before?")
    assert result.ok and result.reply.text == "f(4) = 0."
    sent_back = model.seen[-2][-1].content
    assert "No tool computed 80" in sent_back and sent_back.endswith(f"Send this call: {call}")


def test_a_derivative_of_a_lower_order_than_asked_is_questioned_once() -> None:
    model = InProcessModel(
        [derivative("d/dp (p^2 - 2p - 3)"), derivative("p^2 - 2p - 3", order=2), done("It is 2.")]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("the second derivative of p^2 - 2p - 3")
    assert result.ok and [call.arguments["order"] for call, _ in result.tool_runs] == [2]
    assert "order 2" in model.seen[1][-1].content


def test_a_derivative_in_a_variable_its_math_lacks_is_questioned_once() -> None:
    model = InProcessModel(
        [
            derivative("q^3 + 9q^2 + 26q + 24", order=2, variable="t"),
            derivative("q^3 + 9q^2 + 26q + 24", order=2, variable="q"),
            done("The second derivative is 6q + 18."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("the second derivative of q^3 + 9q^2 + 26q + 24")
    assert result.ok and [c.arguments["variable"] for c, _ in result.tool_runs] == ["q"]
    assert "t does not appear" in model.seen[1][-1].content


def test_arithmetic_on_some_of_their_roots_is_questioned_once() -> None:
    model = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            evaluate("(-4)^2"),
            evaluate("(-4)^2, (-2)^2, (-1)^2, 3^2"),
            done("The squares are 16, 4, 1 and 9."),
        ]
    )
    agent = _solved_quartic(model, SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("what are their squares?")
    assert result.ok and result.reply.text == "The squares are 16, 4, 1 and 9."
    assert "leaves out -2, -1, 3" in model.seen[-2][-1].content
    assert len(result.tool_runs) == 1


def test_a_tool_the_request_never_asked_for_is_questioned_once() -> None:
    model = InProcessModel(
        [
            derivative("r^2", order=2),
            evaluate("1^2, 2^2, 3^2"),
            done("The squares are 1, 4 and 9."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("square each of them")
    assert result.ok and result.reply.text == "The squares are 1, 4 and 9."
    assert [call.tool for call, _ in result.tool_runs] == ["evaluate"]
    # The model saw its own call and the question; neither is kept in the history.
    assert model.seen[1][-2].content.startswith('{"tool": "derivative"')
    assert "nothing in the request asks for a derivative" in model.seen[1][-1].content
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]


def test_a_call_on_other_math_than_the_named_polynomial_is_questioned_once() -> None:
    model = InProcessModel(
        [
            solve("m^3 + m^2 - 14m - 24 = 0"),
            done("The roots are m = -3, m = -2 and m = 4."),
            solve("n^2 - 5n + 6 = 0"),
            done("The roots are n = 2 and n = 3."),
            # f(4) "for the cubic from before": first the latest quadratic by hand, then f(4)
            # with no definition (the tool's refusal is no help), then as the sentence says.
            evaluate("4^2 - 5*4 + 6"),
            evaluate("f(4)", "4"),
            evaluate("f(m) = m^3 + m^2 - 14m - 24", "4"),
            done("f(4) = 0."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    assert agent.run_turn("solve m^3 + m^2 - 14m - 24 = 0").ok
    assert agent.run_turn("solve n^2 - 5n + 6 = 0").ok
    result = agent.run_turn("what's f(4) for the cubic from before?")
    assert result.ok and result.reply.text == "f(4) = 0."
    assert [call.arguments["expression"] for call, _ in result.tool_runs] == [
        "f(m) = m^3 + m^2 - 14m - 24"
    ]
    sentence = '{"tool": "evaluate", "expression": "f(m) = m^3 + m^2 - 14m - 24", "at": ["4"]}'
    assert sentence in model.seen[-3][-1].content and sentence in model.seen[-2][-1].content


def test_an_answer_that_repeats_the_question_about_a_call_is_sent_back_once() -> None:
    model = InProcessModel(
        [
            derivative("r^2", order=2),  # questioned: nothing asks for a derivative
            done("Nothing in the request asks for a derivative, and this call computes one."),
            evaluate("1^2, 2^2, 3^2"),
            done("The squares are 1, 4 and 9."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("square each of them")
    assert result.ok and result.reply.text == "The squares are 1, 4 and 9."
    assert "repeats the note about your tool call" in model.seen[2][-1].content
    assert [call.tool for call, _ in result.tool_runs] == ["evaluate"]
    # Only after a question: "this call" in an answer of a turn with none stands.
    plain = InProcessModel([done("You can call this call a derivative.")])
    agent = make_agent(plain, aids=SmallModelAids(check_tool_fit=True))
    assert agent.run_turn("hello").reply.text == "You can call this call a derivative."


def test_a_questioned_call_sent_again_runs() -> None:
    model = InProcessModel([derivative("x^3"), derivative("x^3"), done("It is 3*x^2.")])
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("and how about x^3")
    assert result.ok and [call.tool for call, _ in result.tool_runs] == ["derivative"]
    assert result.llm_calls == 3
    # Off (the default for hosted models): the call runs at once.
    trusting = InProcessModel([derivative("x^3"), done("It is 3*x^2.")])
    assert make_agent(trusting).run_turn("and how about x^3").llm_calls == 2


def test_a_value_of_it_answered_with_no_tool_comes_back_with_the_call() -> None:
    # Seen on every strategy: "plug a = -1 into it" after "differentiate it" answered with the
    # derivative again, twice; and the line the model is shown names "it".
    call = '{"tool": "evaluate", "expression": "2*a + 4", "at": ["a = -1"]}'
    model = InProcessModel(
        [
            solve("a^2 + 4a - 5 = 0"),
            done("The roots are a = -5 and a = 1."),
            derivative("a^2 + 4a - 5", variable="a"),
            done("The derivative is 2*a + 4."),
            done("The derivative is 2*a + 4."),
            evaluate("2*a + 4", "a = -1"),
            done("It is 2."),
        ]
    )
    aids = SmallModelAids(verify_answers=True, index_equations=True)
    agent = make_agent(model, aids=aids)
    assert agent.run_turn("solve a^2 + 4a - 5 = 0").ok
    assert agent.run_turn("differentiate it").ok
    result = agent.run_turn("plug a = -1 into it")
    assert result.ok and result.reply.text == "It is 2."
    assert '- "it" is 2*a + 4, the derivative found last' in model.seen[-3][-1].content
    assert model.seen[-2][-1].content.endswith(f"Send this call: {call}")


def test_a_call_sent_again_in_a_letter_its_math_lacks_runs_in_the_math_s_letter() -> None:
    # Seen on every `ledger` run: questioned, the model sent the same call again, answered 0.
    model = InProcessModel(
        [
            derivative("p^2 - 2p - 3", order=2, variable="r"),
            derivative("p^2 - 2p - 3", order=2, variable="r"),
            derivative("p^2 - 2p - 3", order=2, variable="r"),
            done("The second derivative is 2."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("and the second derivative of p^2 - 2p - 3")
    assert result.ok and result.reply.text == "The second derivative is 2."
    ((call, ran),) = result.tool_runs  # the third send is the run call repeated: not run
    assert call.arguments["variable"] == "p" and ran.ok and ran.text.endswith("= 2")
    assert agent.session.working[1] == call  # the history holds the call that ran
