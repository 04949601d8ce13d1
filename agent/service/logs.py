"""Structured logs: one JSON object per line on stderr, made of named fields only.

A service log must never hold what people wrote, what the model answered, a bearer token or
a database password. So events carry only fields from `FIELDS` (ids, counts, codes, timings);
anything else passed is dropped, and an exception is logged by its type name, never its text.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

LOGGER = logging.getLogger("math_agent.service")
FIELDS = frozenset(
    {
        "request_id", "method", "route", "status", "ms", "user", "session", "turn", "ok",
        "error_kind", "tool_calls", "input_tokens", "output_tokens", "llm_calls", "seconds",
        "code", "store", "host", "port", "users", "provider", "model", "workers", "slots",
        "error_type", "attempts", "replayed",
    }
)  # fmt: skip


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = getattr(record, "fields", None)
        if fields is not None:
            payload["event"] = record.getMessage()
            payload.update({k: v for k, v in fields.items() if k in FIELDS})
        else:  # the server's own lines (uvicorn): their text, never a traceback's
            payload["event"] = "server"
            payload["text"] = record.getMessage()[:300]
        if record.exc_info and record.exc_info[0] is not None:
            payload["error_type"] = record.exc_info[0].__name__
        return json.dumps(payload, default=str)


def setup(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    LOGGER.setLevel(level)


def event(name: str, level: int = logging.INFO, **fields: Any) -> None:
    LOGGER.log(level, name, extra={"fields": fields})


def elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
