"""PickReferent's question for a call's one earlier id, how its answer is read, and the loop
that puts the answered id in the call (a scripted model: plumbing, not behaviour)."""

from __future__ import annotations

from agent.context.registry import make_strategy
from agent.core.loop import Agent, SmallModelAids
from agent.core.referent_pick import pick_question, picked_item, repointed
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, evaluate, solve
from agent.workspace.record import build


def _result(call_id: str, tool: str, arguments: dict, item: str, values: tuple) -> list[Message]:
    return [
        ToolCall(call_id=call_id, tool=tool, arguments=arguments),
        ToolResultMessage(
            call_id=call_id, tool=tool, ok=True, text=", ".join(values), item=item, values=values
        ),
    ]


def _two_solved(request: str) -> list[Message]:
    """Two equations solved in two requests, then `request` (the open one)."""
    messages: list[Message] = [UserMessage(text="solve x^2 + 5x + 6 = 0")]
    messages += _result("a", "solve", {"equation": "#1"}, "#2", ("-3", "-2"))
    messages += [UserMessage(text="now solve y^2 - 5y + 4 = 0")]
    messages += _result("b", "solve", {"equation": "#3"}, "#4", ("1", "4"))
    return [*messages, UserMessage(text=request)]


def test_a_call_on_earlier_roots_asks_among_the_roots_with_their_requests() -> None:
    conversation = _two_solved("add them up")
    workspace = build(conversation)
    question = pick_question({"expression": "sum(#2)"}, workspace, conversation, 6)
    assert question is not None
    assert question.cited.id == "#2"
    assert [i.id for i in question.candidates] == ["#2", "#4"]
    assert question.lines[0].startswith("#2 roots of #1")
    assert question.lines[0].endswith('[from: "solve x^2 + 5x + 6 = 0"]')
    assert question.lines[1].endswith('[from: "now solve y^2 - 5y + 4 = 0"]')
    assert question.previous == "now solve y^2 - 5y + 4 = 0"


def test_a_call_on_earlier_math_asks_among_the_math() -> None:
    conversation = _two_solved("differentiate the first one")
    workspace = build(conversation)
    question = pick_question({"expression": "#3"}, workspace, conversation, 6)
    assert question is not None
    assert [i.id for i in question.candidates] == ["#1", "#3"]


def test_nothing_is_asked_without_a_choice() -> None:
    conversation = _two_solved("add them up")
    workspace = build(conversation)
    # no id, two ids, an unknown id
    assert pick_question({"expression": "x^2"}, workspace, conversation, 6) is None
    assert pick_question({"expression": "#2 + #4"}, workspace, conversation, 6) is None
    assert pick_question({"expression": "#9"}, workspace, conversation, 6) is None
    # an item made in this turn (the open request at place 3: #4 came after it)
    opened = conversation[:6]
    assert pick_question({"expression": "sum(#4)"}, build(opened), opened, 3) is None
    # the only item of its family
    single = [UserMessage(text="solve x^2 - 1 = 0")]
    single += _result("a", "solve", {"equation": "#1"}, "#2", ("-1", "1"))
    single += [UserMessage(text="add them up")]
    assert pick_question({"expression": "sum(#2)"}, build(single), single, 3) is None


def test_the_answer_is_read_as_the_first_candidate_it_names() -> None:
    conversation = _two_solved("add them up")
    question = pick_question({"expression": "sum(#2)"}, build(conversation), conversation, 6)
    assert question is not None
    assert picked_item("#4", question).id == "#4"  # type: ignore[union-attr]
    assert picked_item("It is #9, or #2", question).id == "#2"  # type: ignore[union-attr]
    assert picked_item("the second one", question) is None


def test_the_call_is_repointed_everywhere_and_only_at_that_id() -> None:
    conversation = _two_solved("x")
    workspace = build(conversation)
    old, new = workspace.get(2), workspace.get(4)
    assert old is not None and new is not None
    arguments = {"expression": "(#2)^2 + #21", "at": ["#2"], "variable": None}
    assert repointed(arguments, old, new) == {
        "expression": "(#4)^2 + #21",
        "at": ["#4"],
        "variable": None,
    }


def _agent(model: InProcessModel) -> Agent:
    return Agent(model, make_strategy("none"), aids=SmallModelAids(pick_referents=True))


def test_the_loop_runs_the_call_on_the_item_pickreferent_names() -> None:
    model = InProcessModel(
        [
            solve("x^2 + 5x + 6 = 0"),
            done("-3 and -2"),
            solve("y^2 - 5y + 4 = 0"),
            done("1 and 4"),
            evaluate("sum(#2)"),
            done("5"),
        ],
        picks=["#4"],
    )
    agent = _agent(model)
    agent.run_turn("solve x^2 + 5x + 6 = 0")
    agent.run_turn("now solve y^2 - 5y + 4 = 0")
    result = agent.run_turn("add them up")
    call, ran = result.tool_runs[0]
    assert call.arguments["expression"] == "sum(#4)"
    assert ran.ok and ran.text.endswith("5")
    items, previous, request, choices = model.pick_questions[0]
    assert choices == ["#2", "#4"] and request == "add them up"
    assert previous == "now solve y^2 - 5y + 4 = 0" and len(items) == 2
    assert result.llm_calls == 3  # two MathChat calls and one PickReferent


def test_the_loop_keeps_the_call_when_the_pick_agrees_or_names_nothing() -> None:
    for pick in ("#2", "no idea"):
        model = InProcessModel(
            [
                solve("x^2 + 5x + 6 = 0"),
                done("-3 and -2"),
                solve("y^2 - 5y + 4 = 0"),
                done("1 and 4"),
                evaluate("sum(#2)"),
                done("-5"),
            ],
            picks=[pick],
        )
        agent = _agent(model)
        agent.run_turn("solve x^2 + 5x + 6 = 0")
        agent.run_turn("now solve y^2 - 5y + 4 = 0")
        call, _ran = agent.run_turn("add up the roots of the first one").tool_runs[0]
        assert call.arguments["expression"] == "sum(#2)"


def test_without_the_aid_nothing_is_asked() -> None:
    model = InProcessModel(
        [
            solve("x^2 + 5x + 6 = 0"),
            done("-3 and -2"),
            solve("y^2 - 5y + 4 = 0"),
            done("1 and 4"),
            evaluate("sum(#2)"),
            done("-5"),
        ]
    )
    agent = Agent(model, make_strategy("none"))
    for text in ("solve x^2 + 5x + 6 = 0", "now solve y^2 - 5y + 4 = 0", "add them up"):
        agent.run_turn(text)
    assert model.pick_questions == []
