"""Who may read what, and what a request may cost: tokens, owners, size caps, the rate
limit, CORS; hostile inputs; and no secret in any log line or error body."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from agent.service.auth import ConfigError, Users, is_loopback, parse_tokens
from tests.service.conftest import Service, make_service
from tests.support.hostile_inputs import CASES
from tests.support.service import TOKENS, auth, events, named

ALICE, BOB = auth("alice"), auth("bob")
SQL_LIKE = "'; DROP TABLE sessions; --"


def alice_session(service: Service, **body: str) -> str:
    return service.client.post("/api/sessions", json=body, headers=ALICE).json()["id"]


def error(response) -> dict[str, str]:
    return response.json()["error"]


def test_no_token_is_401_and_a_wrong_one_too(service: Service):
    for headers in (
        {},
        {"Authorization": "Bearer not-a-token-of-anyone"},
        {"Authorization": "Basic x"},
    ):
        response = service.client.get("/api/sessions", headers=headers)
        assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"
        assert error(response)["code"] == "unauthorized"
    assert service.client.get("/api/health").status_code == 200  # no token needed


def test_another_users_session_is_404_like_one_that_does_not_exist(service: Service):
    session = alice_session(service)
    for method, path in (
        ("GET", f"/api/sessions/{session}"),
        ("GET", f"/api/sessions/{session}/transcript"),
        ("GET", f"/api/sessions/{session}/workspace"),
        ("GET", f"/api/sessions/{session}/tokens"),
        ("GET", f"/api/sessions/{session}/export.md"),
        ("PATCH", f"/api/sessions/{session}"),
        ("DELETE", f"/api/sessions/{session}"),
        ("POST", f"/api/sessions/{session}/messages"),
    ):
        body = (
            {"text": "solve x = 1"}
            if method == "POST"
            else ({"title": "x"} if method == "PATCH" else None)
        )
        theirs = service.client.request(method, path, json=body, headers=BOB)
        missing = service.client.request(
            method, path.replace(session, "no-such-session"), json=body, headers=ALICE
        )
        assert theirs.status_code == missing.status_code == 404, (method, path)
        assert theirs.json() == missing.json()
    assert service.client.get("/api/sessions", headers=BOB).json()["sessions"] == []
    assert service.client.get(f"/api/sessions/{session}", headers=ALICE).status_code == 200


def test_bodies_and_messages_over_their_caps_are_413_with_a_sentence(service: Service):
    session = alice_session(service)
    huge = service.client.post(
        f"/api/sessions/{session}/messages", content=b"x" * 200_000,
        headers={**ALICE, "Content-Type": "application/json"},
    )  # fmt: skip
    assert huge.status_code == 413 and error(huge)["code"] == "body_too_large"

    def chunks():
        for _ in range(100):
            yield b"y" * 10_000

    streamed = service.client.post(
        f"/api/sessions/{session}/messages", content=chunks(),
        headers={**ALICE, "Content-Type": "application/json"},
    )  # fmt: skip
    assert streamed.status_code == 413
    long = service.client.post(
        f"/api/sessions/{session}/messages", json={"text": "1+" * 15_000}, headers=ALICE
    )
    assert long.status_code == 413 and error(long)["code"] == "message_too_long"
    assert error(long)["message"].startswith("That message is 30,000 characters long")


def test_bad_json_unknown_fields_and_wrong_types_are_refused_clearly(service: Service):
    session = alice_session(service)
    url = f"/api/sessions/{session}/messages"
    bad = service.client.post(
        url, content=b"{not json", headers={**ALICE, "Content-Type": "application/json"}
    )
    assert bad.status_code == 400 and error(bad) == {
        "code": "bad_json", "message": "The request body is not valid JSON."
    }  # fmt: skip
    extra = service.client.post(url, json={"text": "hi", "role": "system"}, headers=ALICE)
    assert extra.status_code == 422 and "role is not a field" in error(extra)["message"]
    typed = service.client.post(url, json={"text": ["a"]}, headers=ALICE)
    assert typed.status_code == 422
    empty = service.client.post(url, json={"text": "   "}, headers=ALICE)
    assert empty.status_code == 422
    title = service.client.post("/api/sessions", json={"title": "t" * 201}, headers=ALICE)
    assert title.status_code == 422


@pytest.mark.parametrize(
    "path",
    [
        "/api/sessions/..%2F..%2Fetc%2Fpasswd",
        "/api/sessions/%2e%2e/transcript",
        "/api/sessions/../../etc/passwd",
        "/api/sessions/%00",
        "/static/../app.py",
        "/static/%2e%2e/hub.py",
        f"/api/sessions/{SQL_LIKE}",
    ],
)
def test_path_tricks_find_nothing(service: Service, path: str):
    response = service.client.get(path, headers=ALICE)
    assert response.status_code == 404, (path, response.text[:200])
    assert "import" not in response.text


def test_sql_looking_titles_are_kept_as_text(service: Service):
    session = alice_session(service, title=SQL_LIKE)
    assert service.client.get(f"/api/sessions/{session}", headers=ALICE).json()["title"] == SQL_LIKE
    assert (
        service.client.patch(
            f"/api/sessions/{session}", json={"title": SQL_LIKE + "2"}, headers=ALICE
        ).status_code
        == 200
    )
    assert len(service.client.get("/api/sessions", headers=ALICE).json()["sessions"]) == 1


@pytest.mark.parametrize("case", [c for c in CASES if "code" in c.tags][:12], ids=lambda c: c.name)
def test_hostile_messages_run_nothing_and_get_an_answer(service: Service, case, tmp_path: Path):
    marker = tmp_path / "pwned"
    hostile = case.with_marker(str(marker))
    payload = next(iter(hostile.args.values()))
    session = alice_session(service, strategy="none")
    response = service.client.post(
        f"/api/sessions/{session}/messages", json={"text": f"solve {payload}"}, headers=ALICE
    )
    assert response.status_code == 200
    found = events(response.text)
    assert named(found, "done") and (named(found, "answer") or named(found, "error"))
    assert not marker.exists()


def test_the_rate_limit_is_per_token_with_retry_after(seed_model, tmp_path: Path):
    made, runtime, hub = make_service(seed_model.base_url, tmp_path / "r.sqlite3", rate="3/minute")
    with made.client as client:
        codes = [client.get("/api/sessions", headers=ALICE).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        limited = client.get("/api/sessions", headers=ALICE)
        assert limited.status_code == 429 and 1 <= int(limited.headers["retry-after"]) <= 60
        assert error(limited)["code"] == "rate_limited"
        assert client.get("/api/sessions", headers=BOB).status_code == 200  # bob has his own
    hub.close()
    runtime.close()


def test_cors_is_off_unless_configured(service: Service, seed_model, tmp_path: Path):
    asked = {"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "GET"}
    assert (
        "access-control-allow-origin"
        not in service.client.options("/api/sessions", headers=asked).headers
    )
    made, runtime, hub = make_service(
        seed_model.base_url, tmp_path / "c.sqlite3", cors=("https://elsewhere.example",)
    )
    with made.client as client:
        allowed = client.options(
            "/api/sessions", headers={**asked, "Access-Control-Request-Headers": "authorization"}
        )
        assert allowed.headers["access-control-allow-origin"] == "https://elsewhere.example"
    hub.close()
    runtime.close()


def test_no_secret_or_message_text_in_logs_or_error_bodies(service: Service, caplog):
    caplog.set_level(logging.INFO, logger="math_agent.service")
    bodies = []
    session = alice_session(service)
    secret_text = "solve x^2 - 49 = 0"
    bodies.append(
        service.client.post(
            f"/api/sessions/{session}/messages", json={"text": secret_text}, headers=ALICE
        ).text
    )
    for headers in ({"Authorization": f"Bearer {TOKENS['alice']}x"}, BOB):
        bodies.append(service.client.get(f"/api/sessions/{session}", headers=headers).text)
    from agent.service.logs import JsonLines

    logged = "\n".join(JsonLines().format(record) for record in caplog.records)
    assert '"event": "turn"' in logged and '"event": "request"' in logged
    for secret in (*TOKENS.values(), secret_text, "x^2 - 49", "x = -7"):
        assert secret not in logged, secret
        assert all(secret not in body for body in bodies[1:]), secret


def test_tokens_are_parsed_and_weak_ones_refused(tmp_path: Path, monkeypatch):
    assert parse_tokens(["alice:" + "a" * 16, "b" * 20, "# comment", ""])["a" * 16] == "alice"
    with pytest.raises(ConfigError, match="shorter than 16"):
        parse_tokens(["alice:short"])
    with pytest.raises(ConfigError, match="user name"):
        parse_tokens(["ali!ce:" + "a" * 20])
    file = tmp_path / "tokens"
    file.write_text("carol " + "c" * 20 + "\n")
    monkeypatch.setenv("MATH_AGENT_TOKENS_FILE", str(file))
    monkeypatch.setenv("MATH_AGENT_TOKENS", "dave:" + "d" * 20)
    users = Users.from_environment()
    assert (
        users.authenticate("c" * 20).name == "carol" and users.authenticate("d" * 20).name == "dave"
    )
    assert users.authenticate("e" * 20) is None and not users.open
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")


def test_serve_refuses_to_start_in_one_sentence_and_names_its_store(seed_model, tmp_path: Path):
    import subprocess
    import sys

    from tests.support.service import ROOT, clean_env

    def serve(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "agent.app.cli", "serve", "--base-url", seed_model.base_url, *args],
            capture_output=True, text=True, cwd=ROOT, env=clean_env(**env), timeout=60,
        )  # fmt: skip

    down = serve(MATH_AGENT_DATABASE_URL="postgresql://u:secretpw@127.0.0.1:9/x")
    assert down.returncode == 2 and down.stdout == ""
    assert down.stderr.startswith(
        "The session database postgresql://u:***@127.0.0.1:9/x is unreachable"
    )
    assert "secretpw" not in down.stderr and down.stderr.count("\n") == 1
    open_to_all = serve("--host", "0.0.0.0")
    assert open_to_all.returncode == 2
    assert open_to_all.stderr.strip() == (
        "Listening on 0.0.0.0 needs tokens: set MATH_AGENT_TOKENS (or MATH_AGENT_TOKENS_FILE), "
        "or keep the default --host 127.0.0.1."
    )
    weak = serve(MATH_AGENT_TOKENS="alice:short")
    assert weak.returncode == 2 and "shorter than 16" in weak.stderr
