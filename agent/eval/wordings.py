"""The two wording families of the eval sets: `DEV` to tune against, `TEST` to report.

Why side by side in one module: the test part only measures wordings nobody tuned to if no
sentence of one family is a paraphrase of the other, and a test (tests/eval/test_parts.py)
can only prove that when both are plain data. The families were written apart, with their own
sentence structures; every key has the same placeholders in both, so the generators draw from
either. Placeholders: {eq} an equation, {p}/{f} a polynomial, {v} its letter, {g}/{name} a
name, {k}/{a}/{b} numbers, {e} arithmetic, {ref} a reference phrase, {sentence} a turn.
"""

from __future__ import annotations

Family = dict[str, tuple[str, ...]]

# --- single questions ------------------------------------------------------------------------
# "dataset" imitates DeepMind's mathematics_dataset in DEV and a textbook's formal register in
# TEST; "chat" is how a person types. {eq0} is the equation written with 0 on the left.

_SINGLE_DEV: Family = {
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

_SINGLE_TEST: Family = {
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
    "single": {"dev": _SINGLE_DEV, "test": _SINGLE_TEST},
    "sessions": {"dev": _SESSIONS_DEV, "test": _SESSIONS_TEST},
}

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


def reference_templates(part: str, kind: str) -> list[str]:
    """Every template that words one kind of reference in one part."""
    words = FAMILIES["sessions"][part]
    return [t for key in REFERENCE_KINDS[kind] for t in words[key]]
