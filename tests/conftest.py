"""Shared test setup: quiet BAML, hermetic provider environment, scripted model fakes."""

from __future__ import annotations

import os

os.environ.setdefault("BAML_LOG", "warn")
os.environ.pop("RUST_BACKTRACE", None)

import pytest

PROVIDER_VARIABLES = (
    "MATH_AGENT_BASE_URL",
    "MATH_AGENT_API_KEY",
    "MATH_AGENT_MODEL",
    "MATH_AGENT_TIMEOUT_MS",
    "MATH_AGENT_DB",
    "OPENROUTER_API_KEY",
    "OPENAI_API_KEY",
    "MATH_AGENT_PROVIDER",
    "MATH_AGENT_LOCAL_THREADS",
)


@pytest.fixture(autouse=True)
def hermetic_environment(monkeypatch: pytest.MonkeyPatch, tmp_path_factory) -> None:
    """No test may reach a real provider or read the developer's .env or REPL history."""
    for name in PROVIDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
    # Never fall back to the embedded model (1.1 GB, minutes per test); live tests opt in.
    monkeypatch.setenv("MATH_AGENT_LOCAL", "0")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data")))
    monkeypatch.delenv("MATH_AGENT_DB", raising=False)
    monkeypatch.setattr("agent.llm.providers.load_env", lambda path=None: None)


from tests.support.databases import postgres_server, postgres_url  # noqa: E402,F401 (fixtures)
