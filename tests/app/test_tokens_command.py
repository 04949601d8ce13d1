"""`/tokens` says what the strategy did not send against `none`, `window` included.

`window` folds rarely: right after a fold it has sent no smaller prompt yet, and the old
footer said "net saving 0%" although the history it would send had just shrunk. The footer
now gives both figures: kept out of the prompts sent so far, and kept out of the next one.
"""

from __future__ import annotations

import io
import re

from rich.console import Console

from agent.app.render import history_saving, print_tokens
from agent.testing.replies import answer, tool_call
from agent.testing.scripted import ScriptedModel, scripted_agent

FOLD_AT = 700  # o200k tokens: folds after a few tasks instead of about thirty


def questions(count: int) -> tuple[list[str], list[str]]:
    texts, replies = [], []
    for i in range(1, count + 1):
        texts.append(f"solve x^2 - {i * i} = 0")
        replies += [tool_call("solve", equation=f"x^2 - {i * i} = 0"), answer(f"x = -{i}, x = {i}")]
    return texts, replies


def footer(agent) -> str:
    console = Console(file=io.StringIO(), width=400, color_system=None)
    print_tokens(console, agent.model.ledger, agent=agent)
    return " ".join(console.file.getvalue().split())


def test_a_window_session_just_folded_reports_what_it_keeps_out() -> None:
    texts, replies = questions(12)
    with scripted_agent(ScriptedModel(replies), "window") as (agent, _):
        agent.strategy.fold_at_tokens = FOLD_AT
        folded_at = None
        for n, text in enumerate(texts, 1):
            result = agent.run_turn(text)
            assert result.ok
            if result.compaction is not None and result.compaction.applied:
                folded_at = n
                break
        assert folded_at is not None and folded_at < len(texts), "window never folded"

        # Right after the fold: nothing smaller sent yet, but the next prompt is smaller.
        saving = history_saving(agent)
        assert saving.kept_out_so_far == 0 and saving.compactions == 1
        assert saving.kept_out_now > 0 and saving.shown_now < saving.whole_now
        text = footer(agent)
        assert "nothing kept out" not in text and "saving 0%" not in text
        assert f"where none would show {saving.whole_now}, {saving.kept_out_now} fewer" in text

        # One more turn: its two MathChat prompts left out what the fold took away.
        agent.run_turn(texts[folded_at])
        after = history_saving(agent)
        assert after.kept_out_so_far >= 2 * saving.kept_out_now
        text = footer(agent)
        match = re.search(
            r"Strategy window kept (\d+) history tokens out of the (\d+) MathChat", text
        )
        assert match, text
        assert int(match[1]) == after.kept_out_so_far > 0
        assert int(match[2]) == agent.model.ledger.count("MathChat")


def test_none_says_it_kept_nothing_out() -> None:
    texts, replies = questions(3)
    with scripted_agent(ScriptedModel(replies), "none") as (agent, _):
        for text in texts:
            agent.run_turn(text)
        saving = history_saving(agent)
        assert saving.kept_out_so_far == 0 and saving.kept_out_now == 0
        assert "Strategy none has sent the whole history so far" in footer(agent)
