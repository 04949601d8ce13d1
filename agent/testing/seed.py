"""Scripted models for the service's tests, its page and `math-agent bench serve`.

`seed_model` answers the seed conversation of the README the way a capable model would
(solve, "its derivative" pointing at the equation's id, "square each root" pointing at the
roots), reading what it needs from the request, so any session can ask it in any order.
`tagged_model` answers `TAG: solve EQUATION` messages with a solve and then an answer that
starts with the same tag: the load bench checks each answer against its question that way.
"""

from __future__ import annotations

import re

from agent import wire
from agent.testing.replies import answer, ask_back, derivative, evaluate, solve
from agent.testing.scripted import ScriptedModel, ScriptedRequest

SEED_QUESTIONS = ("solve x^2 + 5x + 6 = 0", "now its derivative", "square each root")
_ID = re.compile(r"#(\d+)")


def _last_id(request: ScriptedRequest, kind: str) -> str | None:
    """The newest workspace id of a `kind` line (`equation`, `roots of`) the request shows."""
    found = None
    for message in request.messages:
        for line in str(message.get("content", "")).splitlines():
            match = re.match(rf"#(\d+) {kind}", line.strip())
            if match:
                found = f"#{match.group(1)}"
    return found


def _after_tool(request: ScriptedRequest) -> str:
    tool = wire.tool_outcome_body(request.last)
    label = request.last.split(":", 1)[0]
    if "error" in label.lower():
        return answer(f"The tool could not do that: {tool}")
    if "(solve)" in label:
        return answer(f"The roots are {tool.replace(', ', ' and ')}.")
    if "(derivative)" in label:
        return answer(f"The derivative is {tool.rsplit('= ', 1)[-1]}.")
    if "(evaluate)" in label:
        values = [part.rsplit("= ", 1)[-1] for part in tool.split("; ")]
        return answer(f"The squares of the roots are {' and '.join(values)}.")
    return answer(f"Done: {tool}")


def _seed_chat(request: ScriptedRequest) -> str:
    if request.after_tool_call:
        return _after_tool(request)
    question = (request.question or "").strip()
    if question.lower().startswith("solve "):
        return solve(question[len("solve ") :])
    if "derivative" in question:
        return derivative(_last_id(request, "equation") or "#1")
    if "square" in question:
        return evaluate(f"({_last_id(request, 'roots') or '#2'})^2")
    return ask_back("I can solve an equation, take its derivative and square its roots.")


def seed_model() -> ScriptedModel:
    return ScriptedModel(chat=_seed_chat)


_TAGGED = re.compile(r"^(?P<tag>[\w-]+): solve (?P<equation>.+)$")


def _tagged_chat(request: ScriptedRequest) -> str:
    question = (request.question or "").strip()
    match = _TAGGED.match(question)
    if match is None:
        return ask_back("Send 'TAG: solve EQUATION'.")
    if request.after_tool_call:
        return answer(f"{match.group('tag')}: {wire.tool_outcome_body(request.last)}")
    return solve(match.group("equation"))


def tagged_model() -> ScriptedModel:
    return ScriptedModel(chat=_tagged_chat)


SCRIPTS = {"seed": seed_model, "tagged": tagged_model}
