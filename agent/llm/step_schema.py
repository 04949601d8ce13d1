"""A JSON schema of MathChat's reply, for endpoints that constrain decoding to it.

A 1.5B model asked for JSON sometimes writes prose, a half object or a field that does not
exist; llama.cpp (and vLLM, and others) accept a JSON schema per request and then only sample
tokens that keep the reply valid. The schema is derived at run time from the return type of
the generated `b.MathChat` (the BAML union), so it changes with `baml_src/` by itself: every
union member becomes one alternative, its literal `tool` a constant, its optional fields
optional. Text fields get a length cap so that a runaway answer still closes its JSON object
before the output-token cap (`reply_token_budget`).
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, Union

from pydantic import BaseModel

from baml_client import b
from baml_client.types import MessageToUser, TaskRecall

# What the loop wants from the next MathChat reply: anything, a message to the user alone
# (the model repeated a call), or a math tool call alone (its answer stated numbers no tool
# computed).
Wanted = Literal["any", "answer", "tool"]
WANTED_KINDS: tuple[Wanted, ...] = typing.get_args(Wanted)

# Characters a text field may hold, by field name: an answer is a paragraph quoting a few
# results; an expression fits a line or two; a variable, bound or point is short. A field not
# named here gets DEFAULT_TEXT_CHARS.
TEXT_CHARS = {
    "response": 600,
    "equation": 240,
    "expression": 240,
    "query": 120,
    "lower": 60,
    "upper": 60,
    "at": 40,
    "to": 40,
    "domain": 40,
    "equations": 80,
    "variable": 16,
    "variables": 16,
    "note": 60,
}
DEFAULT_TEXT_CHARS = 120
# At most this many items in a list field (evaluate's points), unless named here: a system
# has at most 3 equations and unknowns (tools.systems); a 4th may still be written, so that
# the tool refuses a larger system in words instead of the schema cutting an equation off.
MAX_LIST_ITEMS = 10
LIST_ITEMS = {"equations": 4, "variables": 4}
SCHEMA_NAME = "MathChatStep"


def step_members() -> tuple[type[BaseModel], ...]:
    """The classes MathChat may return, read from the generated client's signature."""
    returned = typing.get_type_hints(b.MathChat)["return"]
    return tuple(typing.get_args(returned)) or (returned,)


def step_schema(wanted: Wanted = "any", without: tuple[str, ...] = ()) -> dict[str, Any]:
    """One alternative per union member, each a closed object, of the kind `wanted`;
    `without`: tools (by their `tool` literal) this endpoint's model is better off not
    offered."""
    members = [
        m
        for m in step_members()
        if _is_wanted(m, wanted) and not set(literal_tools(m)) & set(without)
    ]
    return {"anyOf": [_member_schema(member) for member in members]}


def _is_wanted(member: type[BaseModel], wanted: Wanted) -> bool:
    if wanted == "answer":
        return member is MessageToUser
    if wanted == "tool":
        return member not in (MessageToUser, TaskRecall)
    return True


def literal_tools(member: type[BaseModel]) -> tuple[str, ...]:
    """The `tool` literals of a union member: one, or several for a class whose literal says
    how it runs ("simplify" | "factor" | "expand")."""
    return tuple(str(value) for value in _literals(member.model_fields["tool"].annotation))


def _literals(annotation: Any) -> list[Any]:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return list(args)
    if origin in (Union, types.UnionType):
        return [value for arg in args for value in _literals(arg)]
    return []


def response_format(wanted: Wanted = "any", without: tuple[str, ...] = ()) -> dict[str, Any]:
    """The OpenAI-style `response_format` request field carrying the schema."""
    schema = step_schema(wanted, without)
    return {"type": "json_schema", "json_schema": {"name": SCHEMA_NAME, "schema": schema}}


def local_grammar(wanted: Wanted = "any", without: tuple[str, ...] = ()) -> str | None:
    """The schema as llama.cpp's own grammar text (None without the `local` extra).

    Sent as a JSON object, the schema reaches the server with its keys in another order in
    every process (BAML keeps request options in a hash map), and llama.cpp's grammar
    makes the model write an object's keys in the order they come: one run's model had to
    write `equation` before `tool`, the next one `tool` first. A grammar is one string, so
    every run holds the model to the schema's own order (`tool` first)."""
    try:
        from xllamacpp import json_schema_to_grammar
    except ImportError:
        return None
    grammar: str = json_schema_to_grammar(json.dumps(step_schema(wanted, without)))
    return grammar


def reply_token_budget() -> int:
    """Tokens enough for the longest reply the schema allows (one token per character, the
    worst case, plus the JSON around it), so an output cap at least this large never cuts a
    reply in half."""
    longest = 0
    for member in step_members():
        size = 0
        for name, field in member.model_fields.items():
            size += len(name) + 8
            size += _text_cap(name, field.annotation) * _items_cap(name, field.annotation)
        longest = max(longest, size)
    return longest + 16


def _member_schema(member: type[BaseModel]) -> dict[str, Any]:
    properties = {
        name: _field_schema(name, field.annotation) for name, field in member.model_fields.items()
    }
    required = [name for name, field in member.model_fields.items() if field.is_required()]
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _field_schema(name: str, annotation: Any) -> dict[str, Any]:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        present = [a for a in args if a is not type(None)]
        alternatives = [_field_schema(name, a) for a in present]
        if len(present) < len(args):
            alternatives.append({"type": "null"})
        return alternatives[0] if len(alternatives) == 1 else {"anyOf": alternatives}
    if origin is list:
        return {
            "type": "array",
            "items": _field_schema(name, args[0]),
            "maxItems": LIST_ITEMS.get(name, MAX_LIST_ITEMS),
        }
    if annotation is str:
        return {"type": "string", "maxLength": _text_cap(name, annotation)}
    if annotation is int:
        return {"type": "integer"}
    if annotation is float:
        return {"type": "number"}
    if annotation is bool:
        return {"type": "boolean"}
    raise TypeError(f"MathChat field {name!r} has a type the schema does not cover: {annotation}")


def _text_cap(name: str, annotation: Any) -> int:
    """Characters a field may hold (0 for one that is not text)."""
    if annotation is str:
        return TEXT_CHARS.get(name, DEFAULT_TEXT_CHARS)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is Literal:
        return max(len(str(a)) for a in args)
    if origin in (Union, types.UnionType, list):
        return max(_text_cap(name, a) for a in args if a is not type(None))
    return 12  # a number


def _items_cap(name: str, annotation: Any) -> int:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is list:
        return LIST_ITEMS.get(name, MAX_LIST_ITEMS)
    if origin in (Union, types.UnionType):
        return max(_items_cap(name, a) for a in args if a is not type(None))
    return 1
