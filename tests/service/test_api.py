"""The API through the real runtime, store and agent loop: sessions, a turn as events, the
transcript, workspace, ledger and export, idempotent retries, a busy session, a client that
leaves mid-turn."""

from __future__ import annotations

import time

from agent.testing.seed import SEED_QUESTIONS
from tests.service.conftest import Service
from tests.support.service import auth, events, named

ALICE = auth("alice")


def new_session(service: Service, **body: str) -> str:
    response = service.client.post("/api/sessions", json=body, headers=ALICE)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def send(service: Service, session: str, text: str, **headers: str):
    response = service.client.post(
        f"/api/sessions/{session}/messages", json={"text": text}, headers={**ALICE, **headers}
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return events(response.text)


def test_sessions_are_created_listed_renamed_given_a_strategy_and_deleted(service: Service):
    first = new_session(service, title="Homework")
    second = new_session(service)
    listed = service.client.get("/api/sessions", headers=ALICE).json()["sessions"]
    assert {s["id"] for s in listed} == {first, second}
    changed = service.client.patch(
        f"/api/sessions/{first}", json={"title": "Quadratics", "strategy": "window"}, headers=ALICE
    )
    assert changed.status_code == 200, changed.text
    assert (changed.json()["title"], changed.json()["strategy"]) == ("Quadratics", "window")
    unknown = service.client.patch(f"/api/sessions/{first}", json={"strategy": "x"}, headers=ALICE)
    assert unknown.status_code == 422 and "x" in unknown.json()["error"]["message"]
    assert service.client.delete(f"/api/sessions/{second}", headers=ALICE).status_code == 204
    assert service.client.get(f"/api/sessions/{second}", headers=ALICE).status_code == 404
    listed = service.client.get("/api/sessions", headers=ALICE).json()["sessions"]
    assert [s["id"] for s in listed] == [first]


def test_a_turn_streams_tool_calls_results_the_answer_and_done(service: Service):
    session = new_session(service)
    found = send(service, session, SEED_QUESTIONS[0])
    kinds = [event for event, _ in found]
    assert kinds[:2] == ["tool_call", "tool_result"] and kinds[-2:] == ["answer", "done"]
    assert "answer_delta" in kinds
    (call,) = named(found, "tool_call")
    (result,) = named(found, "tool_result")
    assert call["tool"] == "solve" and result["item"] == "#2" and result["values"] == ["-3", "-2"]
    (answer,) = named(found, "answer")
    assert answer["text"] == "The roots are x = -3 and x = -2."
    maths = [s["text"] for s in answer["segments"] if "math" in s]
    assert maths == ["x = -3", "x = -2"]
    assert all(s["math"].startswith("<math xmlns=") for s in answer["segments"] if "math" in s)
    streamed = "".join(d["text"] for d in named(found, "answer_delta"))
    assert streamed == answer["text"]
    (done,) = named(found, "done")
    assert done["ok"] and done["saved"] and done["turn"] == 1 and done["llm_calls"] == 2
    assert done["input_tokens"] > 0 and done["output_tokens"] > 0
    assert done["seconds"] >= done["model_seconds"] > 0


def test_the_seed_conversation_transcript_workspace_ledger_and_export(service: Service):
    session = new_session(service)
    answers = [named(send(service, session, q), "answer")[0]["text"] for q in SEED_QUESTIONS]
    assert answers == [
        "The roots are x = -3 and x = -2.",
        "The derivative is 2*x + 5.",
        "The squares of the roots are 9 and 4.",
    ]
    entries = service.client.get(f"/api/sessions/{session}/transcript", headers=ALICE).json()
    kinds = [e["kind"] for e in entries["entries"] if e["kind"] not in ("summary", "compaction")]
    assert kinds == ["user", "tool_call", "tool_result", "assistant"] * 3
    workspace = service.client.get(f"/api/sessions/{session}/workspace", headers=ALICE).json()
    assert [i["id"] for i in workspace["items"]] == ["#1", "#2", "#3", "#4"]
    assert workspace["items"][1]["math"] == "x = -3, x = -2"
    ledger = service.client.get(f"/api/sessions/{session}/tokens", headers=ALICE).json()
    assert ledger["llm_calls"] == 6 and [t["turn"] for t in ledger["by_turn"]] == [1, 2, 3]
    assert ledger["by_function"]["MathChat"]["calls"] == 6
    exported = service.client.get(f"/api/sessions/{session}/export.md", headers=ALICE)
    assert exported.headers["content-type"].startswith("text/markdown")
    assert f"# math-agent session: {session}" in exported.text
    assert "The squares of the roots are 9 and 4." in exported.text
    info = service.client.get(f"/api/sessions/{session}", headers=ALICE).json()
    assert info["turns"] == 3 and info["input_tokens"] == ledger["input_tokens"]


def test_a_retried_message_with_its_idempotency_key_is_answered_once(service: Service):
    session = new_session(service)
    first = send(service, session, SEED_QUESTIONS[0], **{"Idempotency-Key": "k-1"})
    again = send(service, session, SEED_QUESTIONS[0], **{"Idempotency-Key": "k-1"})
    assert named(again, "answer") == named(first, "answer")
    assert named(again, "done")[0]["replayed"] is True
    entries = service.client.get(f"/api/sessions/{session}/transcript", headers=ALICE).json()
    assert [e["kind"] for e in entries["entries"]].count("user") == 1
    bad = service.client.post(
        f"/api/sessions/{session}/messages",
        json={"text": "hi"},
        headers={**ALICE, "Idempotency-Key": "no spaces allowed"},
    )
    assert bad.status_code == 422


def test_a_second_message_to_a_busy_session_gets_409_in_one_sentence(service: Service):
    session = new_session(service)
    held = service.runtime.store.lock(session)  # as a turn running elsewhere holds it
    try:
        response = service.client.post(
            f"/api/sessions/{session}/messages", json={"text": "solve x = 1"}, headers=ALICE
        )
        assert response.status_code == 409
        error = response.json()["error"]
        assert error["code"] == "session_busy" and error["message"].count(". ") == 0
        refused = service.client.patch(
            f"/api/sessions/{session}", json={"strategy": "none"}, headers=ALICE
        )
        assert refused.status_code == 409
    finally:
        held.release()
    assert named(send(service, session, "solve x = 1"), "done")[0]["ok"]


def test_a_client_that_leaves_mid_turn_loses_nothing(service: Service):
    session = new_session(service, strategy="none")
    with service.client.stream(
        "POST", f"/api/sessions/{session}/messages", json={"text": SEED_QUESTIONS[0]},
        headers=ALICE,
    ) as response:  # fmt: skip
        assert response.status_code == 200
        next(response.iter_lines())  # the first event arrived; now the client goes away
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        entries = service.client.get(f"/api/sessions/{session}/transcript", headers=ALICE).json()
        if [e["kind"] for e in entries["entries"]][-1:] == ["assistant"]:
            break
        time.sleep(0.1)
    assert entries["entries"][-1]["text"] == "The roots are x = -3 and x = -2."
    assert named(send(service, session, SEED_QUESTIONS[1]), "done")[0]["ok"]


def test_a_plot_message_comes_back_as_an_image(service: Service):
    session = new_session(service)
    send(service, session, SEED_QUESTIONS[0])
    found = send(service, session, "plot x^2 + 5x + 6 from -4 to 0")
    (plot,) = named(found, "plot")
    assert plot["image"].startswith("data:image/png;base64,")
    image = service.client.get(
        f"/api/sessions/{session}/plot.png", params={"request": "#1 from -4 to 0"}, headers=ALICE
    )
    assert image.status_code == 200 and image.content.startswith(b"\x89PNG")
    bad = service.client.get(
        f"/api/sessions/{session}/plot.png", params={"request": "#99"}, headers=ALICE
    )
    assert bad.status_code == 422


def test_the_openapi_schema_and_the_page_are_served(service: Service):
    schema = service.client.get("/api/openapi.json").json()
    assert "/api/sessions/{session_id}/messages" in schema["paths"]
    assert schema["components"]["securitySchemes"]
    page = service.client.get("/")
    assert page.status_code == 200 and '<script src="/static/app.js"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.replace("http-equiv", "")  # nothing loaded from elsewhere
    assert service.client.get("/static/app.js").status_code == 200
    assert service.client.get("/docs").status_code == 404  # the CDN-loaded docs are off
