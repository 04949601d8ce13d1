"""`semantic`: the recent exchange verbatim plus the top-K past messages most like the request.

Before each MathChat call the context is:

1. the system prompt (the prompt template);
2. the K archived messages most similar to the new user message by cosine similarity of
   their sentence embeddings (K = `top_k`, default 2), put back in chronological order;
3. the most recent finished exchange verbatim (its tool calls included) and the open task,
   which ends with the new message.

"Archived" is everything older than that exchange: user messages, answers, tool call/result
pairs (one candidate each, so a call is never shown without its result), and the exchanges
of a leading summary left by another strategy (one line each). A history with at most K
candidates passes through whole.

Why message level rather than task level: a request like "can we return to the fleet math?"
is most like the one message that talked about the fleet, not the whole task around it, and
K small messages cost less than K tasks. The working history itself is never compacted, it
is the archive (the transcript, `/strategy` and `/undo-compact` keep working); each message
is embedded once (`CachedEmbedder`, keyed by a hash of its text).

Embeddings: all-MiniLM-L6-v2 from the optional `embeddings` extra (see
`agent.context.embeddings`); without it the strategy cannot be built and says what to install.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.common import latest_request
from agent.context.embeddings import Embedder, cosine, default_embedder
from agent.context.tasks import split_history
from agent.messages import (
    Message,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat,
)

DEFAULT_TOP_K = 2


@dataclass(frozen=True)
class Candidate:
    """One archived item: a message, a tool call with its result, or a summary line."""

    position: int  # chronological order among candidates
    messages: tuple[Message, ...]  # empty for a summary line
    exchange: SummaryExchangeRecord | None
    text: str  # what is embedded


def candidate_text(messages: tuple[Message, ...]) -> str:
    """The words a message shows the model, without the JSON envelope of tool calls."""
    parts: list[str] = []
    for message in messages:
        if isinstance(message, ToolCall):
            args = ", ".join(f"{k}={v}" for k, v in message.arguments.items() if v is not None)
            parts.append(f"{message.tool} {args}")
        elif isinstance(message, ToolResultMessage):
            parts.append(message.text)
        else:
            parts.append(getattr(message, "text", to_chat(message).content))
    return " ".join(parts)


def archive_candidates(archive: list[Message], summaries: list[SummaryMessage]) -> list[Candidate]:
    """Summary lines first (they are older), then messages; a call and its result as one."""
    found: list[Candidate] = []
    for summary in summaries:
        for exchange in summary.exchanges:
            text = f"{exchange.question} -> {exchange.answer}"
            found.append(Candidate(len(found), (), exchange, text))
    results = {m.call_id: m for m in archive if isinstance(m, ToolResultMessage)}
    paired = {m.call_id for m in archive if isinstance(m, ToolCall) and m.call_id in results}
    for message in archive:
        if isinstance(message, ToolResultMessage):
            continue  # shown with its call (or, unpaired, never: a result without a call)
        if isinstance(message, ToolCall):
            if message.call_id not in paired:
                continue
            group: tuple[Message, ...] = (message, results[message.call_id])
        else:
            group = (message,)
        found.append(Candidate(len(found), group, None, candidate_text(group)))
    return found


class SemanticStrategy(ContextStrategy):
    name = "semantic"

    def __init__(self, top_k: int = DEFAULT_TOP_K, embedder: Embedder | None = None) -> None:
        if top_k < 0:
            raise ValueError("top_k must be 0 or more")
        self.top_k = top_k
        self.embedder = embedder if embedder is not None else default_embedder()

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        split = split_history(working)
        if not split.finished:
            return working
        recent = [*split.finished[-1], *split.open_tail]
        archive = [m for task in split.finished[:-1] for m in task]
        candidates = archive_candidates(archive, split.summaries)
        if len(candidates) <= self.top_k:
            return working
        query = latest_request(working, incoming)
        if query is None:
            return working
        chosen = self.top(candidates, query)
        lines = tuple(c.exchange for c in chosen if c.exchange is not None)
        shown: list[Message] = []
        if lines:
            shown.append(SummaryMessage(exchanges=lines, strategy=self.name))
        shown.extend(m for c in chosen for m in c.messages)
        return [*shown, *recent]

    def top(self, candidates: list[Candidate], query: str) -> list[Candidate]:
        """The `top_k` most similar candidates, in chronological order (ties: the later)."""
        if self.top_k == 0:
            return []
        vectors = self.embedder.embed([query, *(c.text for c in candidates)])
        target = vectors[0]
        scored = sorted(
            zip(candidates, vectors[1:], strict=True),
            key=lambda pair: (cosine(target, pair[1]), pair[0].position),
            reverse=True,
        )
        return sorted((c for c, _ in scored[: self.top_k]), key=lambda c: c.position)

    def compact(self, request: CompactionInput) -> Compaction:
        return Compaction(
            None, "strategy 'semantic' selects per call; the working history is its archive"
        )
