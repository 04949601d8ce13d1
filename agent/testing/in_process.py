"""The scripted model as a `MathModel`, without HTTP: for fast loop and strategy tests.

The context is rendered to chat messages exactly as for a real call, the scripted model
replies with text, and the generated BAML parser turns that text into the typed step, so
the in-process path parses as the HTTP path does. Tokens are counted with the offline
tokenizer, so token-based strategies see realistic numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from baml_py import AbortController

from agent import wire
from agent.accounting.ledger import UsageLedger
from agent.accounting.tokenizer import count_messages, count_text
from agent.errors import explain_llm_error
from agent.llm.model import AnswerBegun, ProgressObserver, Step
from agent.llm.step_schema import Wanted
from agent.llm.token_choices import TokenChoice
from agent.testing.scripted import Reply, ScriptedModel, ScriptedRequest
from baml_client import b
from baml_client.types import ChatMessage, ContextSummary, MessageToUser, UserFactChanges

_ENDPOINT = "the scripted model"
T = TypeVar("T")


class InProcessModel:
    """`MathModel` over a `ScriptedModel`; `seen`/`summarized` keep every context sent."""

    def __init__(
        self,
        steps: Sequence[Reply] = (),
        summaries: Sequence[Reply] = (),
        script: ScriptedModel | None = None,
    ) -> None:
        self.script = script if script is not None else ScriptedModel(steps, summaries)
        self.ledger = UsageLedger()
        self.seen: list[list[ChatMessage]] = []
        # The kind of reply the loop wanted at each MathChat call (a script is not held to it).
        self.wanted: list[Wanted] = []
        self.summarized: list[list[ChatMessage]] = []
        # Token probabilities per MathChat call (by its index), as an endpoint asked for
        # `logprobs` returns them (`hesitating` writes them); the last call's are read.
        self.choices: dict[int, tuple[TokenChoice, ...]] = {}
        self.token_choices: tuple[TokenChoice, ...] = ()

    def _ask(self, function: str, messages: list[dict[str, Any]]) -> str:
        reply = self.script.reply(ScriptedRequest(messages))
        if isinstance(reply, BaseException):
            self.ledger.add(function, count_messages(messages), 0, 0.0)
            raise reply
        # A typed BAML object (a summary, a step) is sent as the JSON a model would write.
        text = reply if isinstance(reply, str) else getattr(reply, "model_dump_json", str)()
        self.ledger.add(function, count_messages(messages), count_text(text), 0.0)
        return text

    def next_step(
        self,
        messages: list[ChatMessage],
        abort: AbortController | None = None,
        on_progress: ProgressObserver | None = None,
        wanted: Wanted = "any",
        decide_only: bool = False,
    ) -> Step | AnswerBegun:
        self.wanted.append(wanted)
        if wanted == "answer":  # as BamlMathModel words it; a script may still answer with a call
            messages = [*messages, ChatMessage(role=wire.USER, content=wire.ANSWER_NOW)]
        self.seen.append(list(messages))
        self.token_choices = self.choices.get(len(self.seen) - 1, ())
        text = self._ask("MathChat", [m.model_dump() for m in messages])
        step = _parsed(b.parse.MathChat, text)
        if decide_only and isinstance(step, MessageToUser):  # as a real call is cut there
            return AnswerBegun(step.response)
        return step

    def summarize(self, messages: list[ChatMessage]) -> ContextSummary:
        self.summarized.append(list(messages))
        rendered = [
            {"role": wire.SYSTEM, "content": wire.SUMMARIZER_MARK},
            *(m.model_dump() for m in messages),
            {"role": wire.USER, "content": wire.COMPACT_INSTRUCTION},
        ]
        text = self._ask("SummarizeContext", rendered)
        return _parsed(b.parse.SummarizeContext, text)

    def extract_user_facts(self, known: list[str], message: str) -> UserFactChanges:
        rendered = [
            {"role": wire.SYSTEM, "content": "\n".join([wire.FACTS_MARK, *known])},
            {"role": wire.USER, "content": message},
        ]
        text = self._ask("ExtractUserFacts", rendered)
        return _parsed(b.parse.ExtractUserFacts, text)


def _parsed(parse: Callable[[str], T], text: str) -> T:
    """The generated parser, its failures worded as a real call's would be."""
    try:
        return parse(text)
    except Exception as exc:
        raise explain_llm_error(exc, _ENDPOINT) from exc


def hesitating(reply: str, written: str, other: str, share: float) -> tuple[TokenChoice, ...]:
    """The tokens of `reply` (text before, `written`, text after), where the model gave
    `other` probability `share` in place of `written` (its first occurrence after the start
    of the reply's `"tool"` value, when there is one)."""
    start = reply.find(written, max(reply.find('"tool"'), 0))
    head, tail = reply[:start], reply[start + len(written) :]
    return (
        TokenChoice(0, head, 1.0),
        TokenChoice(len(head), written, 1 - share, ((other, share),)),
        TokenChoice(len(head) + len(written), tail, 1.0),
    )
