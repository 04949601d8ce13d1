"""The `problems` set: word problems and questions for the newer tools, one message each.

Why a set of its own: `single` asks what the first four tools do (roots, derivatives, values,
integrals) in mathematics_dataset's words; the tools added later (solve on a domain, systems,
extremes, tangents, factor/expand/simplify, limits, series) and word problems, where the
person states a situation and a unit rather than a formula to run, were never measured. Each
category has several kinds of question (`ASKS`), taken in turn from a random start, so three
cases of a category cover its kinds; every kind is worded from the part's own family
(`agent.eval.wordings`). `problems_set(seed, part)` makes the cases; `problem_draws` also
gives the tool calls that answer each one, for the tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from agent.eval.cases import EvalCase, EvalTurn
from agent.eval.generate_tool_questions import (
    domain_question,
    expand_question,
    extrema_question,
    factor_question,
    limit_question,
    series_question,
    simplify_question,
    system_question,
    tangent_question,
)
from agent.eval.generate_word_problems import (
    area_question,
    cost_question,
    linear_words_question,
    projectile_question,
    rate_question,
)
from agent.eval.problem import Problem
from agent.eval.wordings import Deck, family

# A builder takes (rng, which kind of question of its category, the part's templates).
Builder = Callable[[random.Random, str, Deck], Problem]

WORD_CATEGORIES = ("projectile", "area", "rate", "cost", "system-words")

# Per category: its kinds of question, the builder, and the wording keys it may use.
ASKS: dict[str, tuple[str, ...]] = {
    "projectile": ("landing", "peak", "reach"),
    "area": ("max", "side", "circle"),
    "rate": ("position", "cost"),
    "cost": ("break-even", "average", "profit"),
    "system-words": ("tickets", "numbers"),
    "factor": ("factor",),
    "expand": ("expand",),
    "simplify": ("simplify",),
    "limit": ("side", "infinity", "point"),
    "tangent": ("tangent",),
    "extrema": ("max", "min"),
    "solve-domain": ("positive", "nonnegative", "interval"),
    "system": ("2", "3"),
    "series": ("maclaurin", "taylor"),
}
BUILDERS: dict[str, Builder] = {
    "projectile": projectile_question,
    "area": area_question,
    "rate": rate_question,
    "cost": cost_question,
    "system-words": linear_words_question,
    "factor": lambda rng, ask, deck: factor_question(rng, deck),
    "expand": lambda rng, ask, deck: expand_question(rng, deck),
    "simplify": lambda rng, ask, deck: simplify_question(rng, deck),
    "limit": limit_question,
    "tangent": lambda rng, ask, deck: tangent_question(rng, deck),
    "extrema": extrema_question,
    "solve-domain": domain_question,
    "system": lambda rng, ask, deck: system_question(rng, int(ask), deck),
    "series": series_question,
}
CATEGORY_KEYS: dict[str, tuple[str, ...]] = {
    "projectile": ("projectile-landing", "projectile-peak", "projectile-reach"),
    "area": ("area-max", "area-side", "area-circle"),
    "rate": ("rate-position", "rate-cost"),
    "cost": ("cost-break-even", "cost-average", "cost-profit"),
    "system-words": ("system-tickets", "system-numbers"),
    "factor": ("factor",),
    "expand": ("expand",),
    "simplify": ("simplify",),
    "limit": ("limit-right", "limit-left", "limit-infinity", "limit-point"),
    "tangent": ("tangent",),
    "extrema": ("extrema-max", "extrema-min"),
    "solve-domain": ("domain-positive", "domain-nonnegative", "domain-interval"),
    "system": ("system-2", "system-3"),
    "series": ("series-maclaurin", "series-taylor"),
}
# Cases per category in one part: 3 each, 42 questions.
PER_CATEGORY = 3


def problem_draws(seed: int, part: str) -> list[tuple[str, Problem]]:
    """Every (category, problem) of one part for one seed, in case order."""
    rng = random.Random(f"{seed}:problems:{part}")
    deck = Deck(family("problems", part), rng)
    drawn = []
    for category, asks in ASKS.items():
        start = rng.randrange(len(asks))
        for i in range(PER_CATEGORY):
            ask = asks[(start + i) % len(asks)]
            drawn.append((category, BUILDERS[category](rng, ask, deck)))
    return drawn


def problems_set(seed: int, part: str) -> list[EvalCase]:
    """One part of `problems` for one seed."""
    return [
        EvalCase(
            name=f"problems-{part}-{seed}-{i:03d}",
            category=category,
            wording="word" if category in WORD_CATEGORIES else "direct",
            turns=(EvalTurn(problem.text, problem.expected),),
        )
        for i, (category, problem) in enumerate(problem_draws(seed, part))
    ]
