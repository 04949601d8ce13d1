"""Durable user facts and preferences, kept outside the compactable history.

Compaction folds tasks; a preference stated once ("always give decimals") would fold with
them and, with a selecting strategy, stop being shown. So such facts live in a small store:

- `ExtractUserFacts` (baml_src/facts.baml) reads each user message with the numbered list of
  known facts and returns add / update / forget operations (literal `op` discriminator);
- `UserFactStore.apply` merges them: no duplicates (same text, or a second value of a
  one-per-user kind such as the answer form, which replaces the first), bounded size;
- `FactsMemory(inner)` wraps any strategy: its `view` puts the facts in front as a system
  message (which BAML joins to the system prompt), `compact` delegates, so the facts survive
  any compaction; `observe_user_message` is the loop hook that runs the extraction.

The store is plain data (`to_state` / `from_state`), so a saved session can persist it.
An extraction failure never breaks a turn: the store stays as it was and the reason is kept
in `last_error`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.llm.model import MathModel
from agent.messages import Message, SummaryExchangeRecord, SummaryMessage, UserMessage
from baml_client.types import (
    AddUserFact,
    ForgetUserFact,
    UpdateUserFact,
    UserFactChanges,
    UserFactKind,
)

FACTS_HEADER = "What the user told you earlier (durable facts and preferences; follow them):"
# Kinds of which a user has one value: a new one replaces the old instead of adding.
SINGLE_VALUED = frozenset({UserFactKind.NAME.value, UserFactKind.ANSWER_FORM.value})
MAX_FACTS = 20
MAX_FACT_CHARS = 200


@dataclass(frozen=True)
class UserFact:
    kind: str
    text: str


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()).rstrip(".") == " ".join(b.lower().split()).rstrip(".")


class UserFactStore:
    """An ordered, de-duplicated list of facts; numbers shown to the user and LLM are 1-based."""

    def __init__(self, facts: list[UserFact] | None = None, limit: int = MAX_FACTS) -> None:
        self.facts: list[UserFact] = list(facts or [])
        self.limit = limit

    def texts(self) -> list[str]:
        return [f.text for f in self.facts]

    def add(self, kind: str, text: str) -> bool:
        """Add a fact; a duplicate is ignored, a one-per-user kind replaces. True if changed."""
        text = " ".join(text.split())[:MAX_FACT_CHARS]
        if not text:
            return False
        if any(_same(f.text, text) for f in self.facts):
            return False
        if kind in SINGLE_VALUED:
            for i, fact in enumerate(self.facts):
                if fact.kind == kind:
                    self.facts[i] = UserFact(kind, text)
                    return True
        self.facts.append(UserFact(kind, text))
        if len(self.facts) > self.limit:
            del self.facts[0]  # the oldest goes first
        return True

    def update(self, number: int, kind: str, text: str) -> bool:
        if not 1 <= number <= len(self.facts):
            return self.add(kind, text)  # the LLM named no known fact: treat as new
        text = " ".join(text.split())[:MAX_FACT_CHARS]
        if not text:
            return False
        duplicate = next(
            (i for i, f in enumerate(self.facts) if _same(f.text, text) and i != number - 1),
            None,
        )
        if duplicate is not None:  # the new text is already known: the old one just goes
            del self.facts[number - 1]
            return True
        self.facts[number - 1] = UserFact(kind, text)
        return True

    def forget(self, number: int) -> UserFact | None:
        if not 1 <= number <= len(self.facts):
            return None
        return self.facts.pop(number - 1)

    def apply(self, changes: UserFactChanges) -> int:
        """Apply the LLM's operations, numbers as of the list it was shown. Returns changes."""
        shown = list(self.facts)
        changed = 0
        forgotten: list[UserFact] = []
        for op in changes.operations:
            if isinstance(op, AddUserFact):
                changed += self.add(_kind(op.kind), op.text)
            elif isinstance(op, UpdateUserFact):
                target = shown[op.number - 1] if 1 <= op.number <= len(shown) else None
                number = self.facts.index(target) + 1 if target in self.facts else 0
                changed += self.update(number, _kind(op.kind), op.text)
            elif isinstance(op, ForgetUserFact) and 1 <= op.number <= len(shown):
                forgotten.append(shown[op.number - 1])
        for fact in forgotten:
            if fact in self.facts:
                self.facts.remove(fact)
                changed += 1
        return changed

    def describe(self) -> str:
        if not self.facts:
            return "No facts remembered yet."
        return "\n".join(f"{i}. {f.text}" for i, f in enumerate(self.facts, 1))

    def to_state(self) -> dict[str, Any]:
        return {"facts": [{"kind": f.kind, "text": f.text} for f in self.facts]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> UserFactStore:
        return cls([UserFact(str(f["kind"]), str(f["text"])) for f in state.get("facts", [])])


def _kind(kind: UserFactKind | str) -> str:
    return kind.value if isinstance(kind, UserFactKind) else str(kind)


class FactsMessage(SummaryMessage):
    """The facts as one system message; only ever in a view, never in the working history."""

    @property
    def text(self) -> str:  # type: ignore[override]
        lines = [f"- {e.answer}" for e in self.exchanges]
        return FACTS_HEADER + "\n" + "\n".join(lines)


@runtime_checkable
class FactsExtractor(Protocol):
    def extract_user_facts(self, known: list[str], message: str) -> UserFactChanges: ...


class FactsMemory(ContextStrategy):
    """Any strategy plus the user's durable facts in front of every MathChat call."""

    def __init__(self, inner: ContextStrategy, store: UserFactStore | None = None) -> None:
        self.inner = inner
        self.store = store or UserFactStore()
        self.last_error: str | None = None
        self.last_extraction_ms = 0.0

    @property
    def name(self) -> str:
        return f"{self.inner.name}+facts"

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        context = self.inner.view(working, incoming)
        if not self.store.facts:
            return context
        lines = tuple(
            SummaryExchangeRecord(question=f.kind, answer=f.text) for f in self.store.facts
        )
        return [FactsMessage(exchanges=lines, strategy="facts"), *context]

    def compact(self, request: CompactionInput) -> Compaction:
        return self.inner.compact(request)

    def observe_user_message(self, message: UserMessage, model: MathModel) -> None:
        """Loop hook: extract facts from the new user message (one LLM call), merge them."""
        started = time.perf_counter()
        try:
            if not isinstance(model, FactsExtractor):
                return  # a model without the function (e.g. a test fake): nothing to learn
            changes = model.extract_user_facts(self.store.texts(), message.text)
            self.store.apply(changes)
            self.last_error = None
        except Exception as exc:  # memory must never cost the user the turn
            self.last_error = f"{type(exc).__name__}: {getattr(exc, 'message', exc)}"
        finally:
            self.last_extraction_ms = (time.perf_counter() - started) * 1000

    # -- REPL and persistence -----------------------------------------------------------------

    def describe_facts(self) -> str:
        return self.store.describe()

    def forget_fact(self, number: int) -> str:
        fact = self.store.forget(number)
        if fact is None:
            return f"No fact {number}; /facts lists them."
        return f"Forgot: {fact.text}"

    def pin(self, working: list[Message], number: int | None = None) -> str | None:
        return self.inner.pin(working, number)

    def to_state(self) -> dict[str, Any]:
        return {"facts": self.store.to_state(), "inner": self.inner.to_state()}

    def from_state(self, state: dict[str, Any]) -> None:
        self.store = UserFactStore.from_state(state.get("facts", {}))
        self.inner.from_state(state.get("inner", {}))
