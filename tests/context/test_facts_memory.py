"""User facts: the store's merge rules, FactsMemory around any strategy, ExtractUserFacts e2e."""

from __future__ import annotations

import inspect
import json
from typing import Any

from agent.context.base import CompactionInput
from agent.context.strategies.none import NoCompaction
from agent.context.strategies.structural import StructuralStrategy
from agent.context.user_facts import FACTS_HEADER, FactsMemory, UserFactStore
from agent.core.loop import Agent
from agent.errors import AgentError
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider
from agent.llm.replay import ScriptedResponder, serve
from agent.messages import AssistantMessage, SummaryMessage, UserMessage, to_chat_list
from agent.testing.in_process import InProcessModel
from agent.testing.replies import answer, done, solve, user_facts
from agent.testing.scripted import ScriptedModel, ScriptedRequest
from baml_client.types import (
    AddUserFact,
    ForgetUserFact,
    UpdateUserFact,
    UserFactChanges,
    UserFactKind,
)

# Until agent/loop.py calls the `observe_user_message` hook itself, the tests call it.
LOOP_OBSERVES = "observe_user_message" in inspect.getsource(Agent.run_turn)

DECIMALS = AddUserFact(op="add", kind=UserFactKind.ANSWER_FORM, text="Wants decimal answers")
NAME = AddUserFact(op="add", kind=UserFactKind.NAME, text="Is called Dana")


def changes(*ops: Any) -> UserFactChanges:
    return UserFactChanges(operations=list(ops))


def test_add_update_forget_without_duplicates() -> None:
    store = UserFactStore()
    assert store.apply(changes(DECIMALS, NAME)) == 2
    assert store.apply(changes(DECIMALS)) == 0  # same fact again: no duplicate
    assert (
        store.apply(changes(AddUserFact(op="add", kind=UserFactKind.NAME, text="is called dana.")))
        == 0
    )
    assert store.texts() == ["Wants decimal answers", "Is called Dana"]
    exact = UpdateUserFact(
        op="update", number=1, kind=UserFactKind.ANSWER_FORM, text="Wants exact answers"
    )
    store.apply(changes(exact))
    assert store.texts() == ["Wants exact answers", "Is called Dana"]
    # a second answer form replaces the first even when the LLM says "add"
    store.apply(changes(DECIMALS))
    assert store.texts() == ["Wants decimal answers", "Is called Dana"]
    # numbers refer to the list as shown to the LLM, even when several ops shift it
    subject = AddUserFact(op="add", kind=UserFactKind.SUBJECT, text="Works on fleet routes")
    store.apply(changes(ForgetUserFact(op="forget", number=1), subject))
    assert store.texts() == ["Is called Dana", "Works on fleet routes"]
    store.apply(changes(ForgetUserFact(op="forget", number=9)))  # unknown number: ignored
    assert len(store.facts) == 2
    assert UserFactStore.from_state(json.loads(json.dumps(store.to_state()))).facts == store.facts


def test_update_into_an_existing_text_removes_the_duplicate() -> None:
    store = UserFactStore()
    store.apply(
        changes(DECIMALS, AddUserFact(op="add", kind=UserFactKind.OTHER, text="Likes graphs"))
    )
    store.apply(
        changes(
            UpdateUserFact(
                op="update", number=2, kind=UserFactKind.OTHER, text="wants decimal answers"
            )
        )
    )
    assert store.texts() == ["Wants decimal answers"]


def facts_model(steps: list[Any], extractions: list[UserFactChanges | Exception]) -> InProcessModel:
    """The scripted model, also answering ExtractUserFacts (then: nothing new)."""

    def extract(_request: ScriptedRequest) -> Any:
        return extractions.pop(0) if extractions else user_facts()

    return InProcessModel(script=ScriptedModel(chat=steps, facts=extract))


def known_facts(model: InProcessModel) -> list[list[str]]:
    """The known facts each ExtractUserFacts call was given (one per line after the mark)."""
    return [
        r.system.split("\n")[1:] for r in model.script.requests if r.function == "ExtractUserFacts"
    ]


def test_facts_are_in_every_view_and_survive_compaction() -> None:
    memory = FactsMemory(StructuralStrategy())
    assert memory.name == "structural+facts"
    model = facts_model(
        [solve("x^2 - 4 = 0"), done("The roots are x = -2 and x = 2."), done("Hello Dana.")],
        [changes(DECIMALS), changes(NAME)],
    )
    agent = Agent(model, memory)
    for text in ["always decimals please; solve x^2 - 4 = 0", "I'm Dana"]:
        if not LOOP_OBSERVES:
            memory.observe_user_message(UserMessage(text=text), model)
        assert agent.run_turn(text).ok
    assert isinstance(agent.session.working[0], SummaryMessage)  # compacted structurally
    view = memory.view(agent.session.working, None)
    rendered = to_chat_list(view)
    assert rendered[0].role == "system" and rendered[0].content.startswith(FACTS_HEADER)
    assert "Wants decimal answers" in rendered[0].content and "Dana" in rendered[0].content
    assert FACTS_HEADER not in json.dumps(
        [m.model_dump(mode="json") for m in agent.session.working]
    )
    # the MathChat call after the first extraction already saw the preference
    assert "Wants decimal answers" in model.seen[0][0].content
    assert known_facts(model) == [[], ["Wants decimal answers"]]
    decision = memory.compact(CompactionInput(agent.session.working, "manual", model))
    assert decision.working is None or FACTS_HEADER not in str(decision.working)


def test_failed_extraction_keeps_the_store_and_the_turn() -> None:
    memory = FactsMemory(NoCompaction())
    model = facts_model([done("ok")], [AgentError("endpoint down")])
    memory.store.add("ANSWER_FORM", "Wants decimal answers")
    memory.observe_user_message(UserMessage(text="hi"), model)
    assert memory.store.texts() == ["Wants decimal answers"]
    assert memory.last_error and "endpoint down" in memory.last_error
    memory.observe_user_message(UserMessage(text="hi"), InProcessModel([]))  # no such function
    assert memory.describe_facts() == "1. Wants decimal answers"
    assert memory.forget_fact(2).startswith("No fact 2")
    assert memory.forget_fact(1) == "Forgot: Wants decimal answers"
    assert memory.describe_facts() == "No facts remembered yet."


def test_state_round_trip_includes_the_inner_strategy() -> None:
    from agent.context.embeddings import CachedEmbedder, HashingEmbedder
    from agent.context.strategies.scored import ScoredStrategy

    memory = FactsMemory(ScoredStrategy(embedder=CachedEmbedder(HashingEmbedder())))
    memory.store.add("NAME", "Is called Dana")
    memory.inner.pins.add("user:x")  # type: ignore[attr-defined]
    state = json.loads(json.dumps(memory.to_state()))
    other = FactsMemory(ScoredStrategy(embedder=CachedEmbedder(HashingEmbedder())))
    other.from_state(state)
    assert other.store.texts() == ["Is called Dana"]
    assert other.inner.pins == {"user:x"}  # type: ignore[attr-defined]


def test_extract_user_facts_through_the_real_baml_client() -> None:
    def facts(request: ScriptedRequest) -> str:
        if "decimals" in request.last:
            return user_facts({"op": "add", "kind": "ANSWER_FORM", "text": "Wants decimal answers"})
        return user_facts(
            {"op": "update", "number": 1, "kind": "ANSWER_FORM", "text": "Wants exact answers"},
            {"op": "forget", "number": 2},
        )

    scripted = ScriptedModel(chat=lambda _request: answer("ok"), facts=facts)

    with serve(ScriptedResponder(scripted)) as server:
        provider = Provider("scripted", server.base_url, "scripted", None, "test", retries=False)
        model = BamlMathModel(provider.client_registry(), provider.base_url)
        memory = FactsMemory(NoCompaction())
        memory.observe_user_message(UserMessage(text="Always give me decimals."), model)
        assert memory.last_error is None
        assert memory.describe_facts() == "1. Wants decimal answers"
        memory.store.add("OTHER", "Likes graphs")
        memory.observe_user_message(
            UserMessage(text="Actually exact values, and forget graphs"), model
        )
        assert memory.store.texts() == ["Wants exact answers"]
        agent = Agent(model, memory)
        assert agent.run_turn("hi").ok
    # the known facts were numbered in the prompt; the call went through the session's ledger
    seen = scripted.prompts("ExtractUserFacts")
    assert "1. Wants decimal answers" in seen[1][0]["content"]
    extractions = 3 if LOOP_OBSERVES else 2
    assert [c.function for c in model.ledger.calls] == [
        *["ExtractUserFacts"] * extractions,
        "MathChat",
    ]
    assert "Wants exact answers" in seen[-1][0]["content"]  # injected into MathChat's system prompt
    assert isinstance(agent.session.working[-1], AssistantMessage)
