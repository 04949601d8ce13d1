"""A rule-based stand-in for a real model, for recording the reference cassette offline.

It answers the reference conversation (solve, derivative, "the square of the roots", a
clarified integral) the way a capable model would, reading earlier results from the context
it is sent, so a cassette recorded through it exercises the real record/replay path. With a
real endpoint, record the same conversation with `math-agent chat --record FILE` instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.scripted_llm import SUMMARIZER_MARK, answer, tool

REFERENCE_QUESTIONS = [
    "solve x^2 + 5*x + 6 = 0",
    "derivative of 2*x^2 + 4*x - 6",
    "what is the square of the roots",
    "integrate this",
    "x^2 from 0 to 1",
]


def _roots(messages: list[dict[str, Any]]) -> list[str]:
    """The most recent roots mentioned in the context, e.g. 'x = -3, x = -2'."""
    for message in reversed(messages):
        found = re.findall(
            r"x = (-?[\w/*()+ -]+?)(?:,|\)|$| and|\.|;| ≈)", message["content"], re.M
        )
        if found:
            return [r.strip() for r in found]
    return []


def _summarize(messages: list[dict[str, Any]]) -> str:
    exchanges, question = [], None
    for message in messages[1:]:
        content = message["content"]
        if message["role"] == "user" and not content.startswith(("Tool result", "Tool error")):
            question = question or content
        elif message["role"] == "assistant" and '"message_to_user"' in content:
            reply = json.loads(content)
            if reply["task_status"] == "COMPLETED" and question:
                exchanges.append({"question": question, "answer": reply["response"]})
                question = None
    return json.dumps({"exchanges": exchanges})


FACTS_MARK = "You keep a short list of durable facts about the user"


def _user_facts(message: str) -> str:
    """ExtractUserFacts: a name and an answer-form preference, when the message states them."""
    operations = []
    if name := re.search(r"\bI'm (\w+)", message):
        operations.append({"op": "add", "kind": "NAME", "text": f"Is called {name.group(1)}"})
    if "decimal" in message.lower():
        operations.append({"op": "add", "kind": "ANSWER_FORM", "text": "Wants decimal answers"})
    return json.dumps({"operations": operations})


def respond(messages: list[dict[str, Any]]) -> str:
    if SUMMARIZER_MARK in messages[0]["content"]:
        return _summarize(messages)
    if FACTS_MARK in messages[0]["content"]:
        return _user_facts(messages[-1]["content"])
    last = messages[-1]["content"]
    if last.startswith("Tool result"):
        return answer(f"Done: {last.split(': ', 1)[1]}")
    if last.startswith("Tool error"):
        return answer(f"The tool could not do that: {last.split(': ', 1)[1]}")
    if last.startswith("solve "):
        return tool("solve", equation=last.removeprefix("solve "))
    if last.startswith("derivative of "):
        return tool("derivative", expression=last.removeprefix("derivative of "))
    if "square of the roots" in last:
        return tool("evaluate", expression="x^2", at=_roots(messages))
    if last == "integrate this":
        return answer("What should I integrate, and over which interval?", "PROCESSING")
    if match := re.fullmatch(r"(.+) from (\S+) to (\S+)", last):
        expression, lower, upper = match.groups()
        return tool("integral", expression=expression, lower=lower, upper=upper)
    return answer("I can solve, differentiate, evaluate and integrate.", "PROCESSING")
