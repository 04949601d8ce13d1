"""Retention judged without the strategies' own fact extractor.

The strategies' safety check and `budget`'s recall read facts with
`agent.context.math_facts`; a benchmark that measured retention with the same reader could
agree with them where both are wrong. This checker shares no code with `agent.context`: a
back-reference is retained when every text its scenario says it needs (a root, an equation's
left side, a derivative as the tools print it, a name) appears in the MathChat request sent
for the referring question, outside that question itself, as a whole token.
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
    if needed.replace(" ", "").isalpha():
        return re.search(rf"\b{re.escape(needed)}\b", text, re.IGNORECASE) is not None
    pattern = r"(?<![\w^*/\-])(?<!\d\.)" + re.escape(needed) + r"(?![\w^*/]|\.\d)"
    return re.search(pattern, text) is not None


def first_request_for(question: str, requests: Iterable[dict[str, Any]]) -> list[dict] | None:
    """The messages of the first MathChat request whose latest user message is `question`."""
    for body in requests:
        messages = body.get("messages") or []
        if not messages or wire.function_of(messages) != "MathChat":
            continue
        users = [m for m in messages if m.get("role") == wire.USER]
        texts = [
            wire.request_of(str(m.get("content", "")))
            for m in users
            if not wire.is_tool_outcome(str(m.get("content", "")))
        ]
        if texts and texts[-1] == question:
            return messages
    return None


def missing_in_request(
    question: str, needs: Iterable[str], requests: list[dict]
) -> list[str] | None:
    """What the request for `question` lacked ([] = everything there); None if never asked."""
    messages = first_request_for(question, requests)
    if messages is None:
        return None
    # The request itself is left out; the workspace shown with it counts.
    context = "\n".join(
        str(m.get("content", "")).removesuffix(question)
        for m in messages
        if str(m.get("content", "")) != question
    )
    return [n for n in needs if not appears(n, context)]
