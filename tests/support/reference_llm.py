"""A rule-based stand-in for a capable model, for recording the reference cassette offline.

It is the one scripted model (`agent.testing.ScriptedModel`) with handlers that answer the
reference conversation (solve, derivative, "the square of the roots", a clarified integral)
the way a capable model would, reading earlier results from the context it is sent, so a
cassette recorded through it exercises the real record/replay path. With a real endpoint,
record the same conversation with `math-agent chat --record FILE` instead.
"""

from __future__ import annotations

import json
import re

from agent import wire
from agent.testing.replies import answer, ask_back, tool_call, user_facts
from agent.testing.scripted import ScriptedModel, ScriptedRequest

REFERENCE_QUESTIONS = [
    "solve x^2 + 5*x + 6 = 0",
    "derivative of 2*x^2 + 4*x - 6",
    "what is the square of the roots",
    "integrate this",
    "x^2 from 0 to 1",
]


def _roots(request: ScriptedRequest) -> list[str]:
    """The most recent roots mentioned in the context, e.g. 'x = -3, x = -2' (each once: a
    folded task's line and the workspace listing after it may both say them)."""
    for message in reversed(request.messages):
        found = re.findall(
            r"x = (-?[\w/*()+ -]+?)(?:,|\)|$| and|\.|;| ≈| \[)", message["content"], re.M
        )
        if found:
            return list(dict.fromkeys(r.strip() for r in found))
    return []


def _summarize(request: ScriptedRequest) -> str:
    exchanges, question = [], None
    for message in request.messages[1:]:
        content = message["content"]
        if message["role"] == wire.USER and not wire.is_tool_outcome(content):
            question = question or content
        elif message["role"] == wire.ASSISTANT and '"message_to_user"' in content:
            reply = json.loads(content)
            if reply["task_status"] == "COMPLETED" and question:
                exchanges.append({"question": question, "answer": reply["response"]})
                question = None
    return json.dumps({"exchanges": exchanges})


def _user_facts(request: ScriptedRequest) -> str:
    """ExtractUserFacts: a name and an answer-form preference, when the message states them."""
    operations = []
    if name := re.search(r"\bI'm (\w+)", request.last):
        operations.append({"op": "add", "kind": "NAME", "text": f"Is called {name.group(1)}"})
    if "decimal" in request.last.lower():
        operations.append({"op": "add", "kind": "ANSWER_FORM", "text": "Wants decimal answers"})
    return user_facts(*operations)


def _chat(request: ScriptedRequest) -> str:
    last = request.last
    if last.startswith(wire.TOOL_RESULT_LABEL):
        return answer(f"Done: {last.split(': ', 1)[1]}")
    if last.startswith(wire.TOOL_ERROR_LABEL):
        return answer(f"The tool could not do that: {last.split(': ', 1)[1]}")
    if last.startswith("solve "):
        return tool_call("solve", equation=last.removeprefix("solve "))
    if last.startswith("factor "):
        return tool_call("factor", expression=last.removeprefix("factor "))
    if last.startswith("derivative of "):
        return tool_call("derivative", expression=last.removeprefix("derivative of "))
    if fact := re.search(r"\b(domain|range|inverse) of (\w+)", last):
        return tool_call(fact.group(1), expression=fact.group(2))
    if extreme := re.search(r"\b(\w)\(\w\) = .*(how high|largest|smallest)", last):
        return tool_call(
            "maximum" if extreme.group(2) != "smallest" else "minimum", expression=extreme.group(1)
        )
    if "square of the roots" in last:
        return tool_call("evaluate", expression="x^2", at=_roots(request))
    if last == "integrate this":
        return ask_back("What should I integrate, and over which interval?")
    if match := re.fullmatch(r"(.+) from (\S+) to (\S+)", last):
        expression, lower, upper = match.groups()
        return tool_call("integral", expression=expression, lower=lower, upper=upper)
    return ask_back("I can solve, differentiate, evaluate and integrate.")


def reference_model() -> ScriptedModel:
    return ScriptedModel(chat=_chat, summaries=_summarize, facts=_user_facts)
