"""One session, two fronts: started in the REPL, continued through the service, and back in
the REPL; the same store, workspace ids and transcript throughout. While a REPL has the
session open, the service answers 409."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agent.testing.seed import SEED_QUESTIONS
from tests.service.conftest import make_service
from tests.support.service import ROOT, clean_env, events, named


def repl(model_url: str, db: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "agent.app.cli", "chat", "--session", "shared",
         "--base-url", model_url, "--strategy", "none"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT, env=clean_env(MATH_AGENT_DB=str(db), BAML_LOG="error"),
    )  # fmt: skip


def test_a_session_goes_from_the_repl_to_the_service_and_back(seed_model, tmp_path: Path):
    db = tmp_path / "shared.sqlite3"
    first = repl(seed_model.base_url, db)
    out, err = first.communicate(SEED_QUESTIONS[0] + "\n", timeout=120)
    assert first.returncode == 0, err
    assert out.strip() == "The roots are x = -3 and x = -2."

    service, runtime, hub = make_service(seed_model.base_url, db, tokens=False)
    with service.client as client:
        listed = client.get("/api/sessions").json()["sessions"]
        assert [s["id"] for s in listed] == ["shared"] and listed[0]["turns"] == 1
        found = events(
            client.post("/api/sessions/shared/messages", json={"text": SEED_QUESTIONS[1]}).text
        )
        # The model pointed at the REPL's equation by its workspace id (#1).
        assert named(found, "tool_call")[0]["arguments"]["expression"] == "#1"
        assert named(found, "answer")[0]["text"] == "The derivative is 2*x + 5."

        # A REPL that has the session open holds it: the service says 409 meanwhile.
        holder = repl(seed_model.base_url, db)
        holder.stdin.write(SEED_QUESTIONS[2] + "\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "The squares of the roots are 9 and 4."
        busy = client.post("/api/sessions/shared/messages", json={"text": "solve x = 2"})
        assert busy.status_code == 409
        holder.stdin.close()
        holder.wait(60)
        assert holder.returncode == 0

        entries = client.get("/api/sessions/shared/transcript").json()["entries"]
        users = [e["text"] for e in entries if e["kind"] == "user"]
        assert users == list(SEED_QUESTIONS)
        workspace = client.get("/api/sessions/shared/workspace").json()
        assert [i["id"] for i in workspace["items"]] == ["#1", "#2", "#3", "#4"]
    hub.close()
    runtime.close()
