"""Exceptions used inside the tools; they never cross the public boundary.

Every tool turns these into a failed ``ToolResult`` whose ``error`` is the exception's message,
so each message is written as one sentence a person can act on.
"""

from __future__ import annotations


class ToolError(Exception):
    """A problem with the user's math that has a clear, human-readable explanation."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ParseError(ToolError):
    """The text could not be read as math (bad character, missing bracket, unknown name...)."""


class LimitError(ToolError):
    """The input is within the grammar but too big to compute safely (size, exponent, depth)."""


class ToolTimeout(ToolError):
    """The computation ran past the wall-clock limit and its worker process was stopped."""
