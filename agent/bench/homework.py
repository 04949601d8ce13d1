"""Sessions built like real homework: who is asking, their subject and their wishes, said
early and asked about late, and word problems between the exercises.

- `student-36`: a student introduces themselves (name, course, year), states how answers
  should look, then works through a mixed calculus sheet; back-references as in `long-N`
  (ordinals, positions, paraphrases, results, far, chains), three memory probes at the end.
- `physics-34`: a physics problem set: positions, velocities, spring energies and work done
  by a force, in words ("the cart", "the spring"), with references back to a problem by its
  topic ("the cart's velocity function from before") as well as by number or position.

Both draw everything from a seed (names, subjects, numbers, wordings), so no answer can be
learnt by heart; facts are unique per task as in `agent.bench.phrased`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from agent.bench.phrased import PhrasedGenerator
from agent.bench.polynomials import (
    derivative,
    evaluate,
    fraction_text,
    integral,
    poly_text,
    sympy_text,
)
from agent.bench.references import Reference
from agent.bench.scenarios import DEFAULT_SEED, Scenario, Task, Turn, facts
from agent.testing.replies import answer, tool_call

COURSES = ("first-year", "second-year", "final-year")
GREETINGS = (
    "Hey! {name} here, a {course} {subject} student. I have a calculus sheet due tomorrow.",
    "Hello, my name is {name}; I study {subject} ({course}) and need help with my homework.",
    "Hi there, I'm {name}. {course} {subject} major, working through an exercise sheet.",
)
PHYSICS_GREETINGS = (
    "Hi, I'm {name}; I'm stuck on my {subject} problem set about motion and energy.",
    "Hello! {name} here. This week's {subject} homework is kinematics and work, can you help?",
)
BODIES = (
    "cart", "drone", "sled", "piston", "trolley", "glider", "buoy", "rover", "skater", "barge",
    "kayak", "elevator", "pendulum bob", "rocket", "train", "puck", "satellite", "scooter",
)  # fmt: skip


class StudentGenerator(PhrasedGenerator):
    """A student's mixed sheet: `long-N`'s tasks after a fuller introduction."""

    NOTES = ("greeting", "preference")

    def greeting(self) -> Task:
        text = self.rng.choice(GREETINGS).format(
            name=self.name, subject=self.subject, course=self.rng.choice(COURSES)
        )
        note = f"The user is {self.name}, who studies {self.subject}"
        reply = answer(f"Hi {self.name}, send the first one.", note=note)
        return Task("greeting", (Turn(text, (reply,)),))


class PhysicsGenerator(PhrasedGenerator):
    """A physics problem set: word problems about bodies in motion, springs and forces."""

    NOTES = ()

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.subject = "physics"
        self.bodies = list(BODIES)
        self.rng.shuffle(self.bodies)
        self.topics: dict[int, str] = {}  # task index -> the body its problem is about

    def greeting(self) -> Task:
        text = self.rng.choice(PHYSICS_GREETINGS).format(name=self.name, subject=self.subject)
        return Task("greeting", (Turn(text, (answer(f"Sure, {self.name}: go ahead."),)),))

    def _body(self) -> str:
        return self.bodies[len(self.topics) % len(self.bodies)]

    def at_origin(self) -> Task:
        equation, roots = self.quadratic()
        left = equation.removesuffix(" = 0")
        body = self._body()
        text = self.unique(
            lambda: self.rng.choice(
                [
                    f"A {body} moves along a track; its position is {left} metres at time x "
                    "seconds. When is it at the origin?",
                    f"The {body}'s position after x seconds is {left} m. At what times is it "
                    "at position 0?",
                ]
            )
        )
        reply = f"The {body} is at the origin at x = {roots[0]} and x = {roots[1]} seconds."
        index = len(self.tasks)
        self.roots[index] = (equation, roots)
        self.topics[index] = body
        call = tool_call("solve", equation=equation)
        return Task("solve", (Turn(text, (call, answer(reply))),), facts=facts(*map(str, roots)))

    def velocity(self) -> Task:
        taken = {d for _, d in self.derivatives.values()}
        while derivative(p := self.poly(self.rng.choice([2, 3]))) in taken:
            pass
        d = derivative(p)
        shown = poly_text(p)
        body = self._body()
        text = self.unique(
            lambda: self.rng.choice(
                [
                    f"The {body}'s position is {shown} metres after x seconds. What is its "
                    "velocity function?",
                    f"Position of a {body}: s = {shown} (m, x in s). Find the velocity.",
                ]
            )
        )
        reply = f"The {body}'s velocity is {sympy_text(d)} m/s."
        index = len(self.tasks)
        self.derivatives[index] = (p, d)
        self.topics[index] = body
        call = tool_call("derivative", expression=shown)
        return Task("derivative", (Turn(text, (call, answer(reply))),), facts=facts(sympy_text(d)))

    def spring_energy(self) -> Task:
        drawn: list[tuple[tuple[int, ...], int]] = []

        def make() -> str:
            drawn[:] = [(self.poly(2), self.rng.randint(1, 6))]
            return (
                f"A spring stores {poly_text(drawn[0][0])} joules at extension x cm. How much "
                f"energy at x = {drawn[0][1]}?"
            )

        text = self.unique(make)
        p, point = drawn[0]
        value = evaluate(p, Fraction(point))
        reply = f"At x = {point} the spring stores {fraction_text(value)} J."
        call = tool_call("evaluate", expression=poly_text(p), at=[str(point)])
        return Task(
            "evaluate", (Turn(text, (call, answer(reply))),), facts=facts(fraction_text(value))
        )

    def work_done(self) -> Task:
        drawn: list[tuple[tuple[int, ...], int, int]] = []

        def make() -> str:
            lower = self.rng.randint(0, 3)
            drawn[:] = [(self.poly(self.rng.choice([1, 2])), lower, lower + self.rng.randint(1, 4))]
            p, a, b = drawn[0]
            return (
                f"A force of {poly_text(p)} newtons pushes a crate from x = {a} m to x = {b} m. "
                "How much work does it do?"
            )

        text = self.unique(make)
        p, lower, upper = drawn[0]
        value = integral(p, lower, upper)
        reply = f"The work done is {fraction_text(value)} J."
        call = tool_call(
            "integral", expression=poly_text(p), variable="x", lower=str(lower), upper=str(upper)
        )
        return Task(
            "integral", (Turn(text, (call, answer(reply))),), facts=facts(fraction_text(value))
        )

    def fresh(self) -> Task:
        if len(self.topics) >= len(self.bodies):  # every body named once: plain tasks now
            return super().fresh()
        makers: list[Callable[[], Task]] = [
            self.at_origin,
            self.velocity,
            self.spring_energy,
            self.work_done,
            super().fresh,
        ]
        return self.rng.choices(makers, [0.25, 0.25, 0.15, 0.15, 0.2])[0]()

    def refer(self) -> Task | None:
        """Now and then by topic: "the drone's velocity from before, at x = 2"."""
        here = len(self.tasks)
        topical = [i for i in self.derivatives if i in self.topics and here - i >= 3]
        if topical and self.rng.random() < 0.35:
            return self.topic_ref(self.rng.choice(topical))
        return super().refer()

    def topic_ref(self, target: int) -> Task:
        _, d = self.derivatives[target]
        body = self.topics[target]
        points: list[int] = []

        def make() -> str:
            points[:] = [self.rng.randint(1, 6)]
            return self.rng.choice(
                [
                    "how fast was the {b} going at x = {p}, using its velocity from before?",
                    "back to the {b} problem: its speed at x = {p} seconds?",
                    "what is the {b}'s velocity at time {p}?",
                ]
            ).format(b=body, p=points[0])

        text = self.unique(make)
        point = points[0]
        value = evaluate(d, Fraction(point))
        call = tool_call("evaluate", expression=sympy_text(d), at=[str(point)])
        pointed = Reference(
            (self.derivative_pointer(target),),
            tool_call("evaluate", expression="@0", at=[str(point)]),
            body,
        )
        return self._reference(
            "paraphrase", target, text, call,
            f"At x = {point} the {body} moves at {fraction_text(value)} m/s.",
            facts(fraction_text(value)), (sympy_text(d),), pointed,
        )  # fmt: skip


def _scenario(make: type[PhrasedGenerator], name: str, count: int, what: str) -> Callable:
    def build(seed: int = DEFAULT_SEED) -> Scenario:
        tasks = make(seed + 13 * count).session(count)
        refs = sum(1 for t in tasks if t.needs)
        return Scenario(
            name, tuple(tasks), f"{what}: {count} tasks, {refs} back-references and probes",
            needs_are_text=True,
        )  # fmt: skip

    return build


HOMEWORK: dict[str, Callable[[int], Scenario]] = {
    "student-36": _scenario(StudentGenerator, "student-36", 36, "a student's calculus sheet"),
    "physics-34": _scenario(PhysicsGenerator, "physics-34", 34, "a physics problem set"),
}
