"""Turn any LLM-side failure into one sentence a person can act on."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit, urlunsplit

from baml_py.errors import (
    BamlAbortError,
    BamlClientFinishReasonError,
    BamlClientHttpError,
    BamlError,
    BamlTimeoutError,
    BamlValidationError,
)


class AgentError(Exception):
    """A failure the REPL shows as one sentence; the conversation stays intact. `kind` names
    it for programs (the service's error events, its logs): model_unreachable, model_timeout,
    model_rate_limited, model_auth, model_rejected, malformed_reply, cancelled, model_error."""

    kind = "model_error"

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind


class MalformedReply(AgentError):
    """The model answered, but not with a valid tool call or message; `raw` is what it said
    (the model is shown it once, with a request to answer again, before the user is told)."""

    kind = "malformed_reply"

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


class TurnCancelled(AgentError):
    kind = "cancelled"

    def __init__(self) -> None:
        super().__init__("Cancelled; the conversation is as it was before that message.")


KEY_HINT = "set MATH_AGENT_API_KEY (or OPENROUTER_API_KEY / OPENAI_API_KEY) in .env"
# Anything that looks like a credential is cut out of text quoted from a server or model.
_SECRET = re.compile(r"(?i)\b(?:sk|pk|rk)-[A-Za-z0-9_\-]{8,}|\bbearer\s+\S+")


def _quote(text: str, limit: int = 120) -> str:
    """One line of untrusted text, bounded, with key-like tokens redacted."""
    flat = _SECRET.sub("[redacted]", " ".join(text.split()))
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _server_detail(message: str) -> str:
    """The `error.message` of an OpenAI-style error body inside BAML's message, if any."""
    start = message.find("{")
    if not message.startswith("Request failed with status code") or start < 0:
        return ""
    try:
        body = json.loads(message[start:])
    except ValueError:
        return ""
    error = body.get("error") if isinstance(body, dict) else None
    detail = error.get("message") if isinstance(error, dict) else error
    return f': "{_quote(detail)}"' if isinstance(detail, str) and detail.strip() else ""


def _shown(endpoint: str) -> str:
    """The endpoint without any user:password@ part, since the sentence is shown and saved."""
    parts = urlsplit(endpoint)
    if parts.username is None and parts.password is None:
        return endpoint
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]))


def explain_llm_error(exc: BaseException, endpoint: str) -> AgentError:
    """Map a BAML exception to an AgentError with a one-sentence explanation."""
    endpoint = _shown(endpoint)
    if isinstance(exc, AgentError):
        return exc
    if isinstance(exc, BamlAbortError):
        return TurnCancelled()
    if isinstance(exc, BamlTimeoutError):
        return AgentError(
            f"The model endpoint {endpoint} did not answer in time; try again, raise "
            "MATH_AGENT_TIMEOUT_MS, or point MATH_AGENT_BASE_URL at a faster server.",
            "model_timeout",
        )
    if isinstance(exc, BamlValidationError):
        raw = _quote(getattr(exc, "raw_output", "") or "")
        if not raw:
            return MalformedReply(
                "The model sent an empty reply, not a valid tool call or message; nothing was "
                "changed, so you can ask again or rephrase.",
                "",
            )
        return MalformedReply(
            f'The model\'s reply was not a valid tool call or message (it said: "{raw}"); '
            "nothing was changed, so you can ask again or rephrase.",
            getattr(exc, "raw_output", "") or "",
        )
    if isinstance(exc, BamlClientFinishReasonError):
        reason = _quote(str(getattr(exc, "finish_reason", "") or "unknown"), 40)
        return AgentError(
            f"The model stopped before finishing its reply (finish reason: {reason}); "
            "nothing was changed, so you can ask again or shorten the conversation with /compact."
        )
    if isinstance(exc, BamlClientHttpError):
        status = getattr(exc, "status_code", None)
        text = str(exc)
        lowered = text.lower()
        if "replay_miss" in text:
            return AgentError(
                "The replay cassette has no recording of this request (a prompt or the "
                "conversation changed); re-record it with --record against a real endpoint."
            )
        if status in (401, 403):
            return AgentError(
                f"The model endpoint {endpoint} refused the API key: {KEY_HINT}.", "model_auth"
            )
        if status == 429:
            return AgentError(
                f"The model endpoint {endpoint} is rate-limiting requests; wait a moment "
                "and try again.",
                "model_rate_limited",
            )
        if "connecterror" in lowered or "connection refused" in lowered:
            return AgentError(
                f"Could not reach the model endpoint {endpoint}: start that server or set "
                "MATH_AGENT_BASE_URL to a reachable OpenAI-compatible endpoint.",
                "model_unreachable",
            )
        if status == 404:
            return AgentError(
                f"The model endpoint {endpoint} answered 404: check MATH_AGENT_BASE_URL "
                "(it usually ends in /v1) and MATH_AGENT_MODEL."
            )
        # BAML reports a body it cannot read as a chat completion with the HTTP status (200)
        # or with its own code 2; neither is a server failure that a retry would fix.
        if "failed to parse into a response" in lowered or (
            isinstance(status, int) and 200 <= status < 300
        ):
            return AgentError(
                f"The model endpoint {endpoint} answered, but not with an OpenAI-style chat "
                "completion; check that MATH_AGENT_BASE_URL points at an OpenAI-compatible API "
                "(it usually ends in /v1)."
            )
        # Codes below 100 are BAML's own: the request never got an HTTP answer.
        if not isinstance(status, int) or status < 100:
            return AgentError(
                f"The connection to the model endpoint {endpoint} broke before it answered "
                "(the server closed it or the network failed); try again.",
                "model_unreachable",
            )
        if 400 <= status < 500:
            detail = _server_detail(getattr(exc, "message", "") or "")
            return AgentError(
                f"The model endpoint {endpoint} rejected the request (HTTP {status}{detail}); "
                "asking again will not help: check MATH_AGENT_MODEL, or shorten the "
                "conversation with /compact.",
                "model_rejected",
            )
        return AgentError(f"The model endpoint {endpoint} failed (HTTP {status}); try again.")
    if isinstance(exc, BamlError):
        text = str(exc)
        if "environment variable" in text.lower() or "env." in text:
            return AgentError(f"A provider setting is missing: {KEY_HINT}.")
        first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
        return AgentError(f"The model call failed: {_quote(first, 200).rstrip('.')}.")
    return AgentError(
        f"Unexpected error talking to the model ({type(exc).__name__}: "
        f"{_quote(str(exc), 160).rstrip('.')})."
    )
