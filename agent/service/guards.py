"""Limits on what a request may cost: its body's size, and a rate per user.

The body cap is an ASGI middleware that reads at most `max_bytes` (+1) before the app sees
anything, so a huge upload is refused with 413 whether it says its length or streams it.
The rate limit uses the `limits` library's moving window (per worker process, in memory):
it knows when the window frees a request, which is what Retry-After must say.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from agent.service.errors import ServiceError, error_body

Scope = dict[str, Any]


class BodyLimit:
    """413 for a request body over `max_bytes`."""

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await self._refuse(send)
                return
        delivered = False

        async def replay() -> dict[str, Any]:
            nonlocal delivered
            if delivered:
                return await receive()  # after the body: wait for the disconnect
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, send: Any) -> None:
        payload = json.dumps(
            error_body(
                "body_too_large",
                f"The request body is over {self.max_bytes:,} bytes; send less (a message "
                "needs only its math).",
            )
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})


class RateLimit:
    """`rate` (e.g. "120/minute") per user name; `check` raises 429 with Retry-After."""

    def __init__(self, rate: str) -> None:
        try:
            self.item = parse(rate)
        except ValueError:
            raise ValueError(
                f"MATH_AGENT_RATE_LIMIT '{rate}' is not a rate like 120/minute."
            ) from None
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, user: str) -> None:
        if self.limiter.hit(self.item, user):
            return
        reset = self.limiter.get_window_stats(self.item, user).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise ServiceError(
            429,
            "rate_limited",
            f"Too many requests for this token; wait {wait} s, then try again.",
            {"Retry-After": str(wait)},
        )
