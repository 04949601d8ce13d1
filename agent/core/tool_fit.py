"""Question a tool call whose kind the request never asked for.

A 1.5B model sometimes picks its tool by the look of the history instead of by the request:
"square each of them" became a second derivative of r^2, "add them up" the derivative of m + 5,
and derivative questions became `evaluate` calls that failed. The words of a request say
plainly when it wants a derivative or an integral, so a call that contradicts them is sent back
once with one sentence saying what the request seems to ask. It is only a question: the same
call sent again runs (the loop keeps count), so a request phrased in words not listed here
costs one extra step, never a wrong refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.messages import AssistantMessage, Message, UserMessage, written_call
from tools.calculus import read_derivative, read_integral
from tools.errors import ToolError
from tools.operators import strip_derivative, strip_integral

# Words that ask for each calculus tool. Broad on purpose: a miss costs an extra step only.
_ASKS = {
    "derivative": re.compile(
        r"(?<!anti)(?<!anti-)deriv|differentia|d\S{0,3}/d|slope|rate of change|tangent|gradient|how fast"
        r"|\b[A-Za-z]'+(?![A-Za-z])|critical|stationary|extrem|maxim|minim|concav"
        r"|inflection|increasing|decreasing",
        re.IGNORECASE,
    ),
    "integral": re.compile(
        r"integra|antideriv|anti-deriv|primitive|\barea\b|∫|accumulat", re.IGNORECASE
    ),
}
_NAMES = {"derivative": "a derivative", "integral": "an integral"}
# Words that ask for a value at a point (so `evaluate` fits a derivative question too).
_VALUE_WORDS = re.compile(
    r"\bat\b|\bwhen\b|\bwhere\b|\bvalue|evaluat|plug|substitut|\bfor [A-Za-z]\s*=|[A-Za-z]\s*=",
    re.IGNORECASE,
)
# Words that ask for arithmetic on numbers the chat holds: a sum, squares, a product, a value.
_ARITHMETIC = re.compile(
    r"\b(?:sum|add|plus|total|product|multipl\w*|times|squares?|squared|cubes?|cubed"
    r"|difference|subtract\w*|minus|quotient|divid\w*|ratio|average|mean|reciprocals?"
    r"|double|triple|half|evaluat\w*|plug\w*|substitut\w*|value)\b",
    re.IGNORECASE,
)
# A request that points back at the previous one ("the same for 3x^3") borrows its words.
_BACK_REFERENCE = re.compile(r"\bsame\b|\bagain\b|\balso\b|\btoo\b|\blikewise\b", re.IGNORECASE)


def request_words(user: UserMessage, history: Sequence[Message]) -> str:
    """The text whose words say what this turn asks: the message, plus the previous request
    when this message answers a question the assistant asked, or points back at it."""
    text = user.text
    earlier = [m for m in history if m is not user]
    previous_request = next((m.text for m in reversed(earlier) if isinstance(m, UserMessage)), None)
    last_reply = next((m for m in reversed(earlier) if isinstance(m, AssistantMessage)), None)
    asked_back = last_reply is not None and last_reply.task_status == "PROCESSING"
    if previous_request is not None and (asked_back or _BACK_REFERENCE.search(text)):
        text = f"{previous_request}\n{text}"
    return text


# "the second derivative", "3rd-order derivative", "differentiate ... twice", "d²/dx²", "f''".
_ORDER_WORDS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_TIMES_WORDS = {"twice": 2, "two times": 2, "thrice": 3, "three times": 3, "four times": 4}
_ORDERS = re.compile(
    r"\b(?P<ordinal>second|2nd|third|3rd|fourth|4th)[- ](?:order[- ])?(?:partial[- ])?"
    r"derivative|\b(?P<times>twice|thrice|(?:two|three|four) times)\b"
    r"|d(?:\^|\*\*)?(?P<power>[2-4²³⁴])\s*[A-Za-z]?\s*/\s*d|(?<![A-Za-z])[A-Za-z](?P<primes>'{2,4})",
    re.IGNORECASE,
)
_POWERS = {"2": 2, "3": 3, "4": 4, "²": 2, "³": 3, "⁴": 4}


def asked_order(request: str) -> int | None:
    """The derivative order the request's words ask for, when they ask for exactly one above
    the first ("differentiate twice wrt x and once wrt y" asks for more than one order)."""
    orders = set()
    for match in _ORDERS.finditer(request):
        if match.group("ordinal"):
            orders.add(_ORDER_WORDS[match.group("ordinal").lower()])
        elif match.group("times"):
            orders.add(_TIMES_WORDS[" ".join(match.group("times").lower().split())])
        elif match.group("power"):
            orders.add(_POWERS[match.group("power")])
        else:
            orders.add(len(match.group("primes")))
    if len(orders) != 1 or re.search(r"\bonce\b", request, re.IGNORECASE):
        return None
    return orders.pop()


def order_reason(
    arguments: dict[str, object], request: str, tools_run: Sequence[str]
) -> str | None:
    """One sentence for the model when a derivative call's order is below the one asked.

    Seen on the full `sessions` set: "the second derivative of the first polynomial" sent as
    `d/dp (p^2 - 2p - 3)` with no order, answered with the first derivative. Only the turn's
    first derivative call is checked (two calls of order 1 in a row are a second derivative
    too)."""
    wanted = asked_order(request)
    if wanted is None or "derivative" in tools_run:
        return None
    sent = _call_order(arguments)
    if sent is None or sent >= wanted:
        return None
    return (
        f"Check the order: the request asks for the derivative of order {wanted}, and this "
        f"call computes order {sent}. Send it with order {wanted}, or send this same call "
        "again if it is right."
    )


def _call_order(arguments: dict[str, object]) -> int | None:
    """The order a derivative call computes: its `order`, or the operators its expression
    is written inside ("d/dx (d/dx (E))" is order 2)."""
    raw = arguments.get("order")
    try:
        order = 1 if raw in (None, "") else int(str(raw))
    except ValueError:
        return None
    if order == 1:
        stripped = strip_derivative(str(arguments.get("expression") or ""))
        if stripped is not None:
            order = max(order, stripped.order)
    return order


# A letter standing alone in math ("q" in "9q^2 + q"); e, E and I are constants.
_LETTER = re.compile(r"(?<![A-Za-z_])([A-Za-z])(?![A-Za-z_])")
_CONSTANTS = frozenset({"e", "E", "I"})


def variable_reason(tool: str, arguments: dict[str, object], request: str) -> str | None:
    """One sentence for the model when a calculus call names a variable its math lacks.

    Seen on the full `sessions` set: the derivative of `q^3 + 9q^2 + 26q + 24` sent with
    variable t, and of `p^2 - 2p - 3` with variable r (from an earlier task): both computed as
    0, a wrong answer with no error. A request that writes the letter itself ("with respect
    to y") is taken at its word."""
    lacked = _lacked_variable(tool, arguments, request)
    if lacked is None:
        return None
    variable, body, letters = lacked
    question = (
        f"Check the variable: {variable} does not appear in {body} (its variables: "
        f"{', '.join(letters)}), so this {tool} treats all of it as a constant."
    )
    fixed = variable_fix(tool, arguments, request)
    if fixed is not None:  # written out: the model copies it
        return f"{question} Send this call instead: {written_call(tool, fixed)}"
    return f"{question} Send the call with the variable the math uses."


def variable_fix(tool: str, arguments: dict[str, object], request: str) -> dict[str, object] | None:
    """The call's arguments with its math's one letter as the variable, when it named one its
    math lacks (see `variable_reason`); None otherwise.

    What runs when the model sends such a call again after the question: on every `ledger`
    run it did (`p^2 - 2p - 3` with variable r, answered 0 for the second derivative 2), and
    a derivative in a letter the math lacks is never what a request that does not write that
    letter means."""
    lacked = _lacked_variable(tool, arguments, request)
    if lacked is None or len(lacked[2]) != 1:
        return None
    expression = str(arguments.get("expression") or "")
    stripped = strip_derivative(expression) if tool == "derivative" else strip_integral(expression)
    fixed = {**arguments, "variable": lacked[2][0]}
    if stripped is not None:  # the operator's letter is the wrong one: its math, as fields
        fixed["expression"] = stripped.body
        if tool == "derivative" and stripped.order > 1 and not arguments.get("order"):
            fixed["order"] = stripped.order
        if tool == "integral" and stripped.lower is not None and not arguments.get("lower"):
            fixed["lower"], fixed["upper"] = stripped.lower, stripped.upper
    return fixed if _readable(tool, fixed) else None


def _lacked_variable(
    tool: str, arguments: dict[str, object], request: str
) -> tuple[str, str, list[str]] | None:
    """The variable a calculus call names, its math, and the math's letters, when the math
    lacks that variable and the request does not write it."""
    if tool not in ("derivative", "integral"):
        return None
    expression = str(arguments.get("expression") or "")
    stripped = strip_derivative(expression) if tool == "derivative" else strip_integral(expression)
    body = stripped.body if stripped is not None else expression
    variable = str(arguments.get("variable") or "").strip() or (
        stripped.variable if stripped is not None else None
    )
    letters = set(_LETTER.findall(body)) - _CONSTANTS
    if not variable or not letters or variable in letters or variable in _LETTER.findall(request):
        return None
    return variable, body, sorted(letters)


def _readable(tool: str, arguments: dict[str, object]) -> bool:
    """Whether the calculus tool reads this call (an integral whose bounds name another
    letter than its variable does not)."""
    expression, variable = str(arguments.get("expression")), str(arguments.get("variable"))
    try:
        if tool == "derivative":
            read_derivative(expression, variable, arguments.get("order") or 1)
        else:
            read_integral(expression, variable, arguments.get("lower"), arguments.get("upper"))
    except (ToolError, ValueError, TypeError, RecursionError):
        return False
    return True


def speaks_of_derivative(request: str) -> bool:
    """Whether the request's words involve a derivative ("the derivative of the first
    polynomial at 2", "the slope", "f'(2)"): then math derived from a polynomial it names
    may be what a call works on."""
    return _ASKS["derivative"].search(request) is not None


def asks_for_arithmetic(request: str) -> bool:
    """Whether the request's words ask to compute with numbers ("and their product?")."""
    return _ARITHMETIC.search(request) is not None


# Words that ask for roots, and words that ask to be reminded of an earlier result instead.
_SOLVE_WORDS = re.compile(r"\bsolve|\broots?\b|\bzeros?\b|\bsolutions?\b", re.IGNORECASE)
_RECALL_WORDS = re.compile(
    r"\bagain\b|\bremind|\bdid you\b|\byou (?:found|got|said|gave)\b|\b(?:was|were)\b",
    re.IGNORECASE,
)
# What the request computes on: math it writes, or an earlier result it points at. "What is a
# derivative?" has neither and is answered in words.
_MATH_TARGET = re.compile(
    r"\d|[A-Za-z]\s*[\^²³⁴=]|[A-Za-z]\s*[-+*/]\s*\w|\b(?:it|its|them|their|they|that|this|those"
    r"|these|polynomials?|equations?|expressions?|functions?|quadratic|cubic|quartic|results?"
    r"|answers?|roots?)\b",
    re.IGNORECASE,
)
# A tool's record as the ledger writes it after an answer ("[derivative: d/dx (x^2) = 2*x]"):
# a small model shown such lines copies the form, results included, without calling the tool.
_TOOL_RECORD = re.compile(r"\[(solve|derivative|integral|evaluate)\s*:", re.IGNORECASE)
_FUNCTION_VALUE = re.compile(r"(?<![A-Za-z])[A-Za-z]\(\s*[-+]?\d")


def asked_tool(request: str) -> str | None:
    """The tool a request asks to compute with, or None (a request to be reminded of an
    earlier result, a question about math in words, or no computation at all)."""
    if _RECALL_WORDS.search(request) or not _MATH_TARGET.search(request):
        return None
    for kind, pattern in _ASKS.items():
        if pattern.search(request):
            return kind
    if _SOLVE_WORDS.search(request) and not asks_for_arithmetic(request):
        return "solve"
    if asks_for_arithmetic(request) or _FUNCTION_VALUE.search(request):
        return "evaluate"
    return None


def untooled_reason(answer: str, request: str) -> str | None:
    """One sentence for the model when it answered a computation without running a tool
    (checked only when no tool ran in the turn).

    Seen on the full `sessions` set with `ledger`: "what are the roots of s^4 - ...?" answered
    with made-up roots, and then three answers ending in a copied tool record
    ("[derivative: d²/ds² (...) = 24*s**2]") that no tool produced."""
    record = _TOOL_RECORD.search(answer)
    tool = record.group(1).lower() if record else asked_tool(request)
    if tool is None:
        return None
    return (
        f"No tool ran for this request, so that answer is not computed. Call the {tool} tool "
        "on the math the request means, then answer with its exact result."
    )


def misfit_reason(tool: str, request: str, tools_run: Sequence[str]) -> str | None:
    """One sentence for the model when `tool` contradicts the request's words, else None.

    `tools_run` are the tools already run in this turn: once the asked tool has run, any
    follow-up call (evaluating the derivative it found, say) fits.
    """
    asked = [kind for kind, pattern in _ASKS.items() if pattern.search(request)]
    if tool in _ASKS and tool not in asked:
        return (
            f"Check the tool: nothing in the request asks for {_NAMES[tool]}, so {tool} "
            "looks wrong. Arithmetic on numbers or on earlier results (a sum, squares, a "
            "product, a value) is evaluate with at []. Reply with the call the request needs, "
            "or send this same call again if it is right."
        )
    wanted = [kind for kind in asked if kind not in tools_run]
    if (
        tool == "evaluate"
        and wanted
        and len(wanted) == len(asked)
        and not _VALUE_WORDS.search(request)
    ):
        kind = wanted[0]
        return (
            f"Check the tool: the request asks for {_NAMES[kind]}, which is the {kind} tool, "
            "not evaluate. Reply with the call the request needs, or send this same call "
            "again if it is right."
        )
    return None
