"""Errors the API answers with: a status, a stable code, and one sentence a person can act on.

The body is always `{"error": {"code": ..., "message": ...}}`; nothing in it repeats a token,
a message's text or a database password.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse


class ServiceError(Exception):
    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}

    def response(self) -> JSONResponse:
        return JSONResponse(error_body(self.code, self.message), self.status, self.headers)


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def not_found() -> ServiceError:
    """The same answer for a session that does not exist and one of another user."""
    return ServiceError(404, "not_found", "There is no session with that id.")


def busy() -> ServiceError:
    return ServiceError(
        409,
        "session_busy",
        "This session is answering another message (here, in another worker or in a REPL); "
        "wait for that answer, then send again.",
    )


def store_down(retry_after: int = 2) -> ServiceError:
    return ServiceError(
        503,
        "store_unavailable",
        "The session database is unreachable right now; try again in a few seconds.",
        {"Retry-After": str(retry_after)},
    )
