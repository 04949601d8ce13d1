"""Retention judged without the strategies' own fact extractor.

The strategies' safety check and `budget`'s recall read facts with
`agent.context.math_facts`; a benchmark that measured retention with the same reader could
agree with them where both are wrong. This checker shares no code with `agent.context`: a
back-reference is retained when every text its scenario says it needs (a root, an equation's
left side, a derivative as the tools print it, a name) appears, as a whole token, in what the
model could read for the referring question:

- "in prompt": the first MathChat request sent for it, outside the question itself;
- "by recall": that request plus what the `recall` calls the model made for the question
  brought back, provided the call it made next uses an id the recall gave (a look-up the
  model ignored reached nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from agent import wire


def appears(needed: str, text: str) -> bool:
    """`needed` occurs in `text` as a whole token, written as the scenario writes it (the
    generators write needs the way the tools print them and the user typed them): a word as a
    word in any case, math not glued to more math ("3" is not in "-3", "13" or "x^3")."""
    # A power is written `x**2` by the tools and `x^2` by the workspace's lines: either way.
    needed, text = needed.replace("**", "^"), text.replace("**", "^")
    if needed.replace(" ", "").isalpha():
        return re.search(rf"\b{re.escape(needed)}\b", text, re.IGNORECASE) is not None
    pattern = r"(?<![\w^*/\-])(?<!\d\.)" + re.escape(needed) + r"(?![\w^*/]|\.\d)"
    return re.search(pattern, text) is not None


IN_PROMPT = "in prompt"
BY_RECALL = "by recall"
_RECALLED = f"{wire.TOOL_RESULT_LABEL} ({wire.RECALL_TOOL})"
_ID = re.compile(r"#\d+")


def requests_for(question: str, requests: Iterable[dict[str, Any]]) -> list[list[dict]]:
    """The messages of every MathChat request whose latest user message is `question`."""
    found = []
    for body in requests:
        messages = body.get("messages") or []
        if not messages or wire.function_of(messages) != "MathChat":
            continue
        texts = [
            wire.request_of(str(m.get("content", "")))
            for m in messages
            if m.get("role") == wire.USER and not wire.is_tool_outcome(str(m.get("content", "")))
        ]
        if texts and texts[-1] == question:
            found.append(messages)
    return found


def first_request_for(question: str, requests: Iterable[dict[str, Any]]) -> list[dict] | None:
    """The messages of the first MathChat request whose latest user message is `question`."""
    found = requests_for(question, requests)
    return found[0] if found else None


def _context(messages: list[dict], question: str) -> str:
    # The request itself is left out; what is shown with it (its workspace lines) counts.
    return "\n".join(
        str(m.get("content", "")).removesuffix(question)
        for m in messages
        if str(m.get("content", "")) != question
    )


def _used_recalls(messages: list[dict]) -> list[str]:
    """What the recalls of a request's last task brought back, each counted only when the
    model's next call uses an id it gave."""
    used = []
    for index, message in enumerate(messages):
        content = str(message.get("content", ""))
        if not content.startswith(_RECALLED):
            continue
        following = next(
            (
                str(m.get("content", ""))
                for m in messages[index + 1 :]
                if m.get("role") == wire.ASSISTANT
            ),
            "",
        )
        if set(_ID.findall(following)) & set(_ID.findall(content)):
            used.append(content)
    return used


def reached(
    question: str, needs: Iterable[str], requests: list[dict]
) -> tuple[list[str] | None, str | None]:
    """(what the model could not reach for `question` — [] when nothing — and how it reached
    it: IN_PROMPT or BY_RECALL); (None, None) if the question was never asked."""
    asked = requests_for(question, requests)
    if not asked:
        return None, None
    needs = list(needs)
    context = _context(asked[0], question)
    missing = [n for n in needs if not appears(n, context)]
    if not missing:
        return [], IN_PROMPT
    recalled = "\n".join(text for messages in asked[1:] for text in _used_recalls(messages))
    missing = [n for n in missing if not appears(n, recalled)]
    return missing, (BY_RECALL if not missing else None)


def missing_in_request(
    question: str, needs: Iterable[str], requests: list[dict]
) -> list[str] | None:
    """What the model could not reach for `question` ([] = everything); None if never asked."""
    return reached(question, needs, requests)[0]
