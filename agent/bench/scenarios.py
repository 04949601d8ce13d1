"""Benchmark conversations: what the user types and what the scripted model answers.

Every task is written out in full, replies included, so every strategy sees exactly the same
model behaviour: the scripted LLM (see `scripted`) looks replies up by the latest user message
and the number of tool results after it, never by what a strategy kept. The math is computed
here with exact fractions (the SymPy tools compute it again at run time, and the runner
checks that they agree), so generating `long-100` takes milliseconds.

- `ref-3q` (`agent.bench.write_up`): the reference write-up's three questions.
- `long-N` (`agent.bench.phrased`): N generated tasks whose back-references point three or
  more tasks back, worded by ordinal, position, paraphrase, result, far and chain, with
  memory probes of what the user said at the start.
- `student-36`, `physics-34` (`agent.bench.homework`): homework sessions with names, a
  subject, a preference and word problems, probed late.
- `plain_scenario`: the task generator all of them build on: solving quadratics,
  derivatives, evaluations, two-step requests and definite integrals that need a
  clarification round (PROCESSING); its own references mean "the latest of a kind" and it
  serves as the filler of the memory scenarios.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from agent.bench.polynomials import (
    Poly,
    derivative,
    evaluate,
    fraction_text,
    integral,
    poly_text,
    sympy_text,
)
from agent.bench.references import Pointer, Reference
from agent.context.math_facts import extract_facts
from agent.testing.replies import answer, tool_call


@dataclass(frozen=True)
class Turn:
    """One user message and the model's replies to it, one per step (index = tool results
    seen since this message, a recall's not counted); `reference`: how its first step points
    back, when it does."""

    text: str
    replies: tuple[str, ...]
    reference: Reference | None = None


@dataclass(frozen=True)
class Task:
    kind: str
    turns: tuple[Turn, ...]
    facts: tuple[str, ...] = ()  # normalised facts of the answer, for later references
    needs: tuple[str, ...] = ()  # facts of earlier tasks this task uses (back-references)
    refers_to: int | None = None  # index of the task referred back to

    @property
    def question(self) -> str:
        return self.turns[0].text

    @property
    def steps(self) -> int:
        return sum(len(turn.replies) for turn in self.turns)


@dataclass(frozen=True)
class Scenario:
    name: str
    tasks: tuple[Task, ...]
    description: str = ""
    # True: each task's `needs` are texts as the prompt shows them, judged by
    # `retention_check` (independent of the strategies); False: facts for `math_facts`.
    needs_are_text: bool = False
    script: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    references: dict[str, Reference] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        for task in self.tasks:
            for turn in task.turns:
                if turn.text in self.script:
                    raise ValueError(f"{self.name}: user text repeated: {turn.text!r}")
                self.script[turn.text] = turn.replies
                if turn.reference is not None:
                    self.references[turn.text] = turn.reference

    @property
    def back_references(self) -> list[Task]:
        return [t for t in self.tasks if t.needs]


def facts(*texts: str) -> tuple[str, ...]:
    found: set[str] = set()
    for text in texts:
        found |= extract_facts(text)
    return tuple(sorted(found))


def roots_text(roots: list[int]) -> str:
    return " and ".join(f"x = {r}" for r in roots)


def values_text(points: list[int], values: list[Fraction]) -> str:
    return ", ".join(
        f"at x = {p} it is {fraction_text(v)}" for p, v in zip(points, values, strict=True)
    )


# -- generated long sessions -------------------------------------------------------------------


class _Generator:
    """Builds one long session; every user text is unique (the script is keyed by it)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.tasks: list[Task] = []
        self.used: set[str] = set()
        self.roots: dict[int, tuple[str, list[int]]] = {}  # task -> (equation, roots)
        self.derivatives: dict[int, tuple[Poly, Poly]] = {}  # task -> (poly, derivative)
        # (task, kind) -> the index of that result among the task's results (0 unless the
        # task made another one first)
        self.slots: dict[tuple[int, str], int] = {}

    # -- what a referring call points at

    def roots_pointer(self, target: int) -> Pointer:
        _, roots = self.roots[target]
        slot = self.slots.get((target, "roots"), 0)
        return Pointer(self.tasks[target].question, slot, "roots", tuple(map(str, roots)))

    def derivative_pointer(self, target: int) -> Pointer:
        _, d = self.derivatives[target]
        slot = self.slots.get((target, "derivative"), 0)
        return Pointer(self.tasks[target].question, slot, "derivative", (sympy_text(d),))

    def said_pointer(self, target: int) -> Pointer:
        """The person's equation of a solved task (or the expression they set to zero)."""
        equation, _ = self.roots[target]
        question = self.tasks[target].question
        if equation in question:
            return Pointer(question, None, "equation", (equation,))
        return Pointer(question, None, "expression", (equation.removesuffix(" = 0"),))

    def unique(self, make: Callable[[], str]) -> str:
        """Draw with `make` until the text is new (`make` must draw everything it shows)."""
        for _ in range(1000):
            text = make()
            if text not in self.used:
                self.used.add(text)
                return text
        raise RuntimeError("could not generate a unique user message")

    def poly(self, degree: int) -> Poly:
        rng = self.rng
        lead = rng.choice([1, 2, 3, 4, 5, -1, -2])
        rest = tuple(rng.randint(-9, 9) for _ in range(degree))
        return (lead, *rest)

    def quadratic(self) -> tuple[str, list[int]]:
        rng = self.rng
        while True:
            r1, r2 = sorted(rng.sample([n for n in range(-9, 10) if n != 0], 2))
            a = rng.choice([1, 1, 1, 2, 3])
            coeffs = (a, -a * (r1 + r2), a * r1 * r2)
            equation = f"{poly_text(coeffs)} = 0"
            # Unique roots too: "the one with roots 5 and -1" must name one equation.
            if [r1, r2] not in [roots for _, roots in self.roots.values()]:
                return equation, [r1, r2]

    # -- fresh tasks

    def solve(self) -> Task:
        equation, roots = self.quadratic()
        text = self.unique(lambda: self.rng.choice(["solve ", "find the roots of "]) + equation)
        reply = f"The roots of {equation} are {roots_text(roots)}."
        self.roots[len(self.tasks)] = (equation, roots)
        return Task(
            "solve",
            (Turn(text, (tool_call("solve", equation=equation), answer(reply))),),
            facts=facts(*map(str, roots)),
        )

    def derive(self) -> Task:
        drawn: list[Poly] = []
        # Unique derivatives: a reference to one cannot pass because another task had it.
        taken = {d for _, d in self.derivatives.values()}

        def make() -> str:
            while derivative(p := self.poly(self.rng.choice([2, 3]))) in taken:
                pass
            drawn[:] = [p]
            return self.rng.choice(["derivative of ", "differentiate "]) + poly_text(p)

        text = self.unique(make)
        p = drawn[0]
        d = derivative(p)
        shown = poly_text(p)
        reply = f"The derivative of {shown} is {sympy_text(d)}."
        self.derivatives[len(self.tasks)] = (p, d)
        return Task(
            "derivative",
            (Turn(text, (tool_call("derivative", expression=shown), answer(reply))),),
            facts=facts(sympy_text(d)),
        )

    def evaluation(self) -> Task:
        drawn: list[tuple[Poly, int]] = []

        def make() -> str:
            drawn[:] = [(self.poly(2), self.rng.randint(-6, 6))]
            return f"evaluate {poly_text(drawn[0][0])} at x = {drawn[0][1]}"

        text = self.unique(make)
        p, point = drawn[0]
        shown = poly_text(p)
        value = evaluate(p, Fraction(point))
        reply = f"{shown} at x = {point} is {fraction_text(value)}."
        return Task(
            "evaluate",
            (
                Turn(
                    text,
                    (tool_call("evaluate", expression=shown, at=[str(point)]), answer(reply)),
                ),
            ),
            facts=facts(fraction_text(value)),
        )

    def integral(self) -> Task:
        rng = self.rng
        drawn: list[Poly] = []

        def make() -> str:
            drawn[:] = [self.poly(rng.choice([1, 2]))]
            return f"integrate {poly_text(drawn[0])}"

        first = self.unique(make)
        p = drawn[0]
        shown = poly_text(p)
        ask = answer(
            "Do you want the antiderivative, or a definite integral? If definite, over which "
            "interval?",
            "PROCESSING",
        )
        bounds: list[int] = []

        def clarification() -> str:
            lower = rng.randint(-4, 2)
            upper = lower + rng.randint(1, 5)
            bounds[:] = [lower, upper]
            return rng.choice(["definite, from {} to {}", "from {} to {} please"]).format(
                lower, upper
            )

        second = self.unique(clarification)
        lower, upper = bounds
        value = integral(p, lower, upper)
        reply = f"The integral of {shown} from {lower} to {upper} is {fraction_text(value)}."
        call = tool_call(
            "integral", expression=shown, variable="x", lower=str(lower), upper=str(upper)
        )
        return Task(
            "integral",
            (Turn(first, (ask,)), Turn(second, (call, answer(reply)))),
            facts=facts(fraction_text(value)),
        )

    def two_step(self) -> Task:
        taken = {d for _, d in self.derivatives.values()}
        while True:
            equation, roots = self.quadratic()
            coeffs = self._coeffs_of(equation)
            d = derivative(coeffs)
            if d not in taken:
                break
        left = equation.removesuffix(" = 0")
        text = self.unique(lambda: f"solve {equation}, then differentiate its left side")
        reply = f"The roots are {roots_text(roots)}; the derivative of {left} is {sympy_text(d)}."
        index = len(self.tasks)
        self.roots[index] = (equation, roots)
        self.derivatives[index] = (coeffs, d)
        self.slots[(index, "derivative")] = 1  # after the roots
        return Task(
            "solve+derivative",
            (
                Turn(
                    text,
                    (
                        tool_call("solve", equation=equation),
                        tool_call("derivative", expression=left),
                        answer(reply),
                    ),
                ),
            ),
            facts=facts(*map(str, roots), sympy_text(d)),
        )

    @staticmethod
    def _coeffs_of(equation: str) -> Poly:
        """Inverse of poly_text for the quadratics this generator writes."""
        terms = equation.removesuffix(" = 0").replace("- ", "+ -").split(" + ")
        coeffs = [0, 0, 0]
        for term in terms:
            term = term.strip()
            sign = -1 if term.startswith("-") else 1
            term = term.lstrip("-")
            if term.endswith("x^2"):
                body, n = term.removesuffix("x^2").rstrip("*"), 2
            elif term.endswith("x"):
                body, n = term.removesuffix("x").rstrip("*"), 1
            else:
                body, n = term, 0
            coeffs[2 - n] = sign * (int(body) if body else 1)
        return (coeffs[0], coeffs[1], coeffs[2])

    # -- back-references

    def refer(self) -> Task | None:
        """A task that needs an earlier result; None if nothing suitable exists yet."""
        here = len(self.tasks)
        options: list[tuple[float, Callable[[], Task]]] = []
        previous = here - 1
        if previous in self.derivatives and self.tasks[previous].kind == "derivative":
            options.append((0.15, lambda: self.evaluate_it(previous)))
        if self.roots:
            options.append((0.3, lambda: self.at_the_roots(max(self.roots), explicit=False)))
        if self.derivatives:
            options.append((0.2, lambda: self.that_derivative(max(self.derivatives), False)))
        old_roots = [i for i in self.roots if here - i >= 5]
        if old_roots:
            target = self.rng.choice(old_roots)
            options.append((0.2, lambda: self.at_the_roots(target, explicit=True)))
        old_derivatives = [i for i in self.derivatives if here - i >= 5]
        if old_derivatives:
            target_d = self.rng.choice(old_derivatives)
            options.append((0.15, lambda: self.that_derivative(target_d, True)))
        if not options:
            return None
        weights = [w for w, _ in options]
        return self.rng.choices([make for _, make in options], weights)[0]()

    def at_the_roots(self, target: int, explicit: bool) -> Task:
        equation, roots = self.roots[target]
        drawn: list[Poly] = []

        def make() -> str:
            drawn[:] = [self.poly(2)]
            shown = poly_text(drawn[0])
            if explicit:
                return f"evaluate {shown} at the roots of {equation} from earlier"
            return self.rng.choice(
                [f"what is {shown} at the roots?", f"evaluate {shown} at those roots"]
            )

        text = self.unique(make)
        p = drawn[0]
        shown = poly_text(p)
        values = [evaluate(p, Fraction(r)) for r in roots]
        reply = f"{shown}: {values_text(roots, values)}."
        call = tool_call("evaluate", expression=shown, at=[str(r) for r in roots])
        pointed = Reference(
            (self.roots_pointer(target),),
            tool_call("evaluate", expression=shown, at=["@0"]),
            equation if explicit else "roots",
        )
        return Task(
            "roots-explicit" if explicit else "roots-implicit",
            (Turn(text, (call, answer(reply)), pointed),),
            facts=facts(*(fraction_text(v) for v in values)),
            needs=tuple(map(str, roots)),
            refers_to=target,
        )

    def that_derivative(self, target: int, explicit: bool) -> Task:
        p, d = self.derivatives[target]
        if explicit:
            text = self.unique(
                lambda: (
                    f"evaluate the derivative of {poly_text(p)} you found earlier at x = "
                    f"{self.rng.randint(-5, 5)}"
                )
            )
        else:
            text = self.unique(lambda: f"evaluate that derivative at x = {self.rng.randint(-5, 5)}")
        point = int(text.rsplit(" ", 1)[1])
        value = evaluate(d, Fraction(point))
        reply = f"The derivative {sympy_text(d)} at x = {point} is {fraction_text(value)}."
        call = tool_call("evaluate", expression=sympy_text(d), at=[str(point)])
        pointed = Reference(
            (self.derivative_pointer(target),),
            tool_call("evaluate", expression="@0", at=[str(point)]),
            poly_text(p) if explicit else "derivative",
        )
        return Task(
            "derivative-explicit" if explicit else "derivative-implicit",
            (Turn(text, (call, answer(reply)), pointed),),
            facts=facts(fraction_text(value)),
            needs=(sympy_text(d),),
            refers_to=target,
        )

    def evaluate_it(self, target: int) -> Task:
        _, d = self.derivatives[target]
        text = self.unique(lambda: f"now evaluate it at x = {self.rng.randint(-5, 5)}")
        point = int(text.rsplit(" ", 1)[1])
        value = evaluate(d, Fraction(point))
        reply = f"{sympy_text(d)} at x = {point} is {fraction_text(value)}."
        call = tool_call("evaluate", expression=sympy_text(d), at=[str(point)])
        pointed = Reference(
            (self.derivative_pointer(target),),
            tool_call("evaluate", expression="@0", at=[str(point)]),
            "derivative",
        )
        return Task(
            "it-previous",
            (Turn(text, (call, answer(reply)), pointed),),
            facts=facts(fraction_text(value)),
            needs=(sympy_text(d),),
            refers_to=target,
        )

    # -- the session

    def fresh(self) -> Task:
        makers = [self.solve, self.derive, self.evaluation, self.integral, self.two_step]
        weights = [0.32, 0.24, 0.14, 0.18, 0.12]
        return self.rng.choices(makers, weights)[0]()

    def session(self, count: int) -> list[Task]:
        for index in range(count):
            task = self.refer() if index % 5 == 4 else None
            self.tasks.append(task or self.fresh())
        return self.tasks


DEFAULT_SEED = 20250101


def plain_scenario(count: int, seed: int = DEFAULT_SEED) -> Scenario:
    """`count` generated tasks whose back-references mostly mean "the latest of a kind" (the
    filler of the memory scenarios); the same `seed` always gives the same session."""
    tasks = _Generator(seed + count).session(count)
    refs = sum(1 for t in tasks if t.needs)
    clarified = sum(1 for t in tasks if len(t.turns) > 1)
    return Scenario(
        f"plain-{count}",
        tuple(tasks),
        f"{count} generated tasks, {refs} back-references, {clarified} clarification rounds",
        needs_are_text=True,
    )
