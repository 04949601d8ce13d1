"""The guards a tool call meets, each one thing with its reason, and their order.

A guard reads the pending call and what is known of the chat (`Facts`) and does at most one
kind of thing to it: rewrite what it says (stored so), resolve its references (what the
tools read), refuse it with one sentence the model reads as a tool error, or note something
on its result. Each reads math and fields, never the request's words. The order matters and
is written once, in `guards()`: what a call says is settled before it is checked, it is
checked before it is resolved only where the check needs the model's own letters, and the
check on invented math comes last because it needs to know whether ids were resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from agent import wire
from agent.calls.bounds import (
    bounds_said_in_words,
    dropped_bounds,
    persons_restriction,
    unsaid_bounds,
)
from agent.calls.closed_math import closed_evaluation
from agent.calls.curve import along_the_curve
from agent.calls.degrees import in_degrees
from agent.calls.grounding import ungrounded_reason
from agent.calls.joint_solve import joint_note, joint_system
from agent.calls.named_values import pointed_at_named_values
from agent.calls.pending import PendingCall
from agent.calls.person_primes import counted_order
from agent.calls.pointing import pointed_arguments
from agent.calls.points import dropped_point
from agent.calls.resolve import (
    MATH_FIELDS,
    ReferenceProblem,
    function_pattern,
    resolve_arguments,
)
from agent.calls.said_once import said_once
from agent.calls.solved_math import solved_math
from agent.calls.unknowns import unknown_refusal
from agent.calls.variable_fit import fitted_variable, foreign_point, foreign_variable
from agent.llm.model import ToolStep
from agent.messages import Message, ToolResultMessage, UserMessage
from agent.workspace.capture import WrittenInverse, written_inverses
from agent.workspace.record import Workspace
from baml_client.types import Rewriter, TaskRecall
from tools import ToolResult
from tools.function_facts import restriction

# Runs a math call with the tools (injected: a benchmark times or memoises them).
ToolRunner = Callable[[ToolStep], ToolResult]
# Answers a `recall` query from the whole conversation.
LookUp = Callable[[str], str]


@dataclass(frozen=True)
class Facts:
    """What the guards may read when a call arrives: the workspace, the whole conversation
    (what a strategy keeps out of view still grounds a call), the person's newest message
    and their words in the open task, this turn's results so far, and the runners."""

    workspace: Workspace
    conversation: Sequence[Message]
    message: str
    said: str
    earlier: Sequence[ToolResultMessage]
    run_tool: ToolRunner
    look_up: LookUp


Guard = Callable[[PendingCall, Facts], None]


# Calls whose answer, on f when its inverse is written, is the inverse itself: a small model
# solves or evaluates the definition where the person asked for f^-1.
_THE_INVERSE_ITSELF = frozenset({"solve", "evaluate", "simplify", "factor", "expand"})


def take_the_inverse_written(call: PendingCall, facts: Facts) -> None:
    """A function's inverse the person wrote as notation (`f^-1(x)`, `f⁻¹(x)`) is an `inverse`
    of that function: a small model solves its definition instead, which says nothing of f^-1.
    Read as notation, never words; only for the inverse as a function (of one letter; its
    value at a number is left to the call) and a call whose math is that function. Stored so.
    An operation of its own on f (a derivative, an integral, a limit...) is refused with the
    two steps it takes: the inverse would drop the operation, the call alone the inverse."""
    if call.tool == "inverse" or call.tool not in MATH_FIELDS:
        return
    written = written_inverses(facts.said, facts.workspace.named)
    if len({w.name for w in written}) != 1 or not all(w.argument.isalpha() for w in written):
        return
    name = written[0].name
    function = facts.workspace.named.get(name)
    if function is None or _used_apart(name, facts.said, written):
        return
    main = call.arguments.get(MATH_FIELDS[call.tool][0])
    math = " ".join(main) if isinstance(main, list) else str(main or "")
    if not function_pattern(name).search(math) and not re.search(rf"{function.id}\b", math):
        return
    if call.tool not in _THE_INVERSE_ITSELF:
        call.refuse(
            "take_the_inverse_written",
            f"The person wrote the inverse {name}^-1: call `inverse` on {name} first, then "
            f"`{call.tool}` on that result's id.",
        )
        return
    inverse = Rewriter(tool="inverse", expression=name)
    call.recast("take_the_inverse_written", inverse, "the inverse the person wrote")


def _used_apart(name: str, said: str, written: Sequence[WrittenInverse]) -> bool:
    """Does the person write f other than in its definition's head and its inverses
    (`written`) (`differentiate f and give f^-1(x)`)? Then a call on f may be on f itself."""
    inverses = [(w.start, w.end) for w in written if w.name == name]
    for match in function_pattern(name).finditer(said):
        if any(start <= match.start() < end for start, end in inverses):
            continue
        if re.match(r"\s*\([^()]*\)\s*=(?!=)", said[match.end() :]):
            continue  # `f(x) = ...`: the definition
        return True
    return False


def evaluate_closed_math(call: PendingCall, facts: Facts) -> None:
    """A solve, extremum or limit of math with no letter, id or relation (`gcd(84, 126)`)
    runs as `evaluate` (`calls/closed_math`): solve would read it as `42 = 0`, never true.
    Stored so."""
    if (evaluation := closed_evaluation(call.tool, call.arguments)) is not None:
        call.recast("evaluate_closed_math", evaluation, "closed math evaluated")


def say_once(call: PendingCall, facts: Facts) -> None:
    """What the call says twice or in the wrong field, said once where the tool reads it
    (`calls/said_once`): an integral written around an integral call's math, primes and an
    order, values given again as points. Stored so, the workspace names the result by what
    ran and the model reads back a clean call."""
    call.rewrite("say_once", said_once(call.tool, call.arguments, facts.workspace), "said once")


def keep_the_persons_degrees(call: PendingCall, facts: Facts) -> None:
    """A trigonometric function of a number the person wrote in degrees (`30 degrees`,
    `30°`) takes it in degrees (`calls/degrees`): the tools read a bare number as radians.
    Stored so."""
    if (marked := in_degrees(call.arguments, facts.said)) is not None:
        call.rewrite("keep_the_persons_degrees", marked, "the person's degrees kept")


def differentiate_along_the_curve(call: PendingCall, facts: Facts) -> None:
    """A derivative in x of one side of the person's curve, where they wrote `dy/dx`, is taken
    along the curve (`calls/curve`): with `= 7` dropped, the tool held y constant. Stored so."""
    along = along_the_curve(call.tool, call.arguments, facts.message, facts.workspace)
    if along is not None:
        call.rewrite("differentiate_along_the_curve", along, "taken along the person's curve")


def count_the_persons_primes(call: PendingCall, facts: Facts) -> None:
    """A derivative of f with order 2 where the person wrote `f'''` takes the order their
    primes count (`calls/person_primes`): the model miscounted them. Stored so."""
    counted = counted_order(call.tool, call.arguments, facts.message, facts.workspace)
    if counted is not None:
        call.rewrite("count_the_persons_primes", counted, "the order the primes count")


def use_the_math_roots_solve(call: PendingCall, facts: Facts) -> None:
    """The id of several roots given whole to a tool that needs math in a variable (a
    derivative of the roots) is the id of the math they solve (`calls/solved_math`): the
    roots named the equation. Stored so, the result's line says what ran."""
    rewritten = solved_math(call.tool, call.arguments, facts.workspace)
    call.rewrite("use_the_math_roots_solve", rewritten, "the math the roots solve")


def drop_bounds_that_say_none(call: PendingCall, facts: Facts) -> None:
    """A bound written as words for no bound (`"lower": "all real numbers"`, `"undefined"`)
    is none (`calls/bounds`): the model means the whole line, and a word in a math field
    would be refused, leaving it to guess again. An integral with such a bound loses both
    (an antiderivative). Stored so; the person's own interval can still be taken after."""
    if (cleared := bounds_said_in_words(call.tool, call.arguments)) is not None:
        call.rewrite("drop_bounds_that_say_none", cleared, "bounds that say none left out")


def keep_the_persons_interval(call: PendingCall, facts: Facts) -> None:
    """An integral or an extremum with no bounds, where the person wrote one interval in this
    task (`from 0 to 3`, `[0, 3]`), takes that interval (`calls/bounds`): the model dropped
    it, and the tool would answer an antiderivative. Stored so."""
    if (
        bounded := dropped_bounds(call.tool, call.arguments, facts.said, facts.workspace)
    ) is not None:
        call.rewrite("keep_the_persons_interval", bounded, "the person's interval kept")


def leave_out_unsaid_bounds(call: PendingCall, facts: Facts) -> None:
    """Bounds of an integral or an extremum that nobody gave and no result holds are left
    out, with a note on the result saying so (`calls/bounds`): the model made them up."""
    found = unsaid_bounds(call.tool, call.arguments, facts.said, facts.workspace)
    if found is not None:
        cleared, note = found
        call.rewrite("leave_out_unsaid_bounds", cleared, "bounds nobody gave left out")
        call.note("leave_out_unsaid_bounds", note, if_ran=True)


def refuse_a_unit_or_no_unknown(call: PendingCall, facts: Facts) -> None:
    """A call in a unit the person wrote after a number (`m` of `52 m²`), or a solve on
    arithmetic nobody wrote, has no unknown of its own (`calls/unknowns`): refused with a
    request for a letter per quantity. Read on the model's own letters, before ids resolve."""
    if (refusal := unknown_refusal(call.tool, call.arguments, facts.said)) is not None:
        call.refuse("refuse_a_unit_or_no_unknown", refusal)


def take_the_roots_named_by_values(call: PendingCall, facts: Facts) -> None:
    """An earlier result the person names by its values ("the one where you got -5 and 3")
    is the item the call points at, when it pointed at one other (`calls/named_values`): the
    numbers name it exactly, whatever item the model took as the nearest. Stored so."""
    if call.refusal is not None:
        return
    newest = next((m for m in reversed(facts.conversation) if isinstance(m, UserMessage)), None)
    new = facts.workspace.said_in([newest] if newest is not None else [])
    changed = pointed_at_named_values(
        call.tool, call.arguments, facts.message, facts.workspace, new
    )
    if changed is not None:
        call.rewrite("take_the_roots_named_by_values", changed, "the item named by its values")


def resolve_references(call: PendingCall, facts: Facts) -> None:
    """Ids, names and places in the call's math replaced by the exact math they stand for
    (`calls/resolve`); a wrong or unusable reference is refused with what exists."""
    try:
        resolved = resolve_arguments(call.tool, call.arguments, facts.workspace)
    except ReferenceProblem as problem:
        call.refuse("resolve_references", problem.message)
        return
    call.resolve("resolve_references", resolved, "references resolved")


# A function's facts that hold on a part of the line (a domain kept to one is that part).
_KEPT_TO_A_PART = ("range", "inverse")


def keep_the_persons_restriction(call: PendingCall, facts: Facts) -> None:
    """A range or an inverse of a function the person kept to a part of the line (`for x >=
    0`, `on [-1, 3]` in their words in this task, on the function's letter) is asked there
    (`calls/bounds`): the call has no field for it, so it follows the math after a comma, as
    the tool reads it. Stored so; the model dropped it, and `x^2` has no inverse."""
    if call.tool not in _KEPT_TO_A_PART or call.refusal is not None:
        return
    resolved = call.resolved if call.resolved is not None else call.arguments
    math = str(resolved.get("expression") or "")
    if not math or restriction(math)[1] is not None:
        return
    if (kept := persons_restriction(facts.said, math)) is None:
        return
    guard, what = "keep_the_persons_restriction", "the person's restriction kept"
    written = str(call.arguments.get("expression") or "")
    call.rewrite(guard, {**call.arguments, "expression": f"{written}, {kept}"}, what)
    call.resolve(guard, {**resolved, "expression": f"{math}, {kept}"}, what)


def keep_the_persons_point(call: PendingCall, facts: Facts) -> None:
    """A derivative with no point, where the person's newest message writes its letter equal
    to a number (`at t = 1 s`), is taken there (`calls/points`): the model dropped the point,
    and the tool would answer the derivative alone. Its text still states the derivative.
    Stored so; read after the ids resolve, since the math says the letter."""
    if call.refusal is not None:
        return
    resolved = call.resolved if call.resolved is not None else call.arguments
    points = dropped_point(call.tool, call.arguments, resolved, facts.message, facts.workspace)
    if points is None:
        return
    guard, what = "keep_the_persons_point", "the person's point kept"
    call.rewrite(guard, {**call.arguments, "at": points}, what)
    call.resolve(guard, {**resolved, "at": points}, what)


def fit_the_variable(call: PendingCall, facts: Facts) -> None:
    """A derivative or integral in a letter its math lacks runs in the math's one letter
    (`calls/variable_fit`): a small model carries an earlier task's letter over, and the
    tool would answer 0 for what it reads as a constant."""
    resolved = call.resolved if call.resolved is not None else call.arguments
    if (fitted := fitted_variable(call.tool, resolved, facts.message)) is not None:
        call.resolve("fit_the_variable", fitted, "run in its math's letter")


def refuse_another_letter(call: PendingCall, facts: Facts) -> None:
    """A calculus call in the person's letter on math in another letter, or an evaluation
    at a number the person gave another letter, points at other math than they mean: refused
    with the ids of the math in their letter (`calls/variable_fit`)."""
    resolved = call.resolved if call.resolved is not None else call.arguments
    foreign = foreign_variable(call.tool, resolved, facts.message, facts.workspace)
    if foreign is None and call.tool in wire.POINT_LIST_TOOLS:
        foreign = foreign_point(call.arguments, resolved, facts.message, facts.workspace)
    if foreign is not None:
        call.refuse("refuse_another_letter", foreign)


def refuse_invented_math(call: PendingCall, facts: Facts) -> None:
    """Math the call wrote itself (nothing was resolved) that shares no letter or number
    with the conversation is invented (`calls/grounding`): the model is told to ask."""
    if call.resolved is not None and call.resolved != call.arguments:
        return
    if isinstance(call.step, TaskRecall):
        return
    if (refusal := ungrounded_reason(call.step, list(facts.conversation))) is not None:
        call.refuse("refuse_invented_math", refusal)


def solve_together(call: PendingCall, facts: Facts) -> None:
    """A solve whose unknowns are shared with this request's earlier solves that are still
    in terms of another unknown is also solved with them as a system (`calls/joint_solve`);
    a determined solution is noted on the result, so the answer can quote it."""
    if call.result is None:
        return
    system = joint_system(list(facts.earlier), call.result)
    if system is not None and (note := joint_note(system, facts.run_tool(system))) is not None:
        call.note("solve_together", note)


def point_back(call: PendingCall, facts: Facts) -> None:
    """Math the call copied from an item is shown back to the model as that item's id
    (`calls/pointing`): a small model copies its own history, so its next reference is an
    id. Only what the model reads back changes; the stored call keeps what ran."""
    call.pointed = pointed_arguments(call.tool, call.arguments, facts.workspace)


def guards(fit_variable: bool) -> tuple[Guard, ...]:
    """The guards before a call runs, in order; `fit_variable`: the small-model aid that
    reads a calculus call's letter (`SmallModelAids.fit_variable`)."""
    letters = (fit_the_variable, refuse_another_letter) if fit_variable else ()
    return (
        take_the_inverse_written,
        evaluate_closed_math,
        say_once,
        keep_the_persons_degrees,
        differentiate_along_the_curve,
        count_the_persons_primes,
        use_the_math_roots_solve,
        drop_bounds_that_say_none,
        keep_the_persons_interval,
        leave_out_unsaid_bounds,
        refuse_a_unit_or_no_unknown,
        take_the_roots_named_by_values,
        resolve_references,
        keep_the_persons_restriction,
        keep_the_persons_point,
        *letters,
        refuse_invented_math,
    )


# After the call ran (or was refused), in order: notes on its result, then what the model
# reads back of it.
AFTER_RUN: tuple[Guard, ...] = (solve_together, point_back)
