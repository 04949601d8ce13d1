"""Recorded LLM exchanges keyed by a hash of the request body, and what a miss says."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import os
import tempfile
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

CASSETTE_VERSION = 1
# Fields that do not change what the model answers: the model is chosen per run, and streaming
# and non-streaming calls must share a recording.
KEY_EXCLUDED_FIELDS = ("model", "stream", "stream_options")
_EXCERPT_CHARS = 60


class ReplayMiss(LookupError):
    """No recorded completion matches a request; `message` says what differs and where."""

    def __init__(self, key: str, message: str, request: dict[str, Any]) -> None:
        super().__init__(message)
        self.key = key
        self.message = message
        self.request = request


def request_key(body: dict[str, Any]) -> str:
    """sha256 of the canonical JSON body without model/stream fields; stable across runs."""
    relevant = {k: v for k, v in body.items() if k not in KEY_EXCLUDED_FIELDS}
    canonical = json.dumps(relevant, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass
class CassetteEntry:
    """One recorded exchange; `usage` is the upstream's own count, kept for reference.
    `provenance` says where this reply came from where entries of one cassette differ (what
    answered it); it adds to the cassette's own `provenance`."""

    key: str
    request: dict[str, Any]
    response: str
    usage: dict[str, Any] | None
    recorded_at: str
    provenance: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        data = {
            "key": self.key,
            "request": self.request,
            "response": self.response,
            "usage": self.usage,
            "recorded_at": self.recorded_at,
        }
        if self.provenance is not None:
            data["provenance"] = self.provenance
        return data


class Cassette:
    """Recorded completions keyed by `request_key`, stored as human-readable JSON.

    `provenance` (optional, kept as read) says how the recording was made: the model and its
    weights' sha256, a hash of the prompts, the date and the command (tests/cassettes/ requires
    it; tests/support/provenance.py writes and checks it)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, CassetteEntry] = {}
        self._lock = threading.RLock()
        self.provenance: dict[str, Any] | None = None

    @classmethod
    def load(cls, path: str | Path) -> Cassette:
        """Read a cassette; a missing file gives an empty one that `save()` will create."""
        cassette = cls(path)
        if not cassette.path or not cassette.path.exists():
            return cassette
        data = json.loads(cassette.path.read_text(encoding="utf-8"))
        if data.get("version") != CASSETTE_VERSION:
            raise ValueError(f"{path}: unsupported cassette version {data.get('version')!r}")
        cassette.provenance = data.get("provenance")
        for raw in data.get("entries", []):
            # Re-derive the key so a hand-edited request is still found.
            key = request_key(raw["request"])
            cassette._entries[key] = CassetteEntry(
                key=key,
                request=raw["request"],
                response=raw["response"],
                usage=raw.get("usage"),
                recorded_at=raw.get("recorded_at", ""),
                provenance=raw.get("provenance"),
            )
        return cassette

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> list[CassetteEntry]:
        with self._lock:
            return list(self._entries.values())

    def lookup(self, body: dict[str, Any]) -> CassetteEntry | None:
        return self._entries.get(request_key(body))

    def add(
        self, body: dict[str, Any], content: str, usage: dict[str, Any] | None = None
    ) -> CassetteEntry:
        """Record (or re-record) the completion for `body`; call `save()` to persist it."""
        recorded_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        entry = CassetteEntry(request_key(body), copy.deepcopy(body), content, usage, recorded_at)
        with self._lock:
            self._entries[entry.key] = entry
        return entry

    def save(self, path: str | Path | None = None) -> None:
        """Write atomically (temp file + os.replace) so a crash never leaves half a cassette."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("cassette has no path; pass one to save()")
        target.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            data: dict[str, Any] = {"version": CASSETTE_VERSION}
            if self.provenance is not None:
                data["provenance"] = self.provenance
            data["entries"] = [e.to_json() for e in self._entries.values()]
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=2, ensure_ascii=False)
                    f.write("\n")
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise

    def closest(self, body: dict[str, Any]) -> tuple[CassetteEntry, int] | None:
        """The entry sharing the longest run of leading messages with `body`, and that length."""
        messages = body.get("messages") or []
        best: tuple[CassetteEntry, int] | None = None
        for entry in self.entries:
            common = _common_prefix(entry.request.get("messages") or [], messages)
            if best is None or common > best[1]:
                best = (entry, common)
        return best

    def miss(self, body: dict[str, Any]) -> ReplayMiss:
        """Build the loud error for an unrecorded request: key, closest entry, first difference."""
        key = request_key(body)
        where = f" in {self.path}" if self.path else ""
        message = f"replay miss: no recorded completion for key {key}{where}"
        found = self.closest(body)
        if found is None:
            message += "; the cassette is empty (record it with RecordResponder / --record)"
        else:
            entry, common = found
            message += (
                f"; closest recorded request {entry.key[:12]} shares {common} leading "
                f"message(s); {describe_difference(entry.request, body)}"
            )
        return ReplayMiss(key, message, body)


def _common_prefix(a: list[Any], b: list[Any]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _as_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return json.dumps(content, sort_keys=True, ensure_ascii=False)


def _excerpt(text: str, at: int) -> str:
    """About `_EXCERPT_CHARS` characters of `text` starting a little before position `at`."""
    start = max(0, at - 20)
    piece = text[start : start + _EXCERPT_CHARS]
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + _EXCERPT_CHARS < len(text) else ""
    return repr(prefix + piece + suffix)


def _first_diff(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def describe_difference(expected: dict[str, Any], got: dict[str, Any]) -> str:
    """Say where `got` first departs from the recorded request `expected`."""
    want = expected.get("messages") or []
    have = got.get("messages") or []
    i = _common_prefix(want, have)
    if i < len(want) and i < len(have):
        w, h = want[i], have[i]
        w_text, h_text = _as_text(w.get("content", "")), _as_text(h.get("content", ""))
        if w_text == h_text and w.get("role") == h.get("role"):
            keys = sorted(k for k in set(w) | set(h) if w.get(k) != h.get(k))
            return f"first differing message: index {i}, role {h.get('role')!r}, fields {keys}"
        at = _first_diff(w_text, h_text)
        return (
            f"first differing message: index {i}; expected role {w.get('role')!r} "
            f"content {_excerpt(w_text, at)}; got role {h.get('role')!r} "
            f"content {_excerpt(h_text, at)} (first difference at character {at})"
        )
    if i < len(want):
        w = want[i]
        return (
            f"first differing message: index {i} is missing; the recording has {len(want)} "
            f"messages, the request {len(have)}; expected role {w.get('role')!r} content "
            f"{_excerpt(_as_text(w.get('content', '')), 0)}"
        )
    if i < len(have):
        h = have[i]
        return (
            f"first differing message: index {i} is extra; the recording has {len(want)} "
            f"messages, the request {len(have)}; got role {h.get('role')!r} content "
            f"{_excerpt(_as_text(h.get('content', '')), 0)}"
        )
    params = sorted(
        k
        for k in (set(expected) | set(got)) - {"messages", *KEY_EXCLUDED_FIELDS}
        if expected.get(k) != got.get(k)
    )
    details = ", ".join(f"{k}: expected {expected.get(k)!r}, got {got.get(k)!r}" for k in params)
    return f"all messages match; request parameters differ: {details}"
