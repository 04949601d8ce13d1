"""The wordings of the `problems` questions that ask for a newer tool by what it does:
`TOOL_DEV` to tune against, `TOOL_TEST` to report.

Why written apart: as for the word problems (`agent.eval.wordings_word_problems`), the test
family uses its own sentence frames and words ("break into irreducible factors", "from above",
"settle towards", "only strictly positive"), so that a rule tuned to a dev sentence gains
nothing on test.

Placeholders: {p} a polynomial or quotient, {f} a function, {v} its letter, {a} a point,
{lo}/{hi} an interval, {eq} an equation, {e1}/{e2}/{e3} the equations of a system, {n} the
highest power of a Taylor polynomial.
"""

from __future__ import annotations

from agent.eval.wordings_single import Family


def _needs(*names: str) -> tuple[frozenset[str], ...]:
    return (frozenset(names),)


# The placeholders a template of each key must hold: the math its answer needs (a function's
# letter may be left to the formula, which has one).

TOOL_SLOTS: dict[str, tuple[frozenset[str], ...]] = {
    "factor": _needs("p"),
    "expand": _needs("p"),
    "simplify": _needs("p"),
    "limit-right": _needs("f", "a"),
    "limit-left": _needs("f", "a"),
    "limit-infinity": _needs("f"),
    "limit-point": _needs("f", "a"),
    "tangent": _needs("f", "a"),
    "extrema-max": _needs("f", "lo", "hi"),
    "extrema-min": _needs("f", "lo", "hi"),
    "domain-positive": _needs("eq"),
    "domain-nonnegative": _needs("eq"),
    "domain-interval": _needs("eq", "lo", "hi"),
    "system-2": _needs("e1", "e2"),
    "system-3": _needs("e1", "e2", "e3"),
    "series-maclaurin": _needs("f", "n"),
    "series-taylor": _needs("f", "a", "n"),
}

TOOL_DEV: Family = {
    "factor": (
        "Factor {p}.",
        "Factorise {p} completely.",
        "Write {p} as a product of factors.",
        "factor {p} over the rationals",
        "What is the factored form of {p}?",
    ),
    "expand": (
        "Expand {p}.",
        "Multiply out {p}.",
        "Expand and simplify {p}.",
        "expand {p} completely",
        "What is {p} when expanded?",
    ),
    "simplify": (
        "Simplify {p}.",
        "Simplify the expression {p}.",
        "simplify {p} as much as possible",
        "What does {p} simplify to?",
        "Write {p} in its simplest form.",
    ),
    "limit-right": (
        "Find the limit of {f} as {v} approaches {a} from the right.",
        "What is the right-hand limit of {f} as {v} -> {a}?",
        "lim {v}->{a}+ of {f}",
        "Compute the limit as {v} tends to {a} from the right of {f}.",
        "What does {f} approach as {v} approaches {a} from the right?",
    ),
    "limit-left": (
        "Find the limit of {f} as {v} approaches {a} from the left.",
        "What is the left-hand limit of {f} as {v} -> {a}?",
        "lim {v}->{a}- of {f}",
        "Compute the limit as {v} tends to {a} from the left of {f}.",
        "What does {f} approach as {v} approaches {a} from the left?",
    ),
    "limit-infinity": (
        "Find the limit of {f} as {v} approaches infinity.",
        "What is the limit of {f} as {v} -> oo?",
        "lim {v}->infinity of {f}",
        "Compute the limit as {v} tends to infinity of {f}.",
        "What does {f} approach as {v} grows without bound?",
    ),
    "limit-point": (
        "Find the limit of {f} as {v} approaches {a}.",
        "What is the limit of {f} as {v} -> {a}?",
        "lim {v}->{a} of {f}",
        "Compute the limit as {v} tends to {a} of {f}.",
        "Evaluate the limit of {f} when {v} goes to {a}.",
    ),
    "tangent": (
        "Find the equation of the tangent line to y = {f} at x = {a}.",
        "What is the tangent line to the curve y = {f} at the point where x = {a}?",
        "tangent line of f(x) = {f} at x = {a}",
        "Find the line tangent to the graph of {f} at x = {a}.",
        "Give the equation of the tangent to y = {f} when x = {a}.",
    ),
    "extrema-max": (
        "Find the maximum value of f({v}) = {f} on the interval [{lo}, {hi}].",
        "What is the largest value of {f} for {v} in [{lo}, {hi}]?",
        "maximum of {f} on [{lo}, {hi}]",
        "Find the absolute maximum of {f} on {lo} <= {v} <= {hi}.",
        "On the closed interval [{lo}, {hi}], what is the greatest value of {f}?",
    ),
    "extrema-min": (
        "Find the minimum value of f({v}) = {f} on the interval [{lo}, {hi}].",
        "What is the smallest value of {f} for {v} in [{lo}, {hi}]?",
        "minimum of {f} on [{lo}, {hi}]",
        "Find the absolute minimum of {f} on {lo} <= {v} <= {hi}.",
        "On the closed interval [{lo}, {hi}], what is the least value of {f}?",
    ),
    "domain-positive": (
        "Find the positive solutions of {eq}.",
        "Solve {eq} for {v} > 0.",
        "What are the positive roots of {eq}?",
        "solve {eq}, positive {v} only",
        "Find all {v} > 0 such that {eq}.",
    ),
    "domain-nonnegative": (
        "Solve {eq} for {v} >= 0.",
        "Find the non-negative solutions of {eq}.",
        "What are the solutions of {eq} with {v} ≥ 0?",
        "solve {eq} for {v} ≥ 0 only",
        "Find every {v} >= 0 that satisfies {eq}.",
    ),
    "domain-interval": (
        "Solve {eq} for {v} in [{lo}, {hi}].",
        "Find the solutions of {eq} in the interval [{lo}, {hi}].",
        "What are the roots of {eq} between {lo} and {hi} (inclusive)?",
        "solve {eq} with {lo} <= {v} <= {hi}",
        "Find all {v} in [{lo}, {hi}] with {eq}.",
    ),
    "system-2": (
        "Solve the system {e1} and {e2}.",
        "Solve the simultaneous equations {e1}, {e2}.",
        "solve {e1}, {e2}",
        "Find the values that satisfy both {e1} and {e2}.",
        "What is the solution of the system of equations {e1} and {e2}?",
    ),
    "system-3": (
        "Solve the system {e1}, {e2}, {e3}.",
        "Solve the simultaneous equations {e1}, {e2} and {e3}.",
        "solve {e1}; {e2}; {e3}",
        "Find x, y and z such that {e1}, {e2} and {e3}.",
        "What is the solution of the system {e1}, {e2}, {e3}?",
    ),
    "series-maclaurin": (
        "Find the Maclaurin series of {f} up to the {v}^{n} term.",
        "What is the Taylor series of {f} around {v} = 0, up to {v}^{n}?",
        "maclaurin series of {f} up to {v}^{n}",
        "Expand {f} as a power series about 0 up to and including {v}^{n}.",
        "Give the Maclaurin polynomial of degree {n} for {f}.",
    ),
    "series-taylor": (
        "Find the Taylor series of {f} around {v} = {a} up to the ({v} - {a})^{n} term.",
        "What is the Taylor polynomial of degree {n} of {f} at {v} = {a}?",
        "taylor series of {f} about {v} = {a}, degree {n}",
        "Expand {f} in powers of ({v} - {a}) up to degree {n}.",
        "Give the degree {n} Taylor polynomial of {f} centred at {a}.",
    ),
}

TOOL_TEST: Family = {
    "factor": (
        "Break {p} into irreducible factors.",
        "{p} — can you factor that fully?",
        "Express the polynomial {p} in fully factored form.",
        "need {p} as a product, not a sum",
        "Decompose {p} into linear (or irreducible) factors.",
    ),
    "expand": (
        "Write {p} as a sum of monomials.",
        "{p}: remove the brackets, please.",
        "Distribute everything in {p} and collect like terms.",
        "need the expanded polynomial for {p}",
        "Give the fully multiplied-out form of {p}.",
    ),
    "simplify": (
        "Cancel the common factor in {p}.",
        "{p} — reduce it for me",
        "Reduce the rational expression {p} to lowest terms.",
        "can {p} be written more simply? show the result",
        "Give a simpler expression equal to {p}.",
    ),
    "limit-right": (
        "As {v} decreases toward {a} (staying above it), what value does {f} approach?",
        "{f}: limit from above at {v} = {a}?",
        "Right-sided limit at {a} of {f}, please.",
        "Determine lim {v}→{a}⁺ {f}.",
        "what does {f} tend to when {v} comes down to {a} from larger values?",
    ),
    "limit-left": (
        "As {v} increases toward {a} (staying below it), what value does {f} approach?",
        "{f}: limit from below at {v} = {a}?",
        "Left-sided limit at {a} of {f}, please.",
        "Determine lim {v}→{a}⁻ {f}.",
        "what does {f} tend to when {v} climbs up to {a} from smaller values?",
    ),
    "limit-infinity": (
        "For very large {v}, what value does {f} settle towards?",
        "{f}: long-run limit as {v} → ∞?",
        "Determine the behaviour of {f} when {v} becomes arbitrarily large: its limiting value.",
        "limit at +∞ of {f}, with {v} the variable?",
        "If {v} runs off to infinity, where does {f} end up?",
    ),
    "limit-point": (
        "The expression {f} is undefined at {v} = {a}. What value does it approach there?",
        "{f}: two-sided limit at {v} = {a}?",
        "Determine lim {v}→{a} {f}.",
        "what number does {f} get close to as {v} nears {a}?",
        "Near {v} = {a}, which value is {f} heading to?",
    ),
    "tangent": (
        "At x = {a}, which straight line just touches the curve y = {f}? Answer as y = mx + b.",
        "{f}: line touching the graph at x = {a}?",
        "I need the tangent's equation for the graph of {f} where x is {a}.",
        "Linear approximation of y = {f} at x = {a}: write the line.",
        "Slope-intercept form of the tangent to the curve {f} at the point with x-coordinate {a}?",
    ),
    "extrema-max": (
        "How big can {f} get when {v} stays between {lo} and {hi}?",
        "{f} with {lo} ≤ {v} ≤ {hi}: highest value attained?",
        "Determine the global max of {f} over {v} ∈ [{lo}, {hi}].",
        "biggest output of {f} if {v} is restricted to {lo}..{hi}",
        "Restricting {v} to the range from {lo} to {hi}, report the top value of {f}.",
    ),
    "extrema-min": (
        "How low can {f} go when {v} stays between {lo} and {hi}?",
        "{f} with {lo} ≤ {v} ≤ {hi}: lowest value attained?",
        "Determine the global min of {f} over {v} ∈ [{lo}, {hi}].",
        "smallest output of {f} if {v} is restricted to {lo}..{hi}",
        "Restricting {v} to the range from {lo} to {hi}, report the bottom value of {f}.",
    ),
    "domain-positive": (
        "Which values of {v} greater than zero satisfy {eq}?",
        "{eq} — I only care about strictly positive {v}.",
        "Restricting to {v} above 0, give the solutions of {eq}.",
        "roots of {eq} that are bigger than 0?",
        "Keep only positive answers: {eq}, solved for {v}.",
    ),
    "domain-nonnegative": (
        "Which values of {v} that are zero or more satisfy {eq}?",
        "{eq} — negative {v} is not allowed here.",
        "Restricting to {v} not below 0, give the solutions of {eq}.",
        "roots of {eq} that aren't negative?",
        "With {v} ranging over [0, ∞), what solves {eq}?",
    ),
    "domain-interval": (
        "Which values of {v} from {lo} up to {hi} satisfy {eq}?",
        "{eq} — only {v} inside [{lo}, {hi}] count.",
        "Restricting to {lo} ≤ {v} ≤ {hi}, give the solutions of {eq}.",
        "roots of {eq} lying in {lo}..{hi}?",
        "Keep the answers between {lo} and {hi}, endpoints included: {eq}, solved for {v}.",
    ),
    "system-2": (
        "Which pair of values makes {e1} and {e2} true at the same time?",
        "{e1}; {e2} — what are the unknowns?",
        "Equation one: {e1}. Equation two: {e2}. Find the unknowns.",
        "need both unknowns from {e1} together with {e2}",
        "Find the common solution of the linear equations {e2} and {e1}.",
    ),
    "system-3": (
        "Which values of x, y, z make {e1}, {e2} and {e3} all true?",
        "{e1}; {e2}; {e3} — what are the unknowns?",
        "Equation one: {e1}. Equation two: {e2}. Equation three: {e3}. Find the unknowns.",
        "need x, y and z from {e1} together with {e2} and {e3}",
        "Find the common solution of the linear equations {e3}, {e1} and {e2}.",
    ),
    "series-maclaurin": (
        "Degree-{n} Taylor polynomial at 0 of {f}?",
        "{f}: power series around {v} = 0, keeping terms through {v}^{n}.",
        "Approximate {f} near 0 by a polynomial of degree {n} (its Maclaurin polynomial).",
        "need the first terms of the series of {f} at zero, up to power {n}",
        "Write the Maclaurin expansion of {f}, truncated after the {v}^{n} term.",
    ),
    "series-taylor": (
        "Approximate {f} near {v} = {a} by a polynomial of degree {n} (its Taylor polynomial).",
        "{f}: power series around {v} = {a}, keeping terms through degree {n}.",
        "Degree-{n} Taylor polynomial centred on {a} for {f}?",
        "need the series of {f} at {a}, up to power {n} of ({v} - {a})",
        "Write the Taylor expansion of {f} about the point {a}, stopping at degree {n}.",
    ),
}
