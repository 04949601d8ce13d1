"""Which OpenAI-compatible endpoint answers, from flags and the environment.

Resolution order: explicit flags, then MATH_AGENT_BASE_URL, then OPENROUTER_API_KEY, then
OPENAI_API_KEY. `.env` is loaded here with python-dotenv (BAML never reads it), before the
first BAML call. The chosen endpoint is registered under the name of the `.baml` client,
`MathAgentLLM`, so every function uses it with the retry policy and timeouts defined here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from baml_py import ClientRegistry
from dotenv import load_dotenv

from agent.errors import AgentError

CLIENT_NAME = "MathAgentLLM"
RETRY_POLICY = "MathAgentRetry"
OPENROUTER_URL = "https://openrouter.ai/api/v1"
OPENAI_URL = "https://api.openai.com/v1"
DEFAULT_MODELS = {"openrouter": "openai/gpt-4o-mini", "openai": "gpt-4o-mini", "custom": "default"}
CONNECT_TIMEOUT_MS = 5_000
REQUEST_TIMEOUT_MS = 120_000

NO_PROVIDER = (
    "No model endpoint is configured: set MATH_AGENT_BASE_URL (any OpenAI-compatible server), "
    "OPENROUTER_API_KEY or OPENAI_API_KEY, in the environment or in .env (see .env.example)."
)


@dataclass(frozen=True)
class Provider:
    name: str
    base_url: str
    model: str
    api_key: str | None
    source: str
    request_timeout_ms: int = REQUEST_TIMEOUT_MS
    retries: bool = True

    def describe(self) -> str:
        return f"{self.name} · {self.model} · {self.base_url} (from {self.source})"

    def client_registry(self) -> ClientRegistry:
        options: dict[str, object] = {
            "base_url": self.base_url,
            "model": self.model,
            "temperature": 0,
            "http": {
                "connect_timeout_ms": CONNECT_TIMEOUT_MS,
                "request_timeout_ms": self.request_timeout_ms,
            },
        }
        # openai-generic sends "Bearer <key>" only when a key is set; local servers need none.
        options["api_key"] = self.api_key or ""
        registry = ClientRegistry()
        registry.add_llm_client(
            CLIENT_NAME,
            "openai-generic",
            options,
            retry_policy=RETRY_POLICY if self.retries else None,
        )
        registry.set_primary(CLIENT_NAME)
        return registry


def load_env(path: Path | None = None) -> None:
    """Load .env without overriding real variables.

    MATH_AGENT_ENV_FILE names the file; otherwise ./.env, then the project root's .env.
    """
    if path is None and (named := _env("MATH_AGENT_ENV_FILE")):
        path = Path(named)
    candidates = (
        [path] if path is not None else [Path.cwd() / ".env", Path(__file__).parents[1] / ".env"]
    )
    for candidate in candidates:
        if candidate.is_file():
            load_dotenv(candidate, override=False)


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def resolve_provider(
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
) -> Provider:
    """The endpoint to use, or an AgentError that says what to set."""
    model = model or _env("MATH_AGENT_MODEL")
    timeout = int(_env("MATH_AGENT_TIMEOUT_MS") or REQUEST_TIMEOUT_MS)
    if base_url:
        key = api_key or _env("MATH_AGENT_API_KEY")
        return Provider(
            "custom", base_url, model or DEFAULT_MODELS["custom"], key, "--base-url", timeout
        )
    if url := _env("MATH_AGENT_BASE_URL"):
        key = api_key or _env("MATH_AGENT_API_KEY")
        return Provider(
            "custom", url, model or DEFAULT_MODELS["custom"], key, "MATH_AGENT_BASE_URL", timeout
        )
    if key := _env("OPENROUTER_API_KEY"):
        return Provider(
            "openrouter",
            OPENROUTER_URL,
            model or DEFAULT_MODELS["openrouter"],
            key,
            "OPENROUTER_API_KEY",
            timeout,
        )
    if key := _env("OPENAI_API_KEY"):
        return Provider(
            "openai", OPENAI_URL, model or DEFAULT_MODELS["openai"], key, "OPENAI_API_KEY", timeout
        )
    raise AgentError(NO_PROVIDER)
