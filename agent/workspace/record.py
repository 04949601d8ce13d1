"""The workspace: every math object of a chat, numbered, in one append-only record.

Why: a small model points back badly in English ("the first one", "that") and copies
numbers wrongly; given short ids it only has to point, and code does the exact work
(`agent.calls.resolve`). Items come from two places only: the math a person wrote
(`agent.workspace.capture`) and every successful tool result. The record is rebuilt from the
conversation (the transcript's messages), so it needs no storage of its own, survives every
compaction and a restart, and gives the same ids every time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

import sympy as sp

from agent import wire
from agent.messages import UserMessage
from agent.workspace.capture import capture
from agent.workspace.math_values import math_key, same_math
from agent.workspace.results import ItemKind
from tools.errors import ToolError

# Newest items listed where a list is shown (folded tasks' items, a recall of the whole
# workspace); functions are always listed, notes too.
SHOWN_ITEMS = 12
# The header of a listing of the whole workspace (a recall of everything, `/ws`).
WORKSPACE_HEADER = "Workspace (ids to use in tool fields):"
MAX_NOTES = 8
_ID = re.compile(r"#(\d+)")
# Ids an answer cites in brackets: "(#3)", "(#41, #42)", " (#2[1])".
_CITATION = re.compile(r"\s*\(\s*#\d+(?:\[-?\d+\])?(?:\s*,\s*#\d+(?:\[-?\d+\])?)*\s*\)")
# The person's equations by place: `equations[1]` the first, `equations[-1]` the last.
EQUATIONS = "equations"
_PLACE = re.compile(rf"\b{EQUATIONS}\s*\[\s*(-?\d+)\s*\]")


@dataclass(frozen=True, order=True)
class ItemRef:
    """An item's id as data (its number); written `#N` only where text is written: a tool
    result's label, a field the model reads back."""

    number: int

    def __str__(self) -> str:
        return f"#{self.number}"

    @classmethod
    def parse(cls, text: str | None) -> ItemRef | None:
        """`#5` (exactly an id, spaces around it aside) as its reference; else None."""
        match = _ID.fullmatch(text.strip()) if text else None
        return cls(int(match.group(1))) if match else None


@dataclass(frozen=True)
class Item:
    """One math object. `body`: SymPy text (an equation as `lhs = rhs`, an inequality as
    `x**2 - 4 > 0`, a solution set in interval notation, a function's right side); `values`:
    each value of a roots/values item (a solution set has none); `name`: a function's name."""

    number: int
    kind: ItemKind
    origin: str  # "you" for the person's math, else what made it ("roots of #1", "d/dx #3")
    body: str
    values: tuple[str, ...] = ()
    variable: str | None = None
    name: str | None = None
    params: tuple[str, ...] = ()
    # The person's item a result was computed from (its number), when the call's math is one.
    source: int | None = None
    # The place in the conversation of the message it came from (what a turn added).
    message: int | None = None
    # When the person's message that wrote it was sent (its identity across copies).
    said_at: datetime | None = None
    # The item a result was computed on when the call's math was exactly its id (`#4`,
    # `#4 = 0`): its roots are that item's roots, whoever wrote it.
    of: int | None = None

    @property
    def ref(self) -> ItemRef:
        return ItemRef(self.number)

    @property
    def id(self) -> str:
        return str(self.ref)

    @property
    def shown(self) -> str:
        """The math as the line shows it (`^` for powers: the notation people type)."""
        if self.kind == "function":
            head = f"{self.name}({', '.join(self.params)})" if self.params else str(self.name)
            return _plain(f"{head} = {self.body}")
        if self.values and self.variable and self.kind == "roots":
            return ", ".join(f"{self.variable} = {_plain(v)}" for v in self.values)
        if self.kind == "solution set" and self.variable:
            return f"{self.variable} in {_plain(self.body)}"  # `x in (-oo, -2) ∪ (2, oo)`
        if self.kind == "solutions":
            return "; ".join(_plain(v) for v in self.values)
        if self.values:
            return ", ".join(_plain(v) for v in self.values)
        return _plain(self.body)

    def line(self, position: str = "") -> str:
        """`#3 function q (you; equations[2], equations[-1]; quadratic): q(k) = ...`; a
        result of the person's equation shows that equation's place too (`#4 roots of #3
        (equations[2], equations[-1]): ...`), so "the second one we solved" is one look."""
        label = f"{self.origin} ({position})" if position else self.origin
        if self.origin == "you":
            what = f"{'function' if self.kind == 'function' else self.kind} {self.name or ''}"
            facts = [f for f in (position, degree_name(self)) if f]
            label = f"{what.strip()} (you{'; ' + '; '.join(facts) if facts else ''})"
        return f"{self.id} {label}: {self.shown}"


def _plain(text: str) -> str:
    return text.replace("**", "^")


@dataclass
class Workspace:
    items: list[Item] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Names an answer gave a result (`v(t) = 6t - 2` for #4): each name, its item's number
    # and the letters it takes (`add_answer_names`).
    given: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def next_number(self) -> int:
        return self.items[-1].number + 1 if self.items else 1

    @property
    def next_ref(self) -> ItemRef:
        """The id the next item will get."""
        return ItemRef(self.next_number)

    def get(self, number: int) -> Item | None:
        return next((item for item in self.items if item.number == number), None)

    @property
    def names(self) -> dict[str, Item]:
        """The names items carry (a function's, a label): what the lines show."""
        named: dict[str, Item] = {}
        for item in self.items:
            if item.name is not None:
                named[item.name] = item
        return named

    @property
    def named(self) -> dict[str, Item]:
        """What each name stands for in a call or a message: the names items carry, and the
        names answers gave results, each as its item under that name and letters (a name an
        item carries wins)."""
        given = {}
        for name, (number, params) in self.given.items():
            if (item := self.get(number)) is not None:
                given[name] = replace(item, name=name, params=params)
        return {**given, **self.names}

    def add_answer_names(self, text: str) -> None:
        """Names an answer writes for results (`v(t) = 3*t^2 - 2`, its math equal by value to
        an item's): each stands for that item from then on, as a function's name does. Read
        as notation: a definition whose head names its letters, and math compared by value;
        a name an item carries already is left as it is."""
        known = {n: i.body for n, i in self.named.items()}
        for piece in capture(_CITATION.sub("", text), known):
            if piece.name is None or not piece.params or piece.name in self.names:
                continue
            if not re.search(rf"(?<![\w]){re.escape(piece.name)}\s*\(", text):
                continue  # `y = 2x + 1` names no result: `y` stays a letter
            if (item := self._equal_to(piece.body)) is not None:
                self.given[piece.name] = (item.number, piece.params)

    def _equal_to(self, body: str) -> Item | None:
        """The newest expression or function whose math is `body`'s, by value."""
        try:
            key = math_key(body)
        except (ToolError, ValueError, TypeError, RecursionError):
            return None
        for item in reversed(self.items):
            if item.kind in ("expression", "function") and has_math(item, key, False):
                return item
        return None

    def add(self, item: Item) -> Item:
        self.items.append(item)
        return item

    def add_captured(
        self, text: str, message: int | None = None, said_at: datetime | None = None
    ) -> list[Item]:
        """The person's math of one message, each piece once (math already held is kept);
        `message`: that message's place in the conversation, `said_at` when it was sent."""
        known = {
            n: i.body for n, i in self.named.items() if i.kind == "function" or n in self.given
        }
        added = []
        for piece in capture(text, known):
            if any(
                i.origin == "you" and i.body == piece.body and i.name == piece.name
                for i in self.items
            ):
                continue
            added.append(
                self.add(
                    Item(
                        number=self.next_number,
                        kind=piece.kind,
                        origin="you",
                        body=piece.body,
                        name=piece.name,
                        params=piece.params,
                        message=message,
                        said_at=said_at,
                    )
                )
            )
        return added

    def cited_alone(self, field: str) -> Item | None:
        """The item a tool field is exactly the id of (`#4`), else None."""
        match = _ID.fullmatch(field.strip())
        return self.get(int(match.group(1))) if match else None

    def roots_of(self, item: Item) -> Item | None:
        """The newest roots of an item (an equation, a function, an expression): what the
        item stands for where a list of values is meant (`mean(#1)` after #1 was solved)."""
        return next(
            (
                i
                for i in reversed(self.items)
                if i.kind == "roots" and item.number in (i.source, i.of)
            ),
            None,
        )

    def held_before(self, ref: str) -> Item | None:
        """The earlier result with the same values as the result `ref` (`#9`, the roots of an
        equation solved again): the chat already had it. Values compared as sets, as written."""
        item = self.cited_alone(ref)
        if item is None or not item.values:
            return None
        values = set(item.values)
        return next(
            (
                i
                for i in reversed(self.items)
                if i.number < item.number and i.kind == item.kind and set(i.values) == values
            ),
            None,
        )

    def made_by(self, text: str) -> Item | None:
        """The result whose line says it came from what `text` says (the newest such):
        the workspace's own words for a result ("2nd derivative of q") name it."""
        said = " ".join(text.split()).lower()
        return next((i for i in reversed(self.items) if i.origin.lower() == said), None)

    def said_in(self, messages: Iterable[UserMessage]) -> tuple[str, ...]:
        """The ids of the math the person wrote in these messages (any copies of them)."""
        moments = {m.at for m in messages}
        return tuple(i.id for i in self.items if i.said_at is not None and i.said_at in moments)

    def added_by(self, message: int) -> list[Item]:
        """The items the message at that place in the conversation added."""
        return [item for item in self.items if item.message == message]

    def summary(self) -> str:
        """`#1-#12, h, P`: what exists, for an error about an unknown id ("the workspace has
        ...")."""
        if not self.items:
            return "nothing yet"
        names = sorted(self.names)
        span = f"#1-#{self.items[-1].number}" if len(self.items) > 1 else "#1"
        return span + (f" (functions: {', '.join(names)})" if names else "")

    def newest(self, count: int = 4) -> str:
        """`#9 antiderivative of Q; #8 roots of Q; ...`: the newest items by what they are,
        for an error that must be fixed by picking one."""
        if not self.items:
            return "the workspace is empty"
        labels = []
        for item in reversed(self.items[-count:]):
            what = item.origin if item.origin != "you" else f"{item.kind} {item.name or ''}"
            labels.append(f"{item.id} {what.strip()}")
        older = f"; older: {self.summary()}" if len(self.items) > count else ""
        return "; ".join(labels) + older

    def render(self, shown: int = SHOWN_ITEMS) -> str | None:
        """The block the model reads before a request: notes, then one line per item, the
        newest last; older items are counted (recall brings them back)."""
        if not self.items and not self.notes:
            return None
        recent = self.items[-shown:]
        names = self.names
        older_functions = [i for i in names.values() if i not in recent]
        hidden = len(self.items) - len(recent) - len(older_functions)
        lines = [WORKSPACE_HEADER]
        if self.notes:
            lines.append(wire.ABOUT_USER + "; ".join(self.notes[-MAX_NOTES:]))
        if hidden > 0:
            lines.append(f"({hidden} older items not shown; their ids still work)")
        positions = self.positions()
        shown_items = sorted(older_functions + recent, key=_number)
        lines += [self.line_of(item, positions) for item in shown_items]
        return "\n".join(lines)

    def line_of(self, item: Item, positions: dict[int, str] | None = None) -> str:
        """The item's line with its place among the person's equations (for roots, the place
        of the equation they solve); `positions`: `self.positions()`, when already made."""
        positions = self.positions() if positions is None else positions
        number = item.source if item.kind == "roots" and item.source else item.number
        return item.line(positions.get(number, ""))

    def equations(self) -> list[Item]:
        """The person's equations in the order written ("the second equation", "the one
        before last"). Only what they wrote as an equation counts, so a place never changes
        once shown: an expression solved later does not move the equations after it."""
        return [i for i in self.items if i.origin == "you" and i.kind == "equation"]

    def positions(self, from_last: bool = True) -> dict[int, str]:
        """Each equation's place, counted from the first and (`from_last`) from the last, in
        the form a tool field accepts: `equations[2], equations[-1]`. Counted from the first
        only, a place stays as it was when the next equation comes (what the prompt shows of
        an item must not change after it is shown)."""
        equations = self.equations()
        total = len(equations)
        return {
            item.number: f"{EQUATIONS}[{index}]"
            + (f", {EQUATIONS}[{index - total - 1}]" if from_last else "")
            for index, item in enumerate(equations, start=1)
        }

    def equation_at(self, index: int) -> Item:
        """`equations[2]` (the second, counted from 1) or `equations[-1]` (the last).
        Raises IndexError with a sentence that says which places exist."""
        equations = self.equations()
        total = len(equations)
        if index == 0 or not -total <= index <= total:
            places = (
                f"{EQUATIONS}[1] to {EQUATIONS}[{total}] (or {EQUATIONS}[-1] for the last)"
                if total
                else "none: the user has written no equation yet"
            )
            raise IndexError(f"There is no {EQUATIONS}[{index}]: the places are {places}.")
        return equations[index - 1 if index > 0 else index]

    def without_unknown_citations(self, text: str) -> str:
        """An answer's text without the citations of ids that do not exist ("(#39)" copied
        from the prompt's example): a person would look for an item that is not there."""

        def kept(match: re.Match[str]) -> str:
            numbers = ids_in(match.group(0))
            return match.group(0) if all(self.get(n) is not None for n in numbers) else ""

        return _CITATION.sub(kept, text)

    def cite_places(self, text: str) -> str:
        """`equations[-2]` in a tool field replaced by that equation's id."""
        return _PLACE.sub(lambda m: self.equation_at(int(m.group(1))).id, text)


def _number(item: Item) -> int:
    return item.number


_DEGREES = {1: "linear", 2: "quadratic", 3: "cubic", 4: "quartic", 5: "quintic"}


def degree_name(item: Item) -> str:
    """`quadratic`, `cubic`...: what a person calls a polynomial in one letter."""
    if item.origin != "you" or item.kind not in ("equation", "expression", "function"):
        return ""
    return _degree_of(item.body)


@lru_cache(maxsize=4096)
def _degree_of(body: str) -> str:
    try:
        expr = math_key(body)
    except ToolError:
        return ""
    symbols = expr.free_symbols
    # a power above the names' reach is no "quartic", and expanding it would cost seconds
    big = any(p.exp.is_Number and abs(p.exp) > 5 for p in expr.atoms(sp.Pow))
    if len(symbols) != 1 or big or not expr.is_polynomial(*symbols):
        return ""
    return _DEGREES.get(int(sp.degree(expr, *symbols)), "")


def has_math(item: Item, key: sp.Expr, up_to_sign: bool = True) -> bool:
    """Is `key` the item's math (up to sign unless told)?"""
    try:
        return same_math(math_key(item.body), key, up_to_sign)
    except (ToolError, ValueError, TypeError, RecursionError):
        return False


def ids_in(text: str) -> list[int]:
    """The item numbers a text cites (`#3`, `#2[1]`)."""
    return [int(n) for n in _ID.findall(text)]
