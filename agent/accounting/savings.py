"""What a context strategy did not send, against strategy `none` (shown by `/tokens`).

Two figures, because a strategy that folds rarely (`window`) can have folded the history
without having sent a smaller prompt yet:
- so far: history tokens kept out of the MathChat prompts already sent (summed per call);
- now: how much smaller the history the next prompt shows is than the whole conversation
  `none` would show.
History sizes are o200k estimates (`agent.accounting.tokenizer`); the ledger's input tokens
are what the server counted, in its own tokenizer (the embedded model's splits every digit,
about twice as many), so the two are never mixed into one share.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HistorySaving:
    strategy: str
    # History tokens (o200k) kept out of the MathChat prompts sent so far, and their number.
    kept_out_so_far: int
    chat_calls: int
    # The history the next prompt shows, and the whole conversation `none` would show (o200k).
    shown_now: int
    whole_now: int
    # Compactions that changed the working history (not the ones that kept it as it was).
    compactions: int

    @property
    def kept_out_now(self) -> int:
        return max(0, self.whole_now - self.shown_now)

    def lines(self) -> list[str]:
        """Plain sentences, one per figure."""
        if self.kept_out_so_far == 0 and self.kept_out_now == 0:
            return [
                f"Strategy {self.strategy} has sent the whole history so far ({self.whole_now} "
                f"tokens now; {self.compactions} compactions): nothing kept out against none."
            ]
        share = self.kept_out_now / self.whole_now if self.whole_now else 0.0
        return [
            f"Strategy {self.strategy} kept {self.kept_out_so_far} history tokens out of the "
            f"{self.chat_calls} MathChat prompts sent so far (what strategy none would have "
            "sent on top).",
            f"Now, after {self.compactions} compactions: the next prompt shows {self.shown_now} "
            f"history tokens where none would show {self.whole_now}, {self.kept_out_now} "
            f"fewer ({share:.0%}).",
        ]
