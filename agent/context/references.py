"""Which finished tasks a request refers back to, by number.

People point back in many ways; each way is read here without an LLM, against a numbered
ledger of finished tasks (task 1 is the first thing the user asked):

- numbers and ordinals: "question 5", "#5", "my 3rd question", "the second problem I sent",
  "the very first result", "the last one", "the previous-but-one", "second to last";
- positions: "two tasks back", "3 questions ago", "a couple of problems earlier";
- results: "the one with roots 5 and -1" (the line states those values), or an expression
  the request repeats;
- kinds named in other words: "the gradient function", "the solutions from earlier", "that
  area" (derivative, solve, integral, evaluate), with "first"/"earliest" or "latest" when said;
- chains: "and what was its value at that time?" carries the previous request's references.

Every rule errs on the side of showing a line: a wrong extra line costs ~25 tokens, a missing
one costs the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from agent.context.math_facts import extract_facts, is_distinctive
from agent.messages import Message, SummaryExchangeRecord, UserMessage


@dataclass(frozen=True)
class LedgerLine:
    """One finished task: its number in the conversation, what was asked, what came out, and
    the tools that ran for it (a word problem says "velocity", its tool says "derivative")."""

    number: int
    question: str
    answer: str
    tools: tuple[str, ...] = ()

    @classmethod
    def of(cls, number: int, exchange: SummaryExchangeRecord) -> LedgerLine:
        return cls(number, exchange.question, exchange.answer, exchange.tools)

    @property
    def kinds(self) -> frozenset[str]:
        """What kind of task this was: by the tools that ran ("what is that derivative at 3"
        ran `evaluate`), by the request's words when no tool ran."""
        return frozenset(self.tools) & KIND_NAMES if self.tools else kinds_of(self.question)


NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "a couple of": 2, "a couple": 2,
    "couple of": 2, "a pair of": 2,
}  # fmt: skip
ORDINAL_WORDS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50,
}  # fmt: skip
# What a task is called when pointed at ("the second problem", "question 5").
TASK_NOUNS = (
    r"question|questions|problem|problems|task|tasks|exercise|exercises|request|requests|"
    r"item|items|one|ones|thing|things|calculation|calculations|query|queries|prompt|prompts|"
    r"message|messages|result|results|answer|answers|equation|equations|expression|"
    r"expressions|function|functions|polynomial|polynomials|step|steps|turn|turns|computation|"
    r"computations|exchange|exercise|entry|entries|line"
)
# Kinds of task, with the words people use for each (a paraphrase shares none with the tool).
KIND_WORDS: dict[str, tuple[str, ...]] = {
    "solve": (
        "solve", "solved", "solving", "root", "roots", "solution", "solutions", "zero", "zeros",
        "zeroes", "intercept", "intercepts", "x-intercepts", "quadratic", "equation",
    ),
    "derivative": (
        "derivative", "derivatives", "differentiate", "differentiated", "differentiating",
        "differentiation", "gradient", "slope", "rate", "d/dx", "derived", "prime",
    ),
    "integral": (
        "integral", "integrals", "integrate", "integrated", "integrating", "integration",
        "antiderivative", "antiderivatives", "primitive", "area",
    ),
    "evaluate": (
        "evaluate", "evaluated", "evaluating", "evaluation", "value", "values", "plug",
        "plugged", "substitute", "substituted", "square", "squares", "cube", "computed",
    ),
}  # fmt: skip
_KIND_OF_WORD = {word: kind for kind, words in KIND_WORDS.items() for word in words}
KIND_NAMES = frozenset(KIND_WORDS)
EARLY_WORDS = frozenset({"first", "earliest", "beginning", "start", "initial", "original"})
LATE_WORDS = frozenset({"latest", "last", "recent", "previous", "prior", "preceding"})
ANAPHORA = re.compile(
    r"\b(that|it|its|this|those|these|them|same|then|there|above)\b", re.IGNORECASE
)
# Orders of a derivative are not references: "the second derivative of ...".
_DERIVATIVE_ORDER = re.compile(
    r"\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th)[- ](?:order\s+)?(?:derivative|"
    r"differential|partial)",
    re.IGNORECASE,
)

_NUM = r"(\d{1,3})"
_ORDINAL_WORD = "|".join(sorted(ORDINAL_WORDS, key=len, reverse=True))
_COUNT_WORD = "|".join(sorted(map(re.escape, NUMBER_WORDS), key=len, reverse=True))
_NOUNS = rf"(?:{TASK_NOUNS})"
_FILLER = r"(?:\s+(?:\w+[-']?\w*|\w))?{0,3}?"  # up to three words between ordinal and noun

EXPLICIT_NUMBER = re.compile(
    rf"(?:\b{_NOUNS}\s*(?:number|no\.?|num\.?|#)?\s*#?{_NUM}\b)|(?:#\s*{_NUM}\b)|"
    rf"(?:\bnumber\s+{_NUM}\b)",
    re.IGNORECASE,
)
ORDINAL = re.compile(
    rf"\b(?:the\s+|my\s+|your\s+|our\s+)?(?:very\s+)?"
    rf"(?P<ord>{_ORDINAL_WORD}|\d{{1,3}}(?:st|nd|rd|th))\b(?P<rest>(?:\s+[\w'-]+){{0,4}})",
    re.IGNORECASE,
)
FROM_THE_END = re.compile(
    rf"\b(?P<ord>{_ORDINAL_WORD}|\d{{1,3}}(?:st|nd|rd|th))[- ](?:to|from)[- ](?:the[- ])?last\b",
    re.IGNORECASE,
)
BEFORE_LAST = re.compile(
    r"\b(?:previous[- ]but[- ]one|last[- ]but[- ]one|one[- ]before[- ](?:the[- ])?last|"
    r"penultimate|before[- ]the[- ]last|before[- ]last)\b",
    re.IGNORECASE,
)
BACK = re.compile(
    rf"\b(?P<count>\d{{1,3}}|{_COUNT_WORD}|a\s+few|few|several)\s+"
    rf"(?:(?:more|other|of\s+(?:my|the|our))\s+)?(?:{TASK_NOUNS})?\s*"
    r"(?:back|ago|earlier|before(?!\s+(?:that|this|it)\b)|prior|previously)\b",
    re.IGNORECASE,
)
LATEST = re.compile(
    rf"\b(?:the\s+|my\s+)?(?:last|latest|previous|prior|preceding|most\s+recent)\s+{_NOUNS}\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[a-z][a-z/'-]*")


def _ordinal_value(token: str) -> int:
    token = token.lower()
    if token in ORDINAL_WORDS:
        return ORDINAL_WORDS[token]
    return int(re.sub(r"\D", "", token))


def _count_value(token: str) -> int:
    token = re.sub(r"\s+", " ", token.lower())
    if token.isdigit():
        return int(token)
    if token in ("a few", "few", "several"):
        return 3
    return NUMBER_WORDS.get(token, 0)


@lru_cache(maxsize=16384)
def kinds_of(text: str) -> frozenset[str]:
    """The kinds of task a text is about ("find the zeros of ..." -> solve; the parts of a
    hyphenated word count too: "rate-of-change" -> derivative)."""
    words = {part for w in _WORD.findall(text.lower()) for part in (w, *w.split("-"))}
    return frozenset(_KIND_OF_WORD[w] for w in words if w in _KIND_OF_WORD)


@lru_cache(maxsize=16384)
def _values(text: str) -> frozenset[str]:
    """Every fact of a text, distinctive or not (for matching "roots 5 and -1")."""
    return extract_facts(text)


def by_position(text: str, current: int) -> set[int]:
    """Task numbers named by number, ordinal or distance back (`current`: the asking task)."""
    found: set[int] = set()
    cleaned = _DERIVATIVE_ORDER.sub(" ", text)
    for match in EXPLICIT_NUMBER.finditer(cleaned):
        number = next(int(g) for g in match.groups() if g)
        found.add(number)
    for match in FROM_THE_END.finditer(cleaned):
        found.add(current - _ordinal_value(match.group("ord")))
    if BEFORE_LAST.search(cleaned):
        found.add(current - 2)
    for match in BACK.finditer(cleaned):
        count = _count_value(match.group("count"))
        if match.group("count").lower() in ("a few", "few", "several"):
            found.update(current - k for k in (2, 3, 4))
        elif count:
            found.add(current - count)
    if LATEST.search(cleaned):
        found.add(current - 1)
    for match in ORDINAL.finditer(cleaned):
        if FROM_THE_END.match(cleaned, match.start("ord")):
            continue
        rest = match.group("rest").lower()
        # "the second problem I sent", "my 3rd question", "the very first result", "the
        # first one": an ordinal followed soon by a task noun, or "very first".
        if re.search(rf"\b{_NOUNS}\b", rest) or "very" in match.group(0).lower():
            found.add(_ordinal_value(match.group("ord")))
    return {n for n in found if 1 <= n < current}


# "the first equation", "my second integral": the N-th task of a kind, not the N-th task.
KIND_NOUNS = {
    "equation": "solve", "equations": "solve", "quadratic": "solve", "quadratics": "solve",
    "integral": "integral", "integrals": "integral", "evaluation": "evaluate",
}  # fmt: skip
KIND_ORDINAL = re.compile(
    rf"\b(?:the\s+|my\s+)?(?:very\s+)?(?P<ord>{_ORDINAL_WORD}|\d{{1,3}}(?:st|nd|rd|th)|last|latest)"
    rf"\s+(?P<noun>{'|'.join(KIND_NOUNS)})\b",
    re.IGNORECASE,
)


def by_kind_ordinal(text: str, lines: Sequence[LedgerLine]) -> set[int]:
    """ "the very first equation" -> the first line that solved one; "last" -> the latest."""
    found: set[int] = set()
    for match in KIND_ORDINAL.finditer(text):
        kind = KIND_NOUNS[match.group("noun").lower()]
        of_kind = [line.number for line in lines if kind in line.kinds]
        word = match.group("ord").lower()
        if word in ("last", "latest"):
            found.update(of_kind[-1:])
            continue
        n = _ordinal_value(word)
        if 1 <= n <= len(of_kind):
            found.add(of_kind[n - 1])
    return found


def by_result(text: str, lines: Sequence[LedgerLine]) -> set[int]:
    """Lines that state what the request repeats: a distinctive fact, or two of its values."""
    wanted = _values(text)
    if not wanted:
        return set()
    distinctive = {f for f in wanted if is_distinctive(f)}
    found: set[int] = set()
    for line in lines:
        stated = _values(line.question) | _values(line.answer)
        shared = wanted & stated
        if shared & distinctive or len(shared) >= 2:
            found.add(line.number)
    return found


def by_kind(text: str, lines: Sequence[LedgerLine], per_kind: int = 2) -> set[int]:
    """Lines of the kind a request points back to ("the gradient function"): the first of
    that kind when it says "first"/"earliest", else the latest `per_kind` and the first."""
    words = set(_WORD.findall(text.lower()))
    wanted = kinds_of(text)
    if not wanted:
        return set()
    found: set[int] = set()
    for kind in wanted:
        of_kind = [line.number for line in lines if kind in line.kinds]
        if not of_kind:
            continue
        if words & EARLY_WORDS and not words & LATE_WORDS:
            found.add(of_kind[0])
        elif words & LATE_WORDS and not words & EARLY_WORDS:
            found.add(of_kind[-1])
        else:
            found.update(of_kind[-per_kind:])
            found.add(of_kind[0])
    return found


def refers_back(text: str) -> bool:
    """Does the text lean on something said before ("that", "it", "those roots")?"""
    return bool(ANAPHORA.search(text)) or bool(_KIND_AFTER_DETERMINER.search(text))


# "the roots", "those solutions", "its derivative" (not "the derivative of ...", a new task).
_KIND_AFTER_DETERMINER = re.compile(
    r"\b(?:the|that|those|these|its|their|this)\s+(?:\w+\s+)?(?:"
    + "|".join(
        sorted({re.escape(w) for ws in KIND_WORDS.values() for w in ws}, key=len, reverse=True)
    )
    + r")\b(?!\s+of\b)",
    re.IGNORECASE,
)
STOPWORDS = frozenset(
    [
        "about",
        "above",
        "after",
        "again",
        "also",
        "and",
        "another",
        "answer",
        "back",
        "before",
        "being",
        "between",
        "both",
        "could",
        "does",
        "doing",
        "done",
        "each",
        "earlier",
        "from",
        "have",
        "having",
        "into",
        "just",
        "like",
        "more",
        "most",
        "much",
        "must",
        "once",
        "only",
        "other",
        "over",
        "please",
        "same",
        "should",
        "some",
        "such",
        "than",
        "that",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "very",
        "want",
        "what",
        "when",
        "where",
        "which",
        "while",
        "will",
        "with",
        "would",
        "your",
        "yours",
        "you",
        "again",
        "give",
        "gave",
        "tell",
        "told",
        "show",
        "find",
        "found",
        "compute",
        "calculate",
        "work",
        "worked",
        "math",
        "number",
        "numbers",
        "value",
        "values",
        "result",
        "results",
        "question",
        "questions",
        "problem",
        "problems",
        "task",
        "tasks",
        "thing",
        "things",
        "return",
        "remember",
        "recall",
        "earlier",
        "before",
        "used",
        "using",
        "use",
        "time",
        "times",
        "point",
    ]
)


def by_words(text: str, lines: Sequence[LedgerLine], rare: int = 3) -> set[int]:
    """Lines sharing a rare content word with the request ("the fleet math" -> the line about
    a delivery fleet): at least four letters, not a stop, kind or task word, and in at most
    `rare` lines."""
    wanted = content_words(text)
    if not wanted:
        return set()
    holders: dict[str, list[int]] = {}
    for line in lines:
        for word in wanted & content_words(line.question):
            holders.setdefault(word, []).append(line.number)
    return {n for numbers in holders.values() if len(numbers) <= rare for n in numbers}


@lru_cache(maxsize=16384)
def content_words(text: str) -> frozenset[str]:
    words = {w.strip("'-").removesuffix("'s") for w in _WORD.findall(text.lower())}
    return frozenset(
        w.removesuffix("s")
        for w in words
        if len(w) >= 4
        and w not in STOPWORDS
        and w not in _KIND_OF_WORD
        and not re.fullmatch(TASK_NOUNS, w)
    )


def referenced(text: str, lines: Sequence[LedgerLine], current: int) -> set[int]:
    """Every task number `text` may refer to, from all the rules above."""
    named = by_position(text, current) | by_result(text, lines) | by_kind_ordinal(text, lines)
    found = named | by_words(text, lines)
    if not named and (refers_back(text) or _mentions_past(text)):
        # The weakest clue, added when no rule names a task, even if a shared word found a
        # line: words a reference shares with an older one ("the formula you gave me") can
        # point at the wrong task.
        found |= by_kind(text, lines)
    return found


_PAST = re.compile(
    r"\b(earlier|before|previous(?:ly)?|from\s+(?:the\s+)?(?:start|beginning)|ago|back|"
    r"again|remember|recall|you\s+(?:found|computed|gave|got|solved|said)|we\s+(?:found|"
    r"computed|got|did|solved))\b",
    re.IGNORECASE,
)


def _mentions_past(text: str) -> bool:
    return bool(_PAST.search(text))


class RequestFocus:
    """The tasks the open task's requests refer to, remembered from one call to the next, so a
    request that leans on the previous one ("and its value at that time?") inherits that
    one's references. Shared by the strategies that show lines by reference."""

    def __init__(self) -> None:
        self._text: str | None = None
        self._focus: tuple[int, ...] = ()
        self._previous: tuple[int, ...] = ()

    def of(
        self,
        lines: Sequence[LedgerLine],
        current: int,
        open_tail: Sequence[Message],
        incoming: UserMessage | None,
    ) -> tuple[int, ...]:
        """Task numbers the open task's requests (and `incoming`) refer to."""
        texts = [m.text for m in open_tail if isinstance(m, UserMessage)]
        if incoming is not None and (not texts or texts[-1] != incoming.text):
            texts.append(incoming.text)
        key = "\n".join(texts)
        if key == self._text:
            return self._focus
        if self._text is not None and not key.startswith(self._text):
            self._previous = self._focus  # a new task: the last one's references
        found: set[int] = set()
        for text in texts:
            found |= referenced(text, lines, current)
        if texts and refers_back(texts[0]):
            found |= set(self._previous)
        self._text, self._focus = key, tuple(sorted(found))
        return self._focus

    def to_state(self) -> dict[str, Any]:
        return {"previous_focus": list(self._previous), "focus": list(self._focus)}

    def from_state(self, state: dict[str, Any]) -> None:
        self._previous = tuple(state.get("previous_focus", ()))
        self._focus = tuple(state.get("focus", ()))
