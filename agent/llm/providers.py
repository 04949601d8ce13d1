"""Which OpenAI-compatible endpoint answers, from flags and the environment.

Resolution order: explicit flags (`--provider`, `--base-url`), then MATH_AGENT_PROVIDER, then
MATH_AGENT_BASE_URL, then OPENROUTER_API_KEY, then OPENAI_API_KEY, and last the embedded local
model (the optional `local` extra; its server starts in agent.runtime.process, not here, so resolving
stays cheap). `.env` is loaded here with python-dotenv (BAML never reads it), before the
first BAML call. The chosen endpoint is registered under the name of the `.baml` client,
`MathAgentLLM`, so every function uses it with the retry policy and timeouts defined here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from baml_py import ClientRegistry
from dotenv import load_dotenv

from agent.errors import AgentError
from agent.llm import token_choices

if TYPE_CHECKING:
    from agent.llm.step_schema import Wanted

CLIENT_NAME = "MathAgentLLM"
# The client name for small models: MathChat's prompt adds an example chat for it (it helps a
# 1.5B model, and a larger one does not need to pay for its tokens on every call).
SMALL_MODEL_CLIENT_NAME = "SmallModelLLM"
RETRY_POLICY = "MathAgentRetry"
OPENROUTER_URL = "https://openrouter.ai/api/v1"
OPENAI_URL = "https://api.openai.com/v1"
DEFAULT_MODELS = {"openrouter": "openai/gpt-4o-mini", "openai": "gpt-4o-mini", "custom": "default"}
CONNECT_TIMEOUT_MS = 5_000
REQUEST_TIMEOUT_MS = 120_000

NO_PROVIDER = (
    "No model endpoint is configured: set MATH_AGENT_BASE_URL (any OpenAI-compatible server), "
    "OPENROUTER_API_KEY or OPENAI_API_KEY in the environment or .env (see .env.example), or run "
    "`make chat`, which installs the embedded local model."
)
PROVIDER_CHOICES = ("auto", "local", "custom", "openrouter", "openai")
LOCAL_PENDING_URL = "(started on first use)"


@dataclass(frozen=True)
class Provider:
    name: str
    base_url: str
    model: str
    api_key: str | None = field(repr=False)  # never in a repr, a log line or a traceback
    source: str
    request_timeout_ms: int = REQUEST_TIMEOUT_MS
    retries: bool = True
    # Compaction strategy for this provider when --strategy is not given (None: the global one).
    default_strategy: str | None = None
    # Sent with every request when set (the small local model needs a cap).
    max_tokens: int | None = None
    temperature: float = 0
    # Known context window in tokens, for the banner and `doctor` (None: unknown).
    context_size: int | None = None
    # The endpoint errors should name when base_url is a local relay (--record): the upstream.
    upstream_url: str | None = None
    # Extra fields for every request body (e.g. llama.cpp's `cache_prompt`).
    request_fields: dict[str, object] = field(default_factory=dict)
    # Send MathChat's reply schema with each MathChat request, so that the endpoint decodes
    # only valid replies (llama.cpp and vLLM take it; hosted strict modes want another shape).
    constrained_steps: bool = False
    # Tools left out of that schema (by their `tool` literal): the model cannot call them.
    hidden_tools: tuple[str, ...] = ()
    # A small model (the embedded 1.5B one): the prompt shows it an example chat (see
    # SMALL_MODEL_CLIENT_NAME), and the agent turns on every `SmallModelAids` of its loop
    # (agent.core.loop): checks on its answers and tool calls, and the index of solved equations.
    small_model: bool = False

    @property
    def endpoint(self) -> str:
        return self.upstream_url or self.base_url

    @property
    def is_local(self) -> bool:
        return self.name == "local"

    def describe(self) -> str:
        if self.is_local:
            return f"local · {self.model} · {self.base_url} (embedded llama.cpp; {self.source})"
        return f"{self.name} · {self.model} · {self.base_url} (from {self.source})"

    def step_registry(self, wanted: Wanted = "any", repair: bool = False) -> ClientRegistry | None:
        """MathChat's registry when its requests need more than the others' (the schema of
        the reply `wanted`); None: the same as `client_registry()`. The embedded model is
        always held to a tool call when the loop wants one (free, it restated its answer), and
        held to the schema in a `repair` round: its free reply did not parse once already
        (a greeting answered with a `response` and no `tool`), and held it always writes a
        valid one."""
        held_locally = self.is_local and (repair or wanted == "tool")
        if not self.constrained_steps and not held_locally:
            return None
        from agent.llm.step_schema import local_grammar, response_format

        if self.is_local and (grammar := local_grammar(wanted, self.hidden_tools)) is not None:
            return self.client_registry({"grammar": grammar})
        schema = response_format(wanted, self.hidden_tools)
        return self.client_registry({"response_format": schema})

    def client_registry(self, extra_fields: dict[str, object] | None = None) -> ClientRegistry:
        options: dict[str, object] = {
            "base_url": self.base_url,
            "model": self.model,
            "temperature": self.temperature,
            "http": {
                "connect_timeout_ms": CONNECT_TIMEOUT_MS,
                "request_timeout_ms": self.request_timeout_ms,
            },
        }
        if self.max_tokens is not None:
            options["max_tokens"] = self.max_tokens
        options.update(self.request_fields)
        options.update(extra_fields or {})
        # openai-generic sends "Bearer <key>" only when a key is set; local servers need none.
        options["api_key"] = self.api_key or ""
        name = SMALL_MODEL_CLIENT_NAME if self.small_model else CLIENT_NAME
        registry = ClientRegistry()
        registry.add_llm_client(
            name,
            "openai-generic",
            options,
            retry_policy=RETRY_POLICY if self.retries else None,
        )
        registry.set_primary(name)
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
    provider: str | None = None,
) -> Provider:
    """The endpoint to use, or an AgentError that says what to set.

    `provider` (the --provider flag, else MATH_AGENT_PROVIDER) forces one kind: "local",
    "custom", "openrouter" or "openai"; "auto" or nothing keeps the resolution order.
    A hosted endpoint is asked for token probabilities (the runner-up) only when
    MATH_AGENT_RUNNER_UP says so, as the embedded model is: not every one accepts the fields.
    """
    found = _resolve(base_url, model, api_key, provider)
    if found.is_local or not token_choices.wanted():
        return found
    return replace(found, request_fields={**found.request_fields, **token_choices.request_fields()})


def _resolve(
    base_url: str | None, model: str | None, api_key: str | None, provider: str | None
) -> Provider:
    model = model or _env("MATH_AGENT_MODEL")
    timeout = int(_env("MATH_AGENT_TIMEOUT_MS") or REQUEST_TIMEOUT_MS)
    choice = (provider or _env("MATH_AGENT_PROVIDER") or "auto").lower()
    if choice not in PROVIDER_CHOICES:
        raise AgentError(
            f"Unknown provider '{choice}'; choose one of: {', '.join(PROVIDER_CHOICES)}."
        )
    if choice == "local":
        source = "--provider local" if provider else "MATH_AGENT_PROVIDER"
        return local_provider(source, fallback=False)
    if base_url and choice in ("auto", "custom"):
        key = api_key or _env("MATH_AGENT_API_KEY")
        return Provider(
            "custom", base_url, model or DEFAULT_MODELS["custom"], key, "--base-url", timeout
        )
    if choice in ("auto", "custom") and (url := _env("MATH_AGENT_BASE_URL")):
        key = api_key or _env("MATH_AGENT_API_KEY")
        return Provider(
            "custom", url, model or DEFAULT_MODELS["custom"], key, "MATH_AGENT_BASE_URL", timeout
        )
    if choice in ("auto", "openrouter") and (key := _env("OPENROUTER_API_KEY")):
        return Provider(
            "openrouter",
            OPENROUTER_URL,
            model or DEFAULT_MODELS["openrouter"],
            key,
            "OPENROUTER_API_KEY",
            timeout,
        )
    if choice in ("auto", "openai") and (key := _env("OPENAI_API_KEY")):
        return Provider(
            "openai", OPENAI_URL, model or DEFAULT_MODELS["openai"], key, "OPENAI_API_KEY", timeout
        )
    if choice != "auto":
        raise AgentError(
            f"--provider {choice} needs its setting: "
            + {
                "custom": "--base-url or MATH_AGENT_BASE_URL.",
                "openrouter": "OPENROUTER_API_KEY.",
                "openai": "OPENAI_API_KEY.",
            }[choice]
        )
    return local_provider("no other provider configured", fallback=True)


def local_provider(source: str, fallback: bool) -> Provider:
    """The embedded model, if the `local` extra and the model are there; else NO_PROVIDER.

    Cheap: nothing is assembled or started here (agent.runtime.process does that, with progress).
    """
    from agent.llm.local.launch import unavailable_reason
    from agent.llm.local.settings import LOCAL_MODEL, LOCAL_SETTINGS

    reason = unavailable_reason()
    if reason is not None:
        if fallback:
            raise AgentError(NO_PROVIDER)
        raise AgentError(
            f"The embedded local model cannot run: {reason}; run `make chat` (which installs "
            "it) or `pip install -e '.[local]'`."
        )
    settings = LOCAL_SETTINGS
    return Provider(
        "local",
        LOCAL_PENDING_URL,
        LOCAL_MODEL.name,
        None,
        source,
        settings.request_timeout_ms,
        # A retry would re-read the whole prompt on a CPU: fail fast with one sentence instead.
        retries=False,
        default_strategy=settings.default_strategy,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        context_size=settings.context_size,
        request_fields=settings.request_fields(),
        constrained_steps=settings.constrained_steps,
        hidden_tools=settings.hidden_tools,
        small_model=True,
    )
