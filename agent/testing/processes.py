"""What the service's tests and `bench serve` need to start their own processes on loopback:
a free port, and an environment that reaches no configured provider or database."""

from __future__ import annotations

import os
import socket


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def child_env(**extra: str) -> dict[str, str]:
    """This environment without any MATH_AGENT_* setting (no .env, no embedded model), plus
    `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MATH_AGENT")}
    return {**env, "MATH_AGENT_ENV_FILE": os.devnull, "MATH_AGENT_LOCAL": "0", **extra}
