"""How the record shows items: what made each result, in words, and each equation's place."""

from __future__ import annotations

import pytest

from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.workspace.building import build


def _result(call_id: str, tool: str, arguments: dict, item: str, values: tuple) -> list[Message]:
    return [
        ToolCall(call_id=call_id, tool=tool, arguments=arguments),
        ToolResultMessage(
            call_id=call_id, tool=tool, ok=True, text=", ".join(values), item=item, values=values
        ),
    ]


def _chat() -> list[Message]:
    messages: list[Message] = [UserMessage(text="solve x^3 - 7x + 6 = 0")]
    # the model copied the math, written another way, instead of pointing at #1
    messages += _result("a", "solve", {"equation": "x**3 - 7*x = -6"}, "#2", ("-3", "1", "2"))
    messages += [UserMessage(text="let q(k) = k^2 - 1")]
    messages += _result("b", "solve", {"equation": "q = 0"}, "#4", ("-1", "1"))
    messages += [UserMessage(text="also integrate 3w^2 from 0 to 1")]
    messages += _result(
        "c", "integral", {"expression": "3w^2", "lower": "0", "upper": "1"}, "#6", ("1",)
    )
    messages += _result("d", "integral", {"expression": "#3"}, "#7", ("k**3/3 - k",))
    messages += _result("e", "derivative", {"expression": "#7", "order": 2}, "#8", ("2*k",))
    return messages


def test_a_result_names_what_it_was_computed_from_even_when_the_math_was_copied() -> None:
    lines = [item.line() for item in build(_chat()).items]
    assert lines[1] == "#2 roots of #1: -3, 1, 2"
    assert lines[3] == "#4 roots of q: -1, 1"
    assert lines[5] == "#6 integral of #5 from 0 to 1: 1"
    assert lines[6] == "#7 antiderivative of #3: k^3/3 - k"
    assert lines[7] == "#8 2nd derivative of #7: 2*k"


def test_equations_show_their_place_from_the_first_and_from_the_last() -> None:
    block = build([*_chat(), UserMessage(text="and solve y^2 = 9")]).render()
    assert block is not None
    assert "#1 equation (you; equations[1], equations[-2]; cubic): " in block
    assert "#9 equation (you; equations[2], equations[-1]; quadratic): y^2 = 9" in block
    # only what the person wrote as an equation has a place: a function they solved later
    # would move every equation after it, and what the model was shown must not change
    assert "#3 function q (you; quadratic): q(k) = k^2 - 1" in block
    assert "#5 expression (you; quadratic): 3*w^2" in block


def test_places_counted_from_the_first_stay_when_more_equations_come() -> None:
    before = build(_chat()).positions(from_last=False)
    after = build([*_chat(), UserMessage(text="and solve y^2 = 9")]).positions(from_last=False)
    assert before == {1: "equations[1]"}
    assert after == {1: "equations[1]", 9: "equations[2]"}


def test_big_powers_are_compared_by_value_never_expanded() -> None:
    """The record runs in the agent, outside the tools' time limit: expanding
    `(x + y + z + w + 1)^30` there would stall every turn for half a minute."""
    big = "(x + y + z + w + 1)^30"
    messages: list[Message] = [UserMessage(text=f"solve {big} = 0 for x")]
    messages += _result("a", "solve", {"equation": f"{big} = 0"}, "#2", ("-w - y - z - 1",))
    workspace = build(messages)
    assert workspace.items[1].origin == "roots of #1"
    assert workspace.items[0].line() == "#1 equation (you): (w + x + y + z + 1)^30 = 0"


def test_each_item_knows_the_message_it_came_from() -> None:
    """What one message added, read from one build (the loop's check on new math)."""
    workspace = build(_chat())
    assert [i.id for i in workspace.added_by(0)] == ["#1"]
    assert [i.id for i in workspace.added_by(3)] == ["#3"]
    assert [i.id for i in workspace.added_by(5)] == ["#4"]  # the result of the solve call
    assert workspace.added_by(4) == []  # a tool call adds nothing by itself


def test_a_call_that_points_by_name_keeps_what_it_pointed_at() -> None:
    """`f(3)` is a value of f, `f'` is f's derivative: the origin says so, not just `f`."""
    messages: list[Message] = [UserMessage(text="let f(w) = w^3 - w")]
    messages += _result("a", "evaluate", {"expression": "f(3)", "at": []}, "#2", ("24",))
    messages += _result("b", "derivative", {"expression": "f'"}, "#3", ("6*w",))
    lines = [item.line() for item in build(messages).items]
    assert lines[1] == "#2 f(3): 24"
    assert lines[2] == "#3 derivative of f': 6*w"


def test_an_answer_citing_an_id_that_does_not_exist_loses_that_citation() -> None:
    workspace = build([UserMessage(text="solve x^2 - 4 = 0")])
    assert workspace.without_unknown_citations("x = 2 (#1).") == "x = 2 (#1)."
    assert workspace.without_unknown_citations("They are 27 and 53 (#39).") == "They are 27 and 53."
    assert workspace.without_unknown_citations("$8 and $5 (#41, #1).") == "$8 and $5."
    assert workspace.without_unknown_citations("f(2) (the value) is 0") == "f(2) (the value) is 0"


def test_roots_show_the_place_of_the_equation_they_solve() -> None:
    """ "The second one we solved" is one look at the roots' line, not two."""
    block = build(_chat()).render()
    assert block is not None
    assert "#2 roots of #1 (equations[1], equations[-1]): -3, 1, 2" in block
    # roots of a function are no equation's: no place
    assert "#4 roots of q: -1, 1" in block
    # a result of math that is no equation of the person's has no place
    assert "#6 integral of #5 from 0 to 1: 1" in block
    # nor do other results of an equation's math (only roots answer "the one we solved")
    assert "#7 antiderivative of #3: k^3/3 - k" in block


def test_a_grown_conversation_is_read_from_where_it_was_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The agent builds the workspace before every call: only the messages appended since
    the last build are read (capture parses each user message once), with the same result
    as reading it all, and what an earlier caller holds does not change."""
    import agent.workspace.record as record

    chat = _chat()
    read: list[str] = []
    real = record.capture
    monkeypatch.setattr(
        record, "capture", lambda text, known: read.append(text) or real(text, known)
    )
    early = build(chat[:3])
    assert read == ["solve x^3 - 7x + 6 = 0"]
    whole = build(chat)
    assert read == [
        "solve x^3 - 7x + 6 = 0",
        "let q(k) = k^2 - 1",
        "also integrate 3w^2 from 0 to 1",
    ]
    fresh = build([message.model_copy() for message in chat])  # other objects: read anew
    assert [i.line() for i in whole.items] == [i.line() for i in fresh.items]
    assert len(early.items) == 2  # a copy: the later read did not add to it


def test_same_math_compares_values_computed_once_per_expression() -> None:
    import sympy as sp

    from agent.workspace.math_values import _probe_values, same_math

    x = sp.Symbol("x")
    big = (x + 1) ** 30
    assert same_math(big, sp.expand(big))
    assert not same_math(x**2 - 1, x**2 + 1)
    assert same_math(x**2 - 4, 4 - x**2) and not same_math(x**2 - 4, 4 - x**2, up_to_sign=False)
    assert not same_math(1 / x, 1 / x + 1)
    before = _probe_values.cache_info().hits
    same_math(big, x**3)
    assert _probe_values.cache_info().hits > before  # `big` was not evaluated again
