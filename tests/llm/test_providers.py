"""Provider resolution order and the one-sentence error when nothing is configured."""

from __future__ import annotations

import os

import pytest

from agent.errors import AgentError
from agent.llm.providers import NO_PROVIDER, OPENAI_URL, OPENROUTER_URL, load_env, resolve_provider


def test_nothing_configured_says_what_to_set(monkeypatch: pytest.MonkeyPatch) -> None:
    # With the `local` extra installed the embedded model is the fallback; turn it off here.
    monkeypatch.setenv("MATH_AGENT_LOCAL", "0")
    with pytest.raises(AgentError) as info:
        resolve_provider()
    assert info.value.message == NO_PROVIDER
    assert "MATH_AGENT_BASE_URL" in NO_PROVIDER and "OPENROUTER_API_KEY" in NO_PROVIDER


def test_base_url_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATH_AGENT_BASE_URL", "http://127.0.0.1:8080/v1")
    monkeypatch.setenv("MATH_AGENT_API_KEY", "k")
    monkeypatch.setenv("MATH_AGENT_MODEL", "qwen")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-other")
    provider = resolve_provider()
    assert (provider.name, provider.base_url, provider.model, provider.api_key) == (
        "custom",
        "http://127.0.0.1:8080/v1",
        "qwen",
        "k",
    )


def test_flag_beats_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATH_AGENT_BASE_URL", "http://127.0.0.1:8080/v1")
    provider = resolve_provider(base_url="http://127.0.0.1:9999/v1", model="m")
    assert provider.base_url == "http://127.0.0.1:9999/v1" and provider.source == "--base-url"


def test_openrouter_then_openai(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    assert resolve_provider().base_url == OPENAI_URL
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or")
    provider = resolve_provider()
    assert provider.base_url == OPENROUTER_URL and provider.model == "openai/gpt-4o-mini"


def test_describe_never_shows_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    assert "sk-secret-value" not in resolve_provider().describe()


def test_dotenv_is_loaded_without_overriding(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "MATH_AGENT_BASE_URL=http://127.0.0.1:1234/v1\nMATH_AGENT_MODEL=from-file\n"
    )
    monkeypatch.setenv("MATH_AGENT_MODEL", "from-env")
    try:
        load_env(env_file)
        provider = resolve_provider()
    finally:
        os.environ.pop("MATH_AGENT_BASE_URL", None)
    assert provider.base_url == "http://127.0.0.1:1234/v1" and provider.model == "from-env"


def test_a_hosted_endpoint_is_asked_for_token_probabilities_only_when_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MATH_AGENT_BASE_URL", "http://127.0.0.1:8080/v1")
    monkeypatch.delenv("MATH_AGENT_RUNNER_UP", raising=False)
    assert "logprobs" not in resolve_provider().request_fields
    monkeypatch.setenv("MATH_AGENT_RUNNER_UP", "1")
    fields = resolve_provider().request_fields
    assert fields["logprobs"] is True and fields["top_logprobs"] == 4


def test_the_embedded_model_is_asked_for_them_only_when_told(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agent.llm.local.settings import GenerationSettings

    monkeypatch.delenv("MATH_AGENT_RUNNER_UP", raising=False)
    assert "logprobs" not in GenerationSettings().request_fields()
    monkeypatch.setenv("MATH_AGENT_RUNNER_UP", "1")
    assert GenerationSettings().request_fields()["logprobs"] is True


def test_the_model_reads_token_probabilities_only_where_its_provider_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agent.llm.model import BamlMathModel

    monkeypatch.setenv("MATH_AGENT_BASE_URL", "http://127.0.0.1:8080/v1")
    monkeypatch.delenv("MATH_AGENT_RUNNER_UP", raising=False)
    model = BamlMathModel.for_provider(resolve_provider())
    assert not model.reads_token_choices
    monkeypatch.setenv("MATH_AGENT_RUNNER_UP", "1")
    model.use_provider(resolve_provider())
    assert model.reads_token_choices
