"""The ASGI app: the API under /api (OpenAPI at /api/openapi.json) and the chat page at /.

FastAPI for the routes (typed bodies, validation, the schema); each turn streams as
Server-Sent Events written here directly: `event: NAME` and `data: JSON` lines need no
library. Every /api route but /api/health needs the caller's bearer token.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations at run time,
# and `Caller` is local to create_app.
import asyncio
import json
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import StreamingResponse

from agent.context.registry import STRATEGIES
from agent.display.export import transcript_markdown
from agent.display.plotting import plot_request_in
from agent.service import logs
from agent.service.auth import User, Users
from agent.service.errors import ServiceError, error_body
from agent.service.guards import BodyLimit, RateLimit
from agent.service.hub import SessionHub
from agent.service.schemas import (
    ErrorOut,
    NewMessage,
    NewSession,
    SessionChange,
    SessionList,
    SessionOut,
)
from agent.service.views import entry_json, session_json, tokens_json, workspace_json

STATIC = Path(__file__).parent / "static"
KEEPALIVE_S = 15.0
_KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
# The page loads nothing from elsewhere and runs only its own script.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (401, 404, 409, 413, 422, 429, 503)
}
SessionId = Annotated[str, "a session id"]


def create_app(
    hub: SessionHub,
    users: Users,
    rate: str = "120/minute",
    max_body_bytes: int = 64 * 1024,
    cors_origins: tuple[str, ...] = (),
) -> FastAPI:
    app = FastAPI(
        title="math-agent",
        version="1",
        description="A math assistant's sessions and turns (docs/service.md).",
        docs_url=None,  # the interactive docs load scripts from a CDN: the schema is enough
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    limiter = RateLimit(rate)
    bearer = HTTPBearer(auto_error=False, description="a token from MATH_AGENT_TOKENS")

    def current_user(
        request: Request,
        credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    ) -> User:
        user = users.authenticate(credentials.credentials if credentials else None)
        if user is None:
            raise ServiceError(
                401,
                "unauthorized",
                "Send your token as 'Authorization: Bearer TOKEN' (ask whoever runs this "
                "service for one).",
                {"WWW-Authenticate": "Bearer"},
            )
        request.state.user = user.name
        limiter.check(user.name)
        return user

    Caller = Annotated[User, Depends(current_user)]

    # -- errors and logs --------------------------------------------------------------------

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = exc.errors()
        if any(p.get("type") == "json_invalid" for p in problems):
            return JSONResponse(
                error_body("bad_json", "The request body is not valid JSON."), status_code=400
            )
        first = problems[0] if problems else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        what = (
            "is not a field of this request"
            if first.get("type") == "extra_forbidden"
            else str(first.get("msg", "is not valid")).lower()
        )
        return JSONResponse(
            error_body("invalid_request", f"The request's {where or 'body'} {what}."),
            status_code=422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        sentence = {
            404: "There is nothing at this address.",
            405: "This method is not allowed here.",
        }
        message = sentence.get(exc.status_code, "The request could not be served.")
        return JSONResponse(
            error_body("not_found" if exc.status_code == 404 else "http_error", message),
            status_code=exc.status_code,
        )

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        logs.event(
            "internal_error",
            logging.ERROR,
            request_id=request.state.__dict__.get("request_id"),
            error_type=type(exc).__name__,
        )
        return JSONResponse(error_body("internal", "Internal error; try again."), 500)

    @app.middleware("http")
    async def log_and_secure(request: Request, call_next: Any) -> Response:
        started = time.perf_counter()
        request.state.request_id = uuid.uuid4().hex[:12]
        response: Response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers["X-Request-ID"] = request.state.request_id
        route = request.scope.get("route")
        logs.event(
            "request",
            request_id=request.state.request_id,
            method=request.method,
            route=getattr(route, "path", "unmatched"),
            status=response.status_code,
            ms=logs.elapsed_ms(started),
            user=getattr(request.state, "user", None),
        )
        return response

    # -- the page ---------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- the API ----------------------------------------------------------------------------

    @app.get("/api/health", tags=["service"])
    def health() -> dict[str, str]:
        """Liveness and which store this worker uses (no token needed)."""
        return {"status": "ok", "store": hub.store.kind}

    @app.get("/api/strategies", tags=["service"], responses=ERRORS)
    def strategies(_user: Caller) -> dict[str, Any]:
        return {"strategies": sorted(STRATEGIES), "default": hub.runtime.default_strategy()}

    @app.get("/api/sessions", response_model=SessionList, tags=["sessions"], responses=ERRORS)
    def list_sessions(user: Caller) -> dict[str, Any]:
        return {"sessions": [session_json(info) for info in hub.sessions(user)]}

    @app.post(
        "/api/sessions", status_code=201, response_model=SessionOut, tags=["sessions"],
        responses=ERRORS,
    )  # fmt: skip
    def create_session(user: Caller, body: NewSession | None = None) -> dict[str, Any]:
        body = body or NewSession()
        return session_json(hub.create(user, body.title, body.strategy))

    @app.get("/api/sessions/{session_id}", response_model=SessionOut, tags=["sessions"],
             responses=ERRORS)  # fmt: skip
    def get_session(session_id: SessionId, user: Caller) -> dict[str, Any]:
        return session_json(hub.visible(session_id, user))

    @app.patch("/api/sessions/{session_id}", response_model=SessionOut, tags=["sessions"],
               responses=ERRORS)  # fmt: skip
    def change_session(session_id: SessionId, body: SessionChange, user: Caller) -> dict[str, Any]:
        """Rename it (`title`) and/or choose its context strategy (409 while it answers)."""
        if body.title is not None:
            hub.rename(session_id, user, body.title)
        if body.strategy is not None:
            hub.set_strategy(session_id, user, body.strategy)
        return session_json(hub.visible(session_id, user))

    @app.delete("/api/sessions/{session_id}", status_code=204, tags=["sessions"],
                responses=ERRORS)  # fmt: skip
    def delete_session(session_id: SessionId, user: Caller) -> Response:
        hub.delete(session_id, user)
        return Response(status_code=204)

    @app.get("/api/sessions/{session_id}/transcript", tags=["sessions"], responses=ERRORS)
    def transcript(session_id: SessionId, user: Caller) -> dict[str, Any]:
        """Everything that happened, compacted away or not."""
        loaded = hub.load(session_id, user)
        return {"entries": [entry_json(e) for e in loaded.session.transcript.entries]}

    @app.get("/api/sessions/{session_id}/workspace", tags=["sessions"], responses=ERRORS)
    def workspace(session_id: SessionId, user: Caller) -> dict[str, Any]:
        """The REPL's /ws: every equation, function and result with its id."""
        return workspace_json(hub.load(session_id, user).session.conversation())

    @app.get("/api/sessions/{session_id}/tokens", tags=["sessions"], responses=ERRORS)
    def tokens(session_id: SessionId, user: Caller) -> dict[str, Any]:
        """The token ledger: per LLM function and per turn."""
        return tokens_json(hub.load(session_id, user).ledger)

    @app.get("/api/sessions/{session_id}/export.md", tags=["sessions"], responses=ERRORS,
             response_class=PlainTextResponse)  # fmt: skip
    def export(session_id: SessionId, user: Caller) -> PlainTextResponse:
        loaded = hub.load(session_id, user)
        return PlainTextResponse(
            transcript_markdown(loaded.session, session_id),
            media_type="text/markdown; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{session_id}.md"'},
        )

    @app.get("/api/sessions/{session_id}/plot.png", tags=["sessions"], responses=ERRORS)
    def plot(session_id: SessionId, request: str, user: Caller) -> Response:
        """`request` as /plot takes it: `f, #4 from -2 to 3`."""
        image, _marks = hub.plot(session_id, user, request[:500])
        return Response(image, media_type="image/png")

    @app.post("/api/sessions/{session_id}/cancel", tags=["turns"], responses=ERRORS)
    def cancel(session_id: SessionId, user: Caller) -> dict[str, bool]:
        """Stop the turn running for this session in this worker."""
        return {"cancelled": hub.cancel(session_id, user)}

    @app.post(
        "/api/sessions/{session_id}/messages",
        tags=["turns"],
        responses={**ERRORS, 200: {"content": {"text/event-stream": {}}}},
        response_class=StreamingResponse,
    )
    async def message(
        session_id: SessionId,
        body: NewMessage,
        user: Caller,
        idempotency_key: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        """Send a message; the turn comes back as Server-Sent Events: `queued` (the
        embedded model's queue), `tool_call`, `tool_result`, `answer_delta`, then `answer` or
        `error`, then `done` (tokens, seconds). Leaving early loses nothing: the turn
        finishes and is saved. A message that starts with "plot" gets a `plot` event."""
        if idempotency_key is not None and not _KEY.match(idempotency_key):
            raise ServiceError(
                422,
                "invalid_request",
                "The Idempotency-Key header must be 1-100 letters, digits or ._:-.",
            )
        text = body.text
        if (request := plot_request_in(text)) is not None:
            image, marks = await run_in_threadpool(hub.plot, session_id, user, request)
            import base64

            data = "data:image/png;base64," + base64.b64encode(image).decode()
            events = [("plot", {"image": data, "marks": marks}), ("done", {"ok": True})]
            return _sse(_replayed(events))
        lock, replay = await run_in_threadpool(
            hub.begin_turn, session_id, user, text, idempotency_key
        )
        if lock is None:
            return _sse(_replayed(replay))
        channel = _Channel(asyncio.get_running_loop())
        hub.run_turn(session_id, user, lock, text, idempotency_key, channel.emit)
        return _sse(channel.events())

    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key"],
        )
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    return app


def _sse(events: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(
        events,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _frame(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _replayed(events: list[tuple[str, dict[str, Any]]]) -> AsyncIterator[str]:
    for event, data in events:
        yield _frame(event, data)


class _Channel:
    """Events from the turn's thread to the response; once the client is gone, dropped."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self.listening = True

    def emit(self, event: str, data: dict[str, Any]) -> None:
        if not self.listening:
            return
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, (event, data))
        except RuntimeError:  # the loop is closed: the server is stopping
            self.listening = False

    async def events(self) -> AsyncIterator[str]:
        try:
            while True:
                try:
                    event, data = await asyncio.wait_for(self.queue.get(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if event == "end":
                    return
                yield _frame(event, data)
        finally:
            self.listening = False
