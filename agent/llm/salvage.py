"""Tool calls one slip away from valid: the math written under `response`.

A message to the user writes its `response` first, so a small model that has written many of
them sometimes starts a tool call the same way: `{"response": "12 + (5 - 2) - -6", "tool":
"evaluate", "at": []}` (seen once in 470 eval turns on the embedded model; its repair round
wrote the same again and the user got "not a valid tool call"). The call says which tool it
is and what its math is; only the field name is wrong. Read as the tool's own math field, it
is the call the model meant. The `tool` field may be missing too (`{"response": "4 * (9s^2 -
9s)", "at": []}`, seen once in a full `sessions` run): the call's other fields then name the
tool when only one tool has them all, each of its type (`at` as a list: evaluate; a tangent's
or a series' `at` is a text). A sentence under `response` with a tool's name ("The value ...
is 0.", "tool": "evaluate": seen in the latency bench) is an answer mislabelled, not a call: that
one goes to the repair round.

A combination of values named as a tool (`{"tool": "min", "expression": "#2"}`: the workspace
offers `min(#2)`, `sum(#2)`... and the model reached for them as tools) is the evaluate call
of that combination.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from agent import wire
from agent.llm.step_schema import literal_tools, step_members
from baml_client import b
from baml_client.types import MessageToUser

_OBJECT = re.compile(r"\{.*\}", re.DOTALL)
# Three words in a row: a sentence, not math ("The value of the expression at p = 3 is 0."
# under `response` with "tool": "evaluate" is an answer mislabelled, not a call).
_PROSE = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}\s+[A-Za-z]{2,}")


def math_fields() -> dict[str, str]:
    """Each tool's first required text field (solve: equation, recall: query, ...), read from
    the generated union so it follows `baml_src/` (a class with several `tool` literals gives
    each of them its field)."""
    fields: dict[str, str] = {}
    for member in step_members():
        if member is MessageToUser:
            continue
        for name, field in member.model_fields.items():
            if name != "tool" and field.is_required() and field.annotation is str:
                fields.update(dict.fromkeys(literal_tools(member), name))
                break
    return fields


def _tool_by_fields(fields: dict[str, Any]) -> str | None:
    """The one tool that has every field given, each of its type (evaluate's `at` is a list,
    a tangent's a text); of several, the one tool that requires them all (evaluate requires
    its points, a derivative only takes them); none given, or still several: None."""
    if not fields:
        return None
    members = [m for m in step_members() if m is not MessageToUser and _fits(m, fields)]
    if len(members) > 1:
        members = [m for m in members if all(m.model_fields[f].is_required() for f in fields)]
    return literal_tools(members[0])[0] if len(members) == 1 else None


def _fits(member: type[BaseModel], fields: dict[str, Any]) -> bool:
    declared = member.model_fields
    if not set(fields) <= set(declared) - {"tool"}:
        return False
    try:
        for name, value in fields.items():
            TypeAdapter(declared[name].annotation).validate_python(value)
    except ValidationError:
        return False
    return True


def _object(raw: str) -> dict[str, Any] | None:
    found = _OBJECT.search(raw)
    try:
        reply = json.loads(found.group()) if found else None
    except ValueError:
        return None
    return reply if isinstance(reply, dict) else None


def combination_as_tool(raw: str) -> Any | None:
    """`{"tool": "max", "expression": "#2"}` as the evaluate call of `max(#2)`, or None."""
    reply = _object(raw)
    if reply is None or str(reply.get("tool")).lower() not in wire.COMBINATIONS:
        return None
    math = reply.get("expression") or reply.get("values") or reply.get("query")
    if not isinstance(math, str) or not math.strip():
        return None
    call = {"tool": "evaluate", "expression": f"{reply['tool']}({math.strip()})", "at": []}
    try:
        return b.parse.MathChat(json.dumps(call))
    except Exception:
        return None


_NAMED_TOOL = re.compile(r'"tool"\s*:\s*"([a-z_]+)"')


def names_a_math_tool(raw: str) -> bool:
    """A reply that does not parse but names a math tool (`"tool": "tangent"` beside a
    sentence that did the math itself): the model meant that tool's call."""
    named = _NAMED_TOOL.search(raw)
    return named is not None and named.group(1) in math_fields() and named.group(1) != "recall"


def misplaced_response(raw: str) -> Any | None:
    """The tool call `raw` meant when it put its math under `response`, or a combination
    named as a tool; else None."""
    if (combined := combination_as_tool(raw)) is not None:
        return combined
    reply = _object(raw)
    if reply is None:
        return None
    if "tool" not in reply:
        given = {k: v for k, v in reply.items() if k not in ("response", "task_status")}
        tool = _tool_by_fields(given)
        reply = {**reply, "tool": tool} if tool else reply
    field = math_fields().get(str(reply.get("tool")))
    math = reply.get("response")
    if field is None or field in reply or not isinstance(math, str) or not math.strip():
        return None
    if field != "query" and _PROSE.search(math):  # a recall query is words; math is not
        return None
    fixed = {name: value for name, value in reply.items() if name != "response"}
    fixed[field] = math
    try:
        return b.parse.MathChat(json.dumps(fixed))
    except Exception:  # still not a valid call: the repair round it was
        return None
