"""Benchmark conversations for memory: far back-references and long-lived preferences.

Same shape as `agent.bench.scenarios` (Scenario / Task / Turn, replies written out, fillers
from its seeded `plain_scenario`), plus what those measures cannot see:

- `fleet-N`: a user asks about the route efficiency of a delivery fleet, then N unrelated
  generated tasks, then comes back with "can we return to the fleet math?", phrased with
  none of the first request's math. Its `needs` (the cost expression, the best speed) are
  checked by the bench's usual retention measure.
- `decimals-N`: the first message says "always give me decimals"; N unrelated tasks later a
  task whose exact result is a fraction. Retention here is a word, not a math fact:
  `MemoryScenario.expected_in_context` lists what the context of the probe's first MathChat
  call must contain ("decimal"), checked by `memory_retention`.

`user_facts` scripts the ExtractUserFacts replies per user message (empty operations for
every other message); `facts_reply` answers those requests for the bench's scripted server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent import wire
from agent.bench.references import Pointer, Reference
from agent.bench.scenarios import Scenario, Task, Turn, facts, plain_scenario
from agent.testing.replies import answer, tool_call, user_facts


@dataclass(frozen=True)
class MemoryScenario:
    scenario: Scenario
    probe: str  # the user message whose context is checked
    expected_in_context: tuple[str, ...] = ()  # substrings (case-insensitive)
    user_facts: dict[str, str] = field(default_factory=dict)  # user text -> ExtractUserFacts
    expected_facts: tuple[str, ...] = ()  # what the facts store should hold at the end


FLEET_QUESTION = (
    "I manage a delivery fleet of 9 vans. A route costs 2*x^2 - 48*x + 400 dollars when "
    "the vans average x km/h. Which speed makes the routes most efficient?"
)


def fleet_task() -> Task:
    question = FLEET_QUESTION
    reply = (
        "The cost is lowest where its derivative 4*x - 48 is zero, at x = 12: routes are most "
        "efficient at 12 km/h."
    )
    return Task(
        "fleet",
        (
            Turn(
                question,
                (
                    tool_call("derivative", expression="2*x^2 - 48*x + 400"),
                    tool_call("solve", equation="4*x - 48 = 0"),
                    answer(reply),
                ),
            ),
        ),
        facts=facts("4*x - 48", "12"),
    )


def fleet_return_task(target: int) -> Task:
    text = "can we return to the fleet math? what does one route cost at that best speed?"
    return Task(
        "fleet-return",
        (
            Turn(
                text,
                (
                    tool_call("evaluate", expression="2*x^2 - 48*x + 400", at=["12"]),
                    answer("At the best speed, x = 12, one route costs 112 dollars."),
                ),
                Reference(
                    (
                        Pointer(FLEET_QUESTION, None, "expression", ("2*x^2 - 48*x + 400",)),
                        Pointer(FLEET_QUESTION, 1, "roots", ("12",)),
                    ),
                    tool_call("evaluate", expression="@0", at=["@1"]),
                    "fleet",
                ),
            ),
        ),
        facts=("112",),
        needs=("2*x^2 - 48*x + 400", "12"),
        refers_to=target,
    )


def fleet_scenario(between: int = 12) -> MemoryScenario:
    """(a) A back-reference phrased differently, `between` unrelated tasks later."""
    filler = plain_scenario(between, seed=7).tasks
    tasks = (fleet_task(), *filler, fleet_return_task(0))
    scenario = Scenario(
        f"fleet-{between}",
        tasks,
        f"fleet route question, {between} unrelated tasks, then 'return to the fleet math'",
        needs_are_text=True,
    )
    first = tasks[0].question
    subject = user_facts(
        {
            "op": "add",
            "kind": "SUBJECT",
            "text": "Optimises the routes of a fleet of 9 vans",
        }
    )
    return MemoryScenario(
        scenario,
        probe=tasks[-1].question,
        expected_in_context=("fleet",),
        user_facts={first: subject},
        expected_facts=("fleet",),
    )


def decimals_scenario(between: int = 50) -> MemoryScenario:
    """(b) "always give decimals" at the start must still be in context `between` tasks later."""
    preference = Task(
        "preference",
        (
            Turn(
                "Please always give me decimals rather than fractions from now on.",
                (answer("Understood: from now on I will give decimal answers."),),
            ),
        ),
    )
    probe_text = "evaluate x^2/3 + 1 at x = 2"
    probe = Task(
        "decimal-probe",
        (
            Turn(
                probe_text,
                (
                    tool_call("evaluate", expression="x^2/3 + 1", at=["2"]),
                    answer("x^2/3 + 1 at x = 2 is about 2.333 (exactly 7/3)."),
                ),
            ),
        ),
        facts=("7/3",),
    )
    filler = plain_scenario(between, seed=11).tasks
    scenario = Scenario(
        f"decimals-{between}",
        (preference, *filler, probe),
        f"'always give decimals' first, {between} unrelated tasks, then a fractional result",
        needs_are_text=True,
    )
    wants = user_facts({"op": "add", "kind": "ANSWER_FORM", "text": "Wants decimal answers"})
    return MemoryScenario(
        scenario,
        probe=probe_text,
        expected_in_context=("decimal",),
        user_facts={preference.question: wants},
        expected_facts=("decimal",),
    )


MEMORY_SCENARIOS: dict[str, Callable[[], MemoryScenario]] = {
    "fleet-12": lambda: fleet_scenario(12),
    "fleet-40": lambda: fleet_scenario(40),
    "decimals-50": lambda: decimals_scenario(50),
}


# -- for the scripted server and the measures ---------------------------------------------------


def facts_reply(memory: MemoryScenario, messages: list[dict[str, Any]]) -> str:
    """The scripted ExtractUserFacts reply: by the user message (the request's last)."""
    text = str(messages[-1].get("content", "")).strip() if messages else ""
    return memory.user_facts.get(text, user_facts())


RECALLED = f"{wire.TOOL_RESULT_LABEL} ({wire.RECALL_TOOL})"


def _recalls_for(requests: list[dict[str, Any]], probe: str) -> set[str]:
    """The recall results in the requests made for `probe` (after it, in its task)."""
    found: set[str] = set()
    for body in requests:
        messages = body.get("messages") or []
        for index, message in enumerate(messages):
            if wire.request_of(str(message.get("content", ""))) == probe:
                found |= {
                    str(m.get("content", ""))
                    for m in messages[index + 1 :]
                    if str(m.get("content", "")).startswith(RECALLED)
                }
    return found


def first_call_context(requests: list[dict[str, Any]], probe: str) -> str | None:
    """Everything the first MathChat call for `probe` showed besides the probe itself."""
    for body in requests:
        messages = body.get("messages") or []
        if not messages or wire.function_of(messages) != "MathChat":
            continue
        last_user = next((m for m in reversed(messages) if m.get("role") == "user"), None)
        shown = str(last_user.get("content", "")) if last_user is not None else ""
        if wire.request_of(shown) == probe:
            block = shown[: len(shown) - len(probe)]  # the workspace shown with the probe
            return "\n".join([*(str(m.get("content", "")) for m in messages[:-1]), block])
    return None


def memory_retention(memory: MemoryScenario, requests: list[dict[str, Any]]) -> list[str]:
    """What the probe's first call lacked, and no recall the model made for it brought back
    (an empty list: everything expected was there)."""
    context = first_call_context(requests, memory.probe)
    if context is None:
        return [f"{memory.probe!r} was never asked"]
    lowered = "\n".join([context, *sorted(_recalls_for(requests, memory.probe))]).lower()
    return [want for want in memory.expected_in_context if want.lower() not in lowered]
