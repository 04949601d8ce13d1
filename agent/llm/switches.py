"""On/off switches read from the environment, one spelling for all of them."""

from __future__ import annotations

import os

ON = ("1", "on", "yes", "true")


def switched_on(name: str) -> bool:
    """On only when the variable says 1/on/yes/true (settings measured against their default)."""
    return os.environ.get(name, "").strip().lower() in ON
