"""A run saved with --out is judged again by today's judge, without a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.app.evaluate import main
from agent.eval.generate import make_cases
from agent.eval.rejudge import RunMismatch, rejudged
from agent.eval.runner import TurnOutcome


def _saved(reply: str, ok: bool, text: str | None = None) -> dict[str, object]:
    case = make_cases("sessions", "dev", 1)[0]
    turn = case.turns[0]
    outcome = TurnOutcome(
        set="sessions", case=case.name, category=case.category, wording=case.wording,
        strategy="window", turn=1, text=turn.text if text is None else text, judged=True,
        depends=turn.depends, ok=ok, why="old verdict", reply=reply, asked_back=False,
        error=None, tool_steps=1, llm_calls=2, repairs=0, seconds=1.0, input_tokens=10,
        output_tokens=5, tool_error_shown=False, invalid_reply_shown=False, calls=("solve",),
    )  # fmt: skip
    return {"part": "dev", "seeds": [1], "figures": [], "turns": [outcome.to_dict()]}


def test_each_saved_reply_gets_today_s_verdict() -> None:
    case = make_cases("sessions", "dev", 1)[0]
    expected = case.turns[0].expected
    assert expected is not None and expected.kind == "roots"
    right = "The roots are " + ", ".join(f"{expected.variable} = {a}" for a in expected.answers)
    (again,) = rejudged(_saved(right, ok=False))
    assert again.ok and again.why != "old verdict" and again.calls == ("solve",)
    (again,) = rejudged(_saved("I could not solve it.", ok=True))
    assert not again.ok


def test_a_run_of_other_cases_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(RunMismatch):
        rejudged(_saved("x = 1", ok=True, text="a request nobody drew"))
    run = tmp_path / "run.json"
    run.write_text(json.dumps(_saved("x = 1", ok=True, text="another request")), "utf-8")
    assert main(["--rejudge", str(run)]) == 2
    assert "Cannot judge" in capsys.readouterr().err


def test_the_command_prints_and_writes_the_new_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, out = tmp_path / "run.json", tmp_path / "again.json"
    run.write_text(json.dumps(_saved("I could not solve it.", ok=True)), "utf-8")
    assert main(["--rejudge", str(run), "--json", "--out", str(out)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["changed"] == 1 and printed["figures"][0]["right"] == 0
    written = json.loads(out.read_text("utf-8"))
    assert written["rejudged"] and not written["turns"][0]["ok"] and "gate" not in written
