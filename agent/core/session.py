"""The state of one conversation: working context, full transcript, undo stack, usage.

The working context is what the LLM sees; the transcript is what happened. Only
`apply_compaction` and `undo_compaction` replace the working context wholesale, and both
leave a record in the transcript.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.accounting.tokenizer import count_messages
from agent.core.transcript import CompactionRecord, Entry, Transcript
from agent.messages import Message, SummaryMessage, as_openai_dicts, to_chat_list

# Transcript entries that are conversation (not summaries or records).
_CONVERSATION = frozenset({"user", "tool_call", "tool_result", "assistant"})
# How many compactions `/undo-compact` can step back through.
MAX_UNDO = 10


def context_tokens(messages: list[Message]) -> int:
    """Tokens of the rendered history (without the system prompt)."""
    return count_messages(as_openai_dicts(to_chat_list(messages)))


def _message_tokens(message: Message) -> int:
    """What one message adds to `context_tokens` of a history (without the reply priming)."""
    return context_tokens([message]) - context_tokens([])


@dataclass
class Session:
    working: list[Message] = field(default_factory=list)
    transcript: Transcript = field(default_factory=Transcript)
    undo_stack: list[list[Message]] = field(default_factory=list)

    # Tokens of every message since the start, as strategy `none` would send them.
    uncompacted_tokens: int = field(default=0, init=False)

    # Per-message token counts, so the saving estimate costs no re-tokenising per call.
    _token_cache: dict[int, tuple[Message, int]] = field(default_factory=dict, init=False)

    def history_tokens(self, messages: list[Message]) -> int:
        """`context_tokens(messages)`, from cached per-message counts."""
        if len(self._token_cache) > 50_000:
            self._token_cache.clear()
        total = context_tokens([])
        for message in messages:
            cached = self._token_cache.get(id(message))
            if cached is None or cached[0] is not message:
                cached = (message, _message_tokens(message))
                self._token_cache[id(message)] = cached
            total += cached[1]
        return total

    def __post_init__(self) -> None:
        self.uncompacted_tokens = context_tokens([]) + sum(
            _message_tokens(e) for e in self.transcript.entries if e.kind in _CONVERSATION
        )

    def append(self, message: Message) -> None:
        """A new message goes to both the working context and the transcript."""
        self.working.append(message)
        self.transcript.append(message)
        self.uncompacted_tokens += _message_tokens(message)

    def conversation(self) -> list[Message]:
        """Every message of the session, compacted away or not (from the transcript)."""
        return [e for e in self.transcript.entries if e.kind in _CONVERSATION]  # type: ignore[misc]

    def record(self, entry: Entry) -> None:
        self.transcript.append(entry)

    def rollback(self, length: int) -> None:
        """Drop working messages of a failed turn (the transcript keeps them)."""
        self.uncompacted_tokens -= sum(_message_tokens(m) for m in self.working[length:])
        del self.working[length:]

    def apply_compaction(
        self, new_working: list[Message], strategy: str, reason: str, failed: bool = False
    ) -> CompactionRecord:
        record = CompactionRecord(
            strategy=strategy,
            applied=True,
            messages_before=len(self.working),
            messages_after=len(new_working),
            tokens_before=self.history_tokens(self.working),
            tokens_after=self.history_tokens(new_working),
            reason=reason,
            failed=failed,
        )
        new_summaries = [
            m
            for m in new_working
            if isinstance(m, SummaryMessage) and all(m is not old for old in self.working)
        ]
        self.undo_stack.append(list(self.working))
        del self.undo_stack[:-MAX_UNDO]  # each entry is a whole working context, saved each turn
        self.working = list(new_working)
        self.transcript.extend([*new_summaries, record])
        return record

    def undo_compaction(self) -> bool:
        if not self.undo_stack:
            return False
        restored = self.undo_stack.pop()
        self.record(
            CompactionRecord(
                strategy="undo",
                applied=True,
                messages_before=len(self.working),
                messages_after=len(restored),
                tokens_before=self.history_tokens(self.working),
                tokens_after=self.history_tokens(restored),
                reason="restored the working context from before the last compaction",
            )
        )
        self.working = restored
        return True
