"""The two wording families of the eval sets: `DEV` to tune against, `TEST` to report.

Why side by side in one module: the test part only measures wordings nobody tuned to if no
sentence of one family is a paraphrase of the other, and a test (tests/eval/test_parts.py)
can only prove that when both are plain data. The families were written apart, with their own
sentence structures; every key has the same placeholders in both, so the generators draw from
either. Placeholders: {eq} an equation, {p}/{f} a polynomial, {v} its letter, {g}/{name} a
name, {k}/{a}/{b} numbers, {e} arithmetic, {ref} a reference phrase, {sentence} a turn; the
`problems` families (word problems and questions for the newer tools) list their own.
"""

from __future__ import annotations

import random

from agent.eval.wordings_single import SINGLE_DEV, SINGLE_TEST, Family
from agent.eval.wordings_tool_questions import TOOL_DEV, TOOL_SLOTS, TOOL_TEST
from agent.eval.wordings_word_problems import WORD_DEV, WORD_SLOTS, WORD_TEST

# --- sessions --------------------------------------------------------------------------------
# Keys: "give-*" open a problem (not dependent); "fresh-*", "introduce", "preference" are
# turns in between; "ref-*" are reference phrases (noun phrases put in for {ref});
# "act-*" ask something about {ref}; "it-*"/"them-*" ask it with a pronoun; "resume" wraps a
# reference that comes back after unrelated turns.

_SESSIONS_DEV: Family = {
    "give-plain": ("solve {eq}", "what are the roots of {p}?", "{eq}, solve for {v}"),
    "give-named": (
        "solve {eq} and call it {name}",
        "let's call this one {name}: {eq}. solve it",
        "{name} is the equation {eq}. what are its roots?",
    ),
    "give-function": (
        "let {name}({v}) = {p}. find the zeros of {name}",
        "{name}({v}) = {p}; where is {name} zero?",
    ),
    "give-chained": ("{name}({v}) = {p} = 0, solve for {v}", "solve {name}({v}) = {p} = 0"),
    "fresh-value": (
        "Let {name}({v}) = {p}. What is {name}({k})?",
        "separate question: if {name}({v}) = {p}, what is {name}({k})?",
    ),
    "fresh-derivative": (
        "quick one: differentiate {p}",
        "unrelated: what's the derivative of {p}?",
    ),
    "fresh-integral": ("also, integrate {p} from {a} to {b}",),
    "fresh-arithmetic": ("unrelated: what's {e}?", "side question, {e} = ?"),
    "introduce": ("I'm {person}, by the way", "btw my name is {person}", "thanks! I'm {person}"),
    "preference": (
        "please keep your answers short from now on",
        "from now on, no need to show the steps",
    ),
    "resume": (
        "ok, back to the math: {sentence}",
        "anyway, {sentence}",
        "where were we? {sentence}",
        "sorry for the detour. {sentence}",
        "back to the equations — {sentence}",
    ),
    "ref-ordinal": (
        "the {ordinal} equation",
        "the {ordinal} polynomial I gave you",
        "the {ordinal} equation I asked about",
        "equation number {n}",
        "the {ordinal} one we solved",
    ),
    "ref-back": (
        "the one before last",
        "the equation before the last one",
        "the second-to-last equation",
        "the equation from two problems ago",
        "the previous equation to the latest one",
    ),
    "ref-degree": (
        "the {kind}",
        "the {kind} equation",
        "the {kind} from before",
        "the degree-{d} equation",
        "the {kind} one",
    ),
    "ref-result": (
        "the equation whose roots were {roots}",
        "the one with roots {roots}",
        "the equation that had solutions {roots}",
        "the polynomial with zeros {roots}",
        "the one where you got {roots}",
    ),
    "ref-name": (
        "{name}",
        "the one I called {name}",
        "what I named {name}",
        "{name} from earlier",
        "{name}, as I called it",
    ),
    "ref-derivative": (
        "the derivative you computed",
        "the derivative from before",
        "that derivative",
    ),
    "ref-antiderivative": (
        "that antiderivative",
        "the antiderivative you found",
        "the antiderivative from earlier",
    ),
    "act-roots": ("what were the roots of {ref} again?", "remind me: the roots of {ref}?"),
    "act-derivative": ("differentiate {ref}", "what's the derivative of {ref}?"),
    "act-second": ("and the second derivative of {ref}", "what's the second derivative of {ref}?"),
    "act-value": ("evaluate {ref} at {v} = {k}", "what's {ref} at {v} = {k}?"),
    "act-integral": (
        "integrate {ref} from {a} to {b}",
        "now integrate {ref} from {v} = {a} to {b}",
    ),
    "act-antiderivative": ("find an antiderivative of {ref}", "integrate {ref} (indefinite)"),
    "act-pick": (
        "what's the {prop} root of {ref}?",
        "which root of {ref} is the {prop} one?",
    ),
    "act-sum": ("add up the roots of {ref}", "what's the sum of the roots of {ref}?"),
    "act-product": ("multiply the roots of {ref}", "what's the product of the roots of {ref}?"),
    "act-mean": ("what's the average of the roots of {ref}?", "mean of the roots of {ref}?"),
    "act-squares": ("square each root of {ref}", "what are the squares of the roots of {ref}?"),
    "act-zeros": ("where is {ref} zero?", "find the zeros of {ref}"),
    "name-value": ("what's {name}({k})?", "and {name}({k})?", "evaluate {name} at {k}"),
    "it-derivative": ("now its derivative", "differentiate it"),
    "it-second": ("what's its second derivative?",),
    "it-value": (
        "evaluate that at {v} = {k}",
        "what's that at {v} = {k}?",
        "plug {v} = {k} into it",
    ),
    "it-integral": ("integrate it from {a} to {b}",),
    "it-antiderivative": ("and an antiderivative of it?",),
    "it-zeros": ("where is that zero?",),
    "them-squares": ("square each of them", "what are their squares?", "and the squares of those?"),
    "them-sum": ("add them up", "what's their sum?"),
    "them-product": ("and their product?", "multiply them"),
    "them-mean": ("what's their average?",),
    "them-pick": ("which of them is {prop}?",),
}

_SESSIONS_TEST: Family = {
    "give-plain": (
        "I have {eq} — what's {v}?",
        "can you find where {p} hits zero",
        "homework problem: {eq}",
    ),
    "give-named": (
        "here's one I'll refer to as {name}: {eq}. go ahead and solve",
        "{eq} (I'm naming this {name}) — roots please",
        "label the equation {eq} as {name} and give me its solutions",
    ),
    "give-function": (
        "define {name}({v}) as {p}; I want the values of {v} that make {name} vanish",
        "consider {name}({v}) = {p}. at what {v} does {name} equal zero?",
    ),
    "give-chained": (
        "{name}({v}) = {p} = 0 — which {v} values?",
        "I need every {v} with {name}({v}) = {p} = 0",
    ),
    "fresh-value": (
        "Different topic. Take {name}({v}) = {p}; compute {name}({k}).",
        "{name}({v}) is {p} — plug in {k} for me",
    ),
    "fresh-derivative": (
        "something else: the slope function of {p}",
        "totally separate, {p} differentiated is what?",
    ),
    "fresh-integral": ("unrelated integral: {p} over [{a}, {b}]",),
    "fresh-arithmetic": ("off topic — {e} comes to?", "mental math check: {e}"),
    "introduce": (
        "oh, my name's {person}",
        "{person} here, forgot to say hi",
        "you can call me {person}",
    ),
    "preference": (
        "short answers work best for me",
        "I'd rather you skip the working and just give results",
    ),
    "resume": (
        "Let's pick up where we left off. {sentence}",
        "enough of that; {sentence}",
        "{sentence} (going back to the earlier stuff)",
        "so, about the earlier problems: {sentence}",
        "right, math again. {sentence}",
    ),
    "ref-ordinal": (
        "the equation sitting in {ordinal} place",
        "the equation I sent {ordinal}",
        "problem {n} of this chat",
        "whichever equation I typed {ordinal}",
        "the {ordinal} thing you solved for me",
    ),
    "ref-back": (
        "of all the equations, the penultimate one",
        "the equation I sent right before my most recent one",
        "the equation two back",
        "the problem preceding the most recent one",
        "whatever I gave you right before the last equation",
    ),
    "ref-degree": (
        "the equation of degree {d}",
        "whichever problem was {kind}",
        "the one that was a {kind}",
        "the equation whose top power was {d}",
        "the one with highest power {d}",
    ),
    "ref-result": (
        "the problem that came out to {roots}",
        "whichever one had {roots} as answers",
        "the equation solved by {roots}",
        "the one you answered {roots} for",
        "the case where {v} was {roots}",
    ),
    "ref-name": (
        "whatever got the label {name}",
        "{name}, the one I named",
        "that {name} of mine",
        "the equation whose name is {name}",
        "the equation that goes by {name}",
    ),
    "ref-derivative": (
        "what you got when you differentiated",
        "the result of your differentiation",
        "the slope function you worked out",
    ),
    "ref-antiderivative": (
        "whatever primitive came out before",
        "what came out of the indefinite integration",
        "your integration result (the one without limits)",
    ),
    "act-roots": ("give me the solutions of {ref} once more", "{ref} — its roots were what?"),
    "act-derivative": ("I'd like {ref} differentiated", "{ref}: slope function please"),
    "act-second": ("{ref}, differentiated twice?", "I need the 2nd-order derivative of {ref}"),
    "act-value": ("plug {k} in for {v} in {ref}", "how much is {ref} when {v} equals {k}?"),
    "act-integral": (
        "{ref}, integrated between {a} and {b}?",
        "the integral of {ref} over [{a}, {b}]",
    ),
    "act-antiderivative": ("a primitive of {ref}, please", "{ref}, integrated with no limits"),
    "act-pick": (
        "of the solutions to {ref}, give me only the {prop} one",
        "{ref}: just the {prop} root",
    ),
    "act-sum": ("roots of {ref} summed?", "{ref}: what do its solutions add up to?"),
    "act-product": ("{ref}: product of its solutions?", "roots of {ref} times each other"),
    "act-mean": (
        "if you average the solutions of {ref}, what do you get?",
        "{ref}: the average root?",
    ),
    "act-squares": (
        "I want every solution of {ref} squared",
        "each solution of {ref} to the power 2",
    ),
    "act-zeros": ("at which points does {ref} vanish?", "{ref} = 0 where?"),
    "name-value": (
        "{name}({k}) — number please",
        "value of {name} for input {k}",
        "put {k} in as the input of {name}",
    ),
    "it-derivative": ("differentiating it gives?", "that one differentiated?"),
    "it-second": ("and differentiate it two times", "its 2nd derivative as well"),
    "it-value": ("and with {v} set to {k}?", "that thing at {k}?"),
    "it-integral": ("∫ of that over [{a}, {b}]",),
    "it-antiderivative": ("a primitive of it too",),
    "it-zeros": ("at which {v} is that one zero?",),
    "them-squares": ("those roots, squared one by one", "each of those to the power 2?"),
    "them-sum": ("those roots summed?", "total of those solutions?"),
    "them-product": ("those solutions multiplied together?", "what do they give when multiplied?"),
    "them-mean": ("average those out?",),
    "them-pick": ("keep only the {prop} one of those",),
}

FAMILIES: dict[str, dict[str, Family]] = {
    "single": {"dev": SINGLE_DEV, "test": SINGLE_TEST},
    "sessions": {"dev": _SESSIONS_DEV, "test": _SESSIONS_TEST},
    "problems": {"dev": {**WORD_DEV, **TOOL_DEV}, "test": {**WORD_TEST, **TOOL_TEST}},
}
# The placeholders each `problems` template must hold (one alternative whole).
PROBLEM_SLOTS: dict[str, tuple[frozenset[str], ...]] = {**WORD_SLOTS, **TOOL_SLOTS}

# The kinds of reference a session turn can make, and the keys whose templates word each.
REFERENCE_KINDS: dict[str, tuple[str, ...]] = {
    "position from the start": ("ref-ordinal",),
    "position counted back": ("ref-back",),
    "kind (degree)": ("ref-degree",),
    "a result it had": ("ref-result",),
    "the person's own name": ("ref-name", "name-value"),
    "the operation that made it": ("ref-derivative", "ref-antiderivative"),
    "pronoun": (
        "it-derivative",
        "it-second",
        "it-value",
        "it-integral",
        "it-antiderivative",
        "it-zeros",
        "them-squares",
        "them-sum",
        "them-product",
        "them-mean",
        "them-pick",
    ),
    "after unrelated turns": ("resume",),
}


def family(set_name: str, part: str) -> Family:
    return FAMILIES[set_name][part]


class Deck:
    """Deals one part's templates, every template of a key once before any comes again: the
    three questions of a `problems` category then show three wordings, not one thrice."""

    def __init__(self, words: Family, rng: random.Random) -> None:
        self.words, self.rng = words, rng
        self._left: dict[str, list[str]] = {}

    def word(self, key: str, **slots: object) -> str:
        if not self._left.get(key):
            self._left[key] = list(self.words[key])
            self.rng.shuffle(self._left[key])
        return self._left[key].pop().format(**{name: str(v) for name, v in slots.items()})


def reference_templates(part: str, kind: str) -> list[str]:
    """Every template that words one kind of reference in one part."""
    words = FAMILIES["sessions"][part]
    return [t for key in REFERENCE_KINDS[kind] for t in words[key]]
