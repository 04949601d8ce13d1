"""The single-question wordings of the eval sets: `DEV` to tune against, `TEST` to report.

Kept apart from the session wordings only for size; `agent.eval.wordings` holds both families
and explains why they are plain data.
"""

from __future__ import annotations

Family = dict[str, tuple[str, ...]]

# --- single questions ------------------------------------------------------------------------
# "dataset" imitates DeepMind's mathematics_dataset in DEV and a textbook's formal register in
# TEST; "chat" is how a person types. {eq0} is the equation written with 0 on the left.

SINGLE_DEV: Family = {
    "roots/dataset": (
        "Solve {eq} for {v}.",
        "Let {eq}. What is {v}?",
        "Find {v} such that {eq}.",
        "Suppose {eq}. What is {v}?",
        "Determine {v} so that {eq}.",
        "Solve {eq0} for {v}.",
    ),
    "roots/chat": (
        "solve {eq}",
        "what are the roots of {p}",
        "find the zeros of {p}",
        "{eq}, what's {v}?",
        "solve for {v}: {eq}",
        "for which {v} is {eq}?",
    ),
    "derivative-1/dataset": (
        "Differentiate {f} with respect to {v}.",
        "What is the derivative of {f} wrt {v}?",
        "Find the first derivative of {f} wrt {v}.",
        "Differentiate {f} wrt {v}.",
    ),
    "derivative-2/dataset": (
        "Find the second derivative of {f} wrt {v}.",
        "What is the second derivative of {f} wrt {v}?",
        "Differentiate {f} twice with respect to {v}.",
    ),
    "derivative-3/dataset": (
        "What is the third derivative of {f} wrt {v}?",
        "Find the third derivative of {f} wrt {v}.",
        "Differentiate {f} three times with respect to {v}.",
    ),
    "derivative-1/chat": (
        "differentiate {f}",
        "derivative of {f}",
        "what's the derivative of {f}?",
    ),
    "derivative-2/chat": (
        "second derivative of {f}",
        "what's the 2nd derivative of {f}",
        "differentiate {f} twice",
    ),
    "derivative-3/chat": (
        "third derivative of {f}",
        "differentiate {f} three times",
        "f(x) = {f}, find f'''",
    ),
    "derivative-1-several/chat": (
        "d/d{v} of {f}",
        "partial derivative of {f} with respect to {v}",
    ),
    "derivative-2-several/chat": (
        "second derivative of {f} with respect to {v}",
        "differentiate {f} twice wrt {v}",
    ),
    "derivative-3-several/chat": (
        "third derivative of {f} with respect to {v}",
        "what is the 3rd derivative of {f} wrt {v}?",
    ),
    "function-value/dataset": (
        "Let {g}({v}) = {f}. Give {g}({a}).",
        "Let {g}({v}) = {f}. What is {g}({a})?",
        "Let {g}({v}) = {f}. Calculate {g}({a}).",
        "Let {g}({v}) = {f}. Determine {g}({a}).",
        "Suppose {g}({v}) = {f}. What is {g}({a})?",
    ),
    "function-value/chat": (
        "if {g}({v}) = {f}, what is {g}({a})?",
        "{g}({v}) = {f}. {g}({a}) = ?",
        "let {g}({v}) = {f}; find {g}({a})",
        "what's {g}({a}) when {g}({v}) = {f}?",
        "evaluate {g}({v}) = {f} at {v} = {a}",
    ),
    "definite/dataset": (
        "Calculate the definite integral of {f} from {a} to {b} with respect to {v}.",
        "What is the integral of {f} wrt {v} from {a} to {b}?",
    ),
    "definite/chat": (
        "integrate {f} from {a} to {b}",
        "∫ ({f}) d{v} from {a} to {b}",
        "definite integral of {f} from {v} = {a} to {v} = {b}",
        "what's the integral of {f} d{v} between {a} and {b}?",
        "compute the integral from {a} to {b} of {f} d{v}",
    ),
    "indefinite/dataset": (
        "Find the indefinite integral of {f} with respect to {v}.",
        "What is an antiderivative of {f} wrt {v}?",
    ),
    "indefinite/chat": (
        "what's the antiderivative of {f}",
        "integrate {f} d{v}",
        "indefinite integral of {f}",
        "find an antiderivative of {f} with respect to {v}",
        "∫ ({f}) d{v}",
    ),
    "closed/dataset": (
        "What is {e}?",
        "Calculate {e}.",
        "Evaluate {e}.",
        "What is the value of {e}?",
    ),
    "closed/chat": ("compute {e}", "what's {e}", "how much is {e}?", "{e} = ?", "calculate {e}"),
    "chained/dataset": (
        "Suppose {g}({v}) = {p} = 0. Solve for {v}.",
        "Let {g}({v}) = {p} = 0. What is {v}?",
    ),
    "chained/chat": (
        "{g}({v}) = {p} = 0, solve for {v}",
        "solve {g}({v}) = {p} = 0",
        "{g}({v}) = {p} = 0. {v} = ?",
    ),
    "notation-zeros/dataset": (
        "Let {g}({v}) = {p}. Find the zeros of {g}.",
        "Let {g}({v}) = {p}. Solve {g}({v}) = 0.",
    ),
    "notation-zeros/chat": (
        "{g}({v}) = {p}, find the zeros of {g}",
        "let {g}({v}) = {p}. where is {g} zero?",
    ),
    "notation-derivative/dataset": ("Let {g}({v}) = {p}. What is {g}'({v})?",),
    "notation-derivative/chat": ("{g}({v}) = {p}, find {g}'({v})", "if {g}({v}) = {p} what's {g}'"),
    "notation-integral/dataset": ("Let {g}({v}) = {p}. Integrate {g} from {a} to {b}.",),
    "notation-integral/chat": ("{g}({v}) = {p}; integrate {g} from {a} to {b}",),
}

SINGLE_TEST: Family = {
    "roots/dataset": (
        "Find all real values of {v} satisfying {eq}.",
        "Which values of {v} make {eq} true?",
        "Give every solution in {v} of the equation {eq}.",
        "The equation {eq} holds for which {v}?",
        "List the solutions {v} of {eq0}.",
    ),
    "roots/chat": (
        "need {v} here: {eq}",
        "where does {p} cross zero",
        "{eq} -> {v} = ?",
        "can you crack {eq} for me",
        "got {eq} on my homework, what does {v} come out to",
        "at which points is {p} equal to zero?",
    ),
    "derivative-1/dataset": (
        "Take the derivative with respect to {v} of the expression {f}.",
        "Obtain the rate of change of {f} with respect to {v}.",
        "With respect to {v}, what does {f} differentiate to?",
    ),
    "derivative-2/dataset": (
        "Compute the second-order derivative in {v} of {f}.",
        "Take the derivative of {f} with respect to {v}, and then take it again.",
        "Differentiating {f} two times in {v} gives what?",
    ),
    "derivative-3/dataset": (
        "Compute the third-order derivative in {v} of {f}.",
        "Apply d/d{v} three times in a row to {f}.",
        "Differentiating {f} three successive times in {v} gives what?",
    ),
    "derivative-1/chat": (
        "{f} — differentiated, what do I get?",
        "need the slope function of {f}",
        "rate of change of {f}?",
    ),
    "derivative-2/chat": (
        "{f}: differentiate, then differentiate the result again",
        "the derivative of the derivative of {f}?",
        "second-order derivative for {f} pls",
    ),
    "derivative-3/chat": (
        "three derivatives in a row on {f}",
        "{f}, derivative taken three times",
        "what comes out after differentiating {f} thrice",
    ),
    "derivative-1-several/chat": (
        "holding the other letters fixed, differentiate {f} in {v}",
        "{f}: partial with respect to {v}?",
    ),
    "derivative-2-several/chat": (
        "holding the other letters fixed, differentiate {f} two times in {v}",
        "{f}: second partial in {v}?",
    ),
    "derivative-3-several/chat": (
        "{f}: differentiate three times in {v}, other letters constant",
        "third partial in {v} of {f}, the rest treated as constants",
    ),
    "function-value/dataset": (
        "Evaluate {g}({a}), where {g}({v}) = {f}.",
        "The function {g} is defined by {g}({v}) = {f}. Find its value at {v} = {a}.",
        "Take {g}({v}) = {f} and report {g} at the point {a}.",
        "What number does {g}({v}) = {f} give when {v} is {a}?",
    ),
    "function-value/chat": (
        "{g}({v}) is {f}; so {g}({a}) is?",
        "plug {a} into {g}({v}) = {f}",
        "with {g}({v}) := {f}, I need {g}({a})",
        "my function is {g}({v}) = {f}. value at {a}?",
    ),
    "definite/dataset": (
        "Evaluate the integral of {f} over the interval [{a}, {b}] in {v}.",
        "Integrating {f} in {v} between the limits {a} and {b} gives what value?",
    ),
    "definite/chat": (
        "{f}, integrated over [{a}, {b}]",
        "need the {v}-integral of {f} with {a} as lower and {b} as upper limit",
        "what do I get integrating {f} d{v} over {a}..{b}",
    ),
    "indefinite/dataset": (
        "Give a primitive of {f} in {v}.",
        "Find a function whose derivative with respect to {v} is {f}.",
    ),
    "indefinite/chat": (
        "undo the derivative: {f}",
        "primitive of {f}?",
        "no bounds, just integrate {f} in {v}",
        "what function has derivative {f}?",
    ),
    "closed/dataset": (
        "Simplify the numeric expression {e} completely.",
        "Find the value of the expression {e}.",
        "Reduce {e} to a single number.",
    ),
    "closed/chat": (
        "quick sanity check: {e}",
        "what number do you get from {e}",
        "can u do {e}",
        "mental math: {e}",
    ),
    "chained/dataset": (
        "Determine every {v} for which {g}({v}) = {p} = 0 holds.",
        "Given that {g}({v}) = {p} = 0, list each possible {v}.",
    ),
    "chained/chat": (
        "{g}({v}) = {p} = 0 — which {v} works?",
        "need the {v} values where {g}({v}) = {p} = 0",
    ),
    "notation-zeros/dataset": (
        "Consider the function {g} given by {g}({v}) = {p}. At which {v} does {g} vanish?",
    ),
    "notation-zeros/chat": ("my {g}({v}) is {p}; when is {g} zero?",),
    "notation-derivative/dataset": ("Consider {g}({v}) = {p}. Give the derivative function {g}'.",),
    "notation-derivative/chat": ("{g}({v}) = {p}. {g}' = ?", "got {g}({v}) = {p}, and I need {g}'"),
    "notation-integral/dataset": (
        "Consider {g}({v}) = {p}. Compute the integral of {g} over [{a}, {b}].",
    ),
    "notation-integral/chat": ("with {g}({v}) = {p}: ∫ {g} over [{a}, {b}]?",),
}
