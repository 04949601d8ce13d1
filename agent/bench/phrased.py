"""Sessions whose back-references are worded the many ways people word them.

`long-N`: N generated tasks (solving, derivatives, evaluations, two-step requests, integrals
with a clarification round); about every fifth task points back to an earlier one at least
three tasks away (or to the very first), and says which in one of these ways, each drawn from
a generator of wordings (templates x synonyms x number forms), never a fixed list:

- ordinal: "the 4th question I asked", "problem number 7", "question #12";
- position: "two tasks back", "the one from 5 questions ago", "the previous-but-one";
- paraphrase: words the original never used ("the slope function you worked out", "the zeros
  we found a while ago"): the latest task of that kind, never the one just before;
- result: the equation "whose roots were 5 and -1" (its left side is what is needed);
- far: "the very first equation";
- chain: right after a reference, "and at x = 3?" leans on the same task.

Three memory probes near the end: the user's name and subject, stated in the first message,
and the answer format they asked for in the second. What a reference needs is written as the prompt shows it (the equation as typed, roots and
derivatives as the tools print them, the name) and judged by `retention_check`, which shares
no code with the strategies; an equation is unique per session, so a reference to it cannot
pass by coincidence, and so are the derivatives and the pairs of roots.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

from agent.bench.polynomials import Poly, derivative, evaluate, fraction_text, poly_text, sympy_text
from agent.bench.references import Reference
from agent.bench.scenarios import (
    DEFAULT_SEED,
    Scenario,
    Task,
    Turn,
    _Generator,
    facts,
    values_text,
)
from agent.testing.replies import answer, tool_call

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")  # fmt: skip
ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
            "eighth", "ninth", "tenth", "eleventh", "twelfth")  # fmt: skip
TASK_NOUNS = ("question", "problem", "task", "exercise", "request")
NAMES = ("Dana", "Priya", "Tomasz", "Aiko", "Lucas", "Amara", "Johan", "Mei")
SUBJECTS = ("physics", "economics", "chemistry", "engineering", "biology")
SLOPE_WORDS = ("slope function", "gradient function", "rate-of-change formula", "derived function")
ZERO_WORDS = ("zeros", "solutions", "x-intercepts")
LATER_WORDS = ("a while ago", "earlier on", "some time back", "before")
# (how the user states a preference, the word a probe's context must still hold)
PREFERENCES = (
    ("Please give every result as a decimal too, not only as a fraction.", "decimal"),
    ("I'd like exact fractions in answers, never rounded decimals.", "fractions"),
    ("Keep your answers short, one line each, please.", "short"),
    ("Always show the result in scientific notation as well.", "scientific"),
)
PREFERENCE_PROBES = (
    "How did I ask you to format results?",
    "Remind me what I said about the form of your answers?",
    "What answer format did I ask for at the start?",
)


def ordinal(n: int, rng: random.Random) -> str:
    if n < len(ORDINALS) and rng.random() < 0.5:
        return ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def count_words(k: int, rng: random.Random) -> str:
    return NUMBER_WORDS[k] if k < len(NUMBER_WORDS) and rng.random() < 0.6 else str(k)


def by_ordinal(number: int, rng: random.Random) -> str:
    noun = rng.choice(TASK_NOUNS)
    return rng.choice(
        [
            f"the {ordinal(number, rng)} {noun} I asked",
            f"{noun} number {number}",
            f"{noun} #{number}",
            f"my {ordinal(number, rng)} {noun}",
            f"the {ordinal(number, rng)} {noun} of this session",
        ]
    )


def by_position(back: int, rng: random.Random) -> str:
    noun = rng.choice(TASK_NOUNS)
    options = [
        f"the {noun} from {count_words(back, rng)} {noun}s back",
        f"the one from {count_words(back, rng)} {noun}s ago",
        f"what we did {count_words(back, rng)} {noun}s earlier",
    ]
    if back == 2:
        options += ["the previous-but-one " + noun, f"the {noun} before last"]
    return rng.choice(options)


class PhrasedGenerator(_Generator):
    """`long-N`'s tasks, with references worded by category (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.name = self.rng.choice(NAMES)
        self.subject = self.rng.choice(SUBJECTS)
        self.preference, self.preference_word = self.rng.choice(PREFERENCES)
        self.last_reference: tuple[int, str] | None = None  # (target, what it needed)
        self.result_targets: set[int] = set()  # equations already named by their roots

    def number(self, index: int) -> int:
        """Task index -> the number a person uses (the greeting is task 1)."""
        return index + 1

    def refer(self) -> Task | None:
        here = len(self.tasks)
        far_roots = [i for i in self.roots if here - i >= 3 and self.tasks[i].kind == "solve"]
        far_derivs = [i for i in self.derivatives if here - i >= 3]
        if self.last_reference is not None and self.rng.random() < 0.25:
            target, _ = self.last_reference
            if target in self.derivatives:
                return self.chain(target)
        makers: list[Callable[[], Task]] = []
        if far_roots:
            makers += [lambda: self.roots_ref(self.rng.choice(far_roots))]
            fresh_results = [i for i in far_roots if i not in self.result_targets]
            if fresh_results:
                makers += [lambda: self.result_ref(self.rng.choice(fresh_results))]
            first = min(far_roots)
            makers += [lambda: self.roots_ref(first, far=True)]
        if far_derivs:
            makers += [lambda: self.derivative_ref(self.rng.choice(far_derivs))]
        if self.derivatives and here - max(self.derivatives) >= 3:
            # In other words, "the slope function you gave me": the latest one, not just before.
            makers += [lambda: self.derivative_ref(max(self.derivatives), paraphrase=True)]
        return self.rng.choice(makers)() if makers else None

    def _which(self, target: int) -> tuple[str, str]:
        """(category, wording) for a reference to `target`."""
        here = len(self.tasks)
        if self.rng.random() < 0.5:
            return "ordinal", by_ordinal(self.number(target), self.rng)
        return "position", by_position(here - target, self.rng)

    def roots_ref(self, target: int, far: bool = False) -> Task:
        equation, roots = self.roots[target]
        left = equation.removesuffix(" = 0")
        if far:
            category, which = (
                "far",
                self.rng.choice(["the very first equation", "the first quadratic of the session"]),
            )
            if target != min(self.roots):
                category, which = self._which(target)
        elif self.rng.random() < 0.3 and target == max(self.roots):
            category = "paraphrase"
            which = f"the {self.rng.choice(ZERO_WORDS)} we found {self.rng.choice(LATER_WORDS)}"
        else:
            category, which = self._which(target)
        drawn: list[Poly] = []

        def make() -> str:
            drawn[:] = [self.poly(2)]
            return self.rng.choice(
                [
                    f"evaluate {poly_text(drawn[0])} at the roots of {which}",
                    f"plug the roots of {which} into {poly_text(drawn[0])}",
                ]
            )

        text = self.unique(make)
        p = drawn[0]
        shown = poly_text(p)
        values = [evaluate(p, Fraction(r)) for r in roots]
        call = tool_call("evaluate", expression=shown, at=[str(r) for r in roots])
        pointed = Reference(
            (self.roots_pointer(target),),
            tool_call("evaluate", expression=shown, at=["@0"]),
            "roots" if category == "paraphrase" else f"task {self.number(target)}",
        )
        return self._reference(
            category, target, text, call, f"{shown}: {values_text(roots, values)}.",
            facts(*(fraction_text(v) for v in values)), (left, *map(str, roots)), pointed,
        )  # fmt: skip

    def result_ref(self, target: int) -> Task:
        self.result_targets.add(target)
        equation, roots = self.roots[target]
        coeffs = self._coeffs_of(equation)
        left = equation.removesuffix(" = 0")
        d = derivative(coeffs)
        # It gives a derivative: "the slope function you gave me" may mean this one later.
        self.derivatives[len(self.tasks)] = (coeffs, d)
        r1, r2 = roots
        text = self.unique(
            lambda: self.rng.choice(
                [
                    f"differentiate the left side of the equation whose roots were {r1} and {r2}",
                    f"the one with roots {r2} and {r1}: what is the derivative of its left side?",
                    f"take the equation that came out as x = {r1} or x = {r2} and differentiate "
                    "its left-hand side",
                ]
            )
        )
        call = tool_call("derivative", expression=left)
        pointed = Reference(
            (self.said_pointer(target),),
            tool_call("derivative", expression="@0"),
            f"x = {r1}, x = {r2}",
        )
        return self._reference(
            "result", target, text, call, f"The derivative of {left} is {sympy_text(d)}.",
            facts(sympy_text(d)), (left,), pointed,
        )  # fmt: skip

    def derivative_ref(self, target: int, paraphrase: bool = False) -> Task:
        _, d = self.derivatives[target]
        if paraphrase:
            category = "paraphrase"
            which = f"the {self.rng.choice(SLOPE_WORDS)} you gave me {self.rng.choice(LATER_WORDS)}"
        else:
            category, which = self._which(target)
            which = f"the derivative from {which}"
        text = self.unique(lambda: f"what is {which} at x = {self.rng.randint(-6, 6)}?")
        point = int(text.rsplit("= ", 1)[1].rstrip("?"))
        value = evaluate(d, Fraction(point))
        call = tool_call("evaluate", expression=sympy_text(d), at=[str(point)])
        pointed = Reference(
            (self.derivative_pointer(target),),
            tool_call("evaluate", expression="@0", at=[str(point)]),
            "derivative" if paraphrase else f"task {self.number(target)}",
        )
        return self._reference(
            category, target, text, call,
            f"{sympy_text(d)} at x = {point} is {fraction_text(value)}.",
            facts(fraction_text(value)), (sympy_text(d),), pointed,
        )  # fmt: skip

    def chain(self, target: int) -> Task:
        _, d = self.derivatives[target]
        text = self.unique(
            lambda: self.rng.choice(["and at x = {}?", "what about at x = {} then?"]).format(
                self.rng.randint(-7, 7)
            )
        )
        point = int(text.split("x = ", 1)[1].split("?")[0].split(" ")[0])
        value = evaluate(d, Fraction(point))
        call = tool_call("evaluate", expression=sympy_text(d), at=[str(point)])
        pointed = Reference(
            (self.derivative_pointer(target),),
            tool_call("evaluate", expression="@0", at=[str(point)]),
            f"task {self.number(target)}",
        )
        return self._reference(
            "chain", target, text, call, f"{sympy_text(d)} at x = {point} is {fraction_text(value)}.",
            facts(fraction_text(value)), (sympy_text(d),), pointed,
        )  # fmt: skip

    def _reference(
        self,
        category: str,
        target: int,
        text: str,
        call: str,
        reply: str,
        own: tuple[str, ...],
        needs: tuple[str, ...],
        pointed: Reference | None = None,
    ) -> Task:
        self.last_reference = (target, needs[0] if needs else "")
        return Task(
            category,
            (Turn(text, (call, answer(reply)), pointed),),
            facts=own,
            needs=needs,
            refers_to=target,
        )

    def greeting(self) -> Task:
        text = (
            f"Hi, I'm {self.name} and I'm revising for a {self.subject} exam; "
            "I'll send you a few problems."
        )
        note = self.greeting_note()
        return Task(
            "greeting", (Turn(text, (answer(f"Hello {self.name}, go ahead!", note=note),)),)
        )

    # Whether the model notes what the person says of themselves (the answer's `note`): the
    # greeting here, both statements for the student, neither in the physics set, so that
    # memory is measured with and without notes.
    NOTES = ("greeting",)

    def greeting_note(self) -> str | None:
        if "greeting" not in self.NOTES:
            return None
        return f"The user is {self.name}, revising for a {self.subject} exam"

    def stated_preference(self) -> Task:
        note = f"Asked: {self.preference}" if "preference" in self.NOTES else None
        return Task("preference", (Turn(self.preference, (answer("Noted.", note=note),)),))

    def probes(self) -> list[Task]:
        return [
            self.probe("Remind me, what's my name?", f"You're {self.name}.", self.name),
            self.probe(
                "Which exam did I say I'm revising for?", f"Your {self.subject} exam.", self.subject
            ),
            self.probe(
                self.rng.choice(PREFERENCE_PROBES),
                f"You asked: {self.preference}",
                self.preference_word,
                target=1,
            ),
        ]

    def probe(self, asked: str, reply: str, needs: str, target: int = 0) -> Task:
        return Task("memory", (Turn(asked, (answer(reply),)),), needs=(needs,), refers_to=target)

    def opening(self) -> list[Task]:
        return [self.greeting(), self.stated_preference()]

    def session(self, count: int) -> list[Task]:
        self.tasks.extend(self.opening())
        probes = self.probes()
        for index in range(len(self.tasks), count - len(probes)):
            task = self.refer() if index % 5 == 4 or (index % 5 == 0 and index > 5) else None
            if task is None:
                self.last_reference = None
            self.tasks.append(task or self.fresh())
        self.tasks.extend(probes)
        return self.tasks


def phrased_scenario(count: int, seed: int = DEFAULT_SEED) -> Scenario:
    tasks = PhrasedGenerator(seed + 7 * count).session(count)
    refs = sum(1 for t in tasks if t.needs)
    return Scenario(
        f"long-{count}",
        tuple(tasks),
        f"{count} tasks, {refs} back-references worded by ordinal, position, paraphrase, "
        "result, far and chain, and three memory probes",
        needs_are_text=True,
    )
