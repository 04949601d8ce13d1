"""Token accounting: one record per LLM call, read from the session's BAML Collector."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CallUsage:
    """One LLM call: which BAML function, its real input/output tokens and duration."""

    function: str
    input_tokens: int
    output_tokens: int
    duration_ms: float
    turn: int
    # Of `input_tokens`, how many the server took from its prompt cache (llama.cpp and hosted
    # APIs report it; 0 when unknown). Not saved with the session.
    cached_input_tokens: int = 0
    # False when the server reported no tokens (a stream cut where the answer began) and
    # they were counted offline: what it read from its cache is then unknown.
    reported: bool = True


@dataclass
class UsageLedger:
    """Every call of a session, in order; totals are derived, never kept twice."""

    calls: list[CallUsage] = field(default_factory=list)
    turn: int = 0
    # History tokens the context strategy kept out of MathChat prompts, summed over the calls
    # of this process: what strategy `none` would have sent on top (an estimate for the REPL;
    # `math-agent bench` measures `none` for real). Not saved with the session.
    history_tokens_saved: int = 0

    def begin_turn(self) -> int:
        self.turn += 1
        return self.turn

    def add(
        self,
        function: str,
        input_tokens: int,
        output_tokens: int,
        duration_ms: float,
        cached_input_tokens: int = 0,
        reported: bool = True,
    ) -> None:
        self.calls.append(
            CallUsage(
                function,
                input_tokens,
                output_tokens,
                duration_ms,
                self.turn,
                cached_input_tokens,
                reported,
            )
        )

    def totals(self, function: str | None = None, turn: int | None = None) -> tuple[int, int]:
        chosen = [
            c
            for c in self.calls
            if (function is None or c.function == function) and (turn is None or c.turn == turn)
        ]
        return sum(c.input_tokens for c in chosen), sum(c.output_tokens for c in chosen)

    def count(self, function: str | None = None) -> int:
        return sum(1 for c in self.calls if function is None or c.function == function)
