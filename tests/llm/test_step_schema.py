"""MathChat's reply schema comes from the generated union and fits the output cap."""

from __future__ import annotations

import json
import typing

import pytest

from agent.llm.local.settings import LOCAL_SETTINGS
from agent.llm.providers import Provider
from agent.llm.step_schema import local_grammar, reply_token_budget, response_format, step_schema
from baml_client import b


def _tools(schema: dict) -> list[str]:
    """Every `tool` literal the schema allows (a class may allow several)."""
    tools = []
    for alternative in schema["anyOf"]:
        tool = alternative["properties"]["tool"]
        tools += [tool["const"]] if "const" in tool else [t["const"] for t in tool["anyOf"]]
    return tools


def test_every_member_of_the_union_is_one_closed_alternative() -> None:
    members = typing.get_args(typing.get_type_hints(b.MathChat)["return"])
    schema = step_schema()
    assert len(schema["anyOf"]) == len(members)
    for member, alternative in zip(members, schema["anyOf"], strict=True):
        assert alternative["additionalProperties"] is False
        assert set(alternative["properties"]) == set(member.model_fields)
        required = {n for n, f in member.model_fields.items() if f.is_required()}
        assert set(alternative["required"]) == required
    assert "message_to_user" in _tools(schema) and "solve" in _tools(schema)


def test_the_new_tools_and_their_field_types_are_covered() -> None:
    """A list of texts, optional literal unions, a class with three `tool` literals."""
    schema = step_schema()
    assert {"solve_system", "extrema", "tangent", "limit", "series"} <= set(_tools(schema))
    assert {"simplify", "factor", "expand"} <= set(_tools(schema))
    by_tool = {tool: alt for alt in schema["anyOf"] for tool in _tools({"anyOf": [alt]})}
    assert {"maximum", "minimum", "extrema"} <= set(by_tool)  # the words people ask with
    equations = by_tool["solve_system"]["properties"]["equations"]
    assert equations["type"] == "array" and equations["items"]["type"] == "string"
    assert equations["maxItems"] == 4  # a 4th equation is written, and refused by the tool
    kind = by_tool["extrema"]["properties"]["kind"]
    assert kind == {"anyOf": [{"const": "max"}, {"const": "min"}, {"type": "null"}]}
    direction = by_tool["limit"]["properties"]["direction"]["anyOf"]
    assert direction == [{"const": "left"}, {"const": "right"}, {"type": "null"}]
    assert by_tool["limit"]["required"] == ["tool", "expression", "to"]
    assert by_tool["solve"]["properties"]["domain"]["anyOf"][0]["maxLength"] == 40
    # Hiding one literal of the rewriting class hides the class.
    assert "factor" not in _tools(step_schema(without=("simplify",)))


def test_a_wanted_kind_of_reply_and_hidden_tools() -> None:
    assert _tools(step_schema("answer")) == ["message_to_user"]
    tools_only = _tools(step_schema("tool"))
    assert "message_to_user" not in tools_only and "recall" not in tools_only
    assert {"solve", "evaluate", "series"} <= set(tools_only)
    assert "recall" not in _tools(step_schema(without=("recall",)))
    assert response_format()["json_schema"]["schema"] == step_schema()


def test_the_output_cap_cannot_cut_the_longest_allowed_reply() -> None:
    assert reply_token_budget() <= LOCAL_SETTINGS.max_tokens


def test_only_a_constrained_provider_sends_the_schema() -> None:
    plain = Provider("custom", "http://127.0.0.1:9/v1", "m", None, "test")
    assert plain.step_registry() is None
    constrained = Provider(
        "custom", "http://127.0.0.1:9/v1", "m", None, "test", constrained_steps=True
    )
    client = b.with_options(client_registry=constrained.step_registry("answer"))
    body = client.request.MathChat([]).body.json()
    assert _tools(body["response_format"]["json_schema"]["schema"]) == ["message_to_user"]


def test_the_embedded_model_is_held_to_a_tool_call_when_the_loop_wants_one() -> None:
    local = Provider("local", "http://127.0.0.1:9/v1", "m", None, "test")
    assert local.step_registry() is None and local.step_registry("answer") is None
    client = b.with_options(client_registry=local.step_registry("tool"))
    body = client.request.MathChat([]).body.json()
    if "grammar" in body:  # the `local` extra is installed: llama.cpp's grammar text
        assert "solve" in body["grammar"] and "message_to_user" not in body["grammar"]
    else:
        tools_only = _tools(body["response_format"]["json_schema"]["schema"])
        assert "message_to_user" not in tools_only and "solve" in tools_only
    plain = Provider("custom", "http://127.0.0.1:9/v1", "m", None, "test")
    assert plain.step_registry("tool") is None


def test_the_local_grammar_keeps_the_schemas_own_key_order() -> None:
    """Every tool call's first key is `tool` in the grammar text, the same in every process
    (a schema object sent through BAML's options arrives with its keys shuffled)."""
    pytest.importorskip("xllamacpp")
    grammar = local_grammar("tool")
    assert grammar is not None
    _, _, schema_text = grammar.partition("start: %json ")
    if not schema_text:
        pytest.skip("this llama.cpp build writes GBNF, not an llguidance grammar")
    members = json.loads(schema_text)["anyOf"]
    assert {next(iter(m["properties"])) for m in members} == {"tool"}
    assert "message_to_user" not in schema_text and '"solve"' in schema_text


def test_the_embedded_models_repair_round_is_held_to_the_whole_schema() -> None:
    """A free reply that did not parse (a greeting answered with a `response` and no
    `tool`) is asked again held to the schema, where a message is still allowed; hosted and
    custom endpoints get no schema they may not take."""
    local = Provider("local", "http://127.0.0.1:9/v1", "m", None, "test")
    client = b.with_options(client_registry=local.step_registry("any", repair=True))
    body = client.request.MathChat([]).body.json()
    if "grammar" in body:
        assert "solve" in body["grammar"] and "message_to_user" in body["grammar"]
    else:
        assert {"solve", "message_to_user"} <= set(
            _tools(body["response_format"]["json_schema"]["schema"])
        )
    plain = Provider("custom", "http://127.0.0.1:9/v1", "m", None, "test")
    assert plain.step_registry("any", repair=True) is None
