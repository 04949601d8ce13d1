"""Who is asking: bearer tokens from MATH_AGENT_TOKENS or MATH_AGENT_TOKENS_FILE.

Each token belongs to a user name (`alice:TOKEN`; a token given alone is named after a hash
of it), and a session belongs to the user whose token made it. Tokens are kept only as
SHA-256 digests and compared in constant time. With no tokens configured the service runs
for this machine alone: it must then listen on a loopback address, and its sessions are the
ones nobody owns (the REPL's), so a session goes from the terminal to the browser and back.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path

TOKENS_ENV = "MATH_AGENT_TOKENS"
TOKENS_FILE_ENV = "MATH_AGENT_TOKENS_FILE"
MIN_TOKEN_CHARS = 16
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_TOKEN = re.compile(r"^[\x21-\x7e]+$")


class ConfigError(Exception):
    """A setting the service cannot start with, in one sentence."""


@dataclass(frozen=True)
class User:
    name: str  # for logs and rate limits
    owner: str | None  # what sessions are owned by: None for the local user


LOCAL_USER = User("local", None)


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class Users:
    """Token digests -> users; `open` when no token is configured (loopback only)."""

    def __init__(self, tokens: dict[str, str]) -> None:
        self._by_digest = {_digest(token): name for token, name in tokens.items()}

    @property
    def open(self) -> bool:
        return not self._by_digest

    def __len__(self) -> int:
        return len(set(self._by_digest.values()))

    def authenticate(self, token: str | None) -> User | None:
        if self.open:
            return LOCAL_USER
        if not token:
            return None
        digest = _digest(token)
        found = None
        for known, name in self._by_digest.items():  # every entry compared: constant time
            if hmac.compare_digest(known, digest):
                found = name
        return User(found, found) if found is not None else None

    @classmethod
    def from_environment(cls) -> Users:
        lines: list[str] = []
        if named := os.environ.get(TOKENS_ENV, "").strip():
            lines += [part.strip() for part in named.split(",")]
        if path := os.environ.get(TOKENS_FILE_ENV, "").strip():
            try:
                text = Path(path).expanduser().read_text(encoding="utf-8")
            except OSError as exc:
                raise ConfigError(
                    f"Could not read the tokens file {path} ({exc.strerror}); fix "
                    f"{TOKENS_FILE_ENV}."
                ) from None
            lines += [line.strip() for line in text.splitlines()]
        return cls(parse_tokens(lines))


def parse_tokens(lines: list[str]) -> dict[str, str]:
    """`name:token` or `name token` or a bare token per entry; `#` starts a comment."""
    tokens: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, separator, token = line.replace(" ", ":", 1).partition(":")
        if not separator:
            name, token = f"user-{_digest(line).hex()[:8]}", line
        token = token.strip()
        if not _NAME.match(name):
            raise ConfigError(
                f"Token entry {number} has a user name that is not 1-64 letters, digits, "
                "'_', '.' or '-'."
            )
        if len(token) < MIN_TOKEN_CHARS or not _TOKEN.match(token):
            raise ConfigError(
                f"Token entry {number} (user {name}) is shorter than {MIN_TOKEN_CHARS} "
                "characters or has spaces; use e.g. `python -c 'import secrets; "
                "print(secrets.token_urlsafe(24))'`."
            )
        tokens[token] = name
    return tokens


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
