"""Turn any LLM-side failure into one sentence a person can act on."""

from __future__ import annotations

from baml_py.errors import (
    BamlAbortError,
    BamlClientHttpError,
    BamlError,
    BamlTimeoutError,
    BamlValidationError,
)


class AgentError(Exception):
    """A failure the REPL shows as one sentence; the conversation stays intact."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TurnCancelled(AgentError):
    def __init__(self) -> None:
        super().__init__("Cancelled; the conversation is as it was before that message.")


KEY_HINT = "set MATH_AGENT_API_KEY (or OPENROUTER_API_KEY / OPENAI_API_KEY) in .env"


def explain_llm_error(exc: BaseException, endpoint: str) -> AgentError:
    """Map a BAML exception to an AgentError with a one-sentence explanation."""
    if isinstance(exc, AgentError):
        return exc
    if isinstance(exc, BamlAbortError):
        return TurnCancelled()
    if isinstance(exc, BamlTimeoutError):
        return AgentError(
            f"The model endpoint {endpoint} did not answer in time; try again, or point "
            "MATH_AGENT_BASE_URL at a faster server."
        )
    if isinstance(exc, BamlValidationError):
        raw = " ".join((getattr(exc, "raw_output", "") or "").split())
        excerpt = f' (it said: "{raw[:120]}")' if raw else ""
        return AgentError(
            f"The model's reply was not a valid tool call or message{excerpt}; "
            "nothing was changed, so you can ask again or rephrase."
        )
    if isinstance(exc, BamlClientHttpError):
        status = getattr(exc, "status_code", None)
        text = str(exc)
        if "replay_miss" in text:
            return AgentError(
                "The replay cassette has no recording of this request (a prompt or the "
                "conversation changed); re-record it with --record against a real endpoint."
            )
        if status in (401, 403):
            return AgentError(f"The model endpoint {endpoint} refused the API key: {KEY_HINT}.")
        if status == 429:
            return AgentError(
                f"The model endpoint {endpoint} is rate-limiting requests; wait a moment "
                "and try again."
            )
        if status == 503 and ("connect" in text.lower() or "refused" in text.lower()):
            return AgentError(
                f"Could not reach the model endpoint {endpoint}: start that server or set "
                "MATH_AGENT_BASE_URL to a reachable OpenAI-compatible endpoint."
            )
        if status == 404:
            return AgentError(
                f"The model endpoint {endpoint} answered 404: check MATH_AGENT_BASE_URL "
                "(it usually ends in /v1) and MATH_AGENT_MODEL."
            )
        return AgentError(f"The model endpoint {endpoint} failed (HTTP {status}); try again.")
    if isinstance(exc, BamlError):
        text = str(exc)
        if "environment variable" in text.lower() or "env." in text:
            return AgentError(f"A provider setting is missing: {KEY_HINT}.")
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return AgentError(f"The model call failed: {first[:200]}")
    return AgentError(f"Unexpected error talking to the model: {type(exc).__name__}: {exc}")
