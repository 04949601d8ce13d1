"""A session as the API shows it: JSON built from the transcript, the workspace and the
ledger (the same records the REPL prints), with math as MathML segments for the page."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from agent.accounting.ledger import UsageLedger
from agent.core.transcript import Entry
from agent.display.mathml import segments
from agent.messages import Message
from agent.storage.records import SessionInfo
from agent.workspace.building import build


def math_segments(text: str) -> list[dict[str, str]]:
    return [segment.as_json() for segment in segments(text)]


def session_json(info: SessionInfo) -> dict[str, Any]:
    return {
        "id": info.name,
        "title": info.title,
        "strategy": info.strategy,
        "turns": info.turns,
        "created_at": info.created_at,
        "updated_at": info.updated_at,
        "input_tokens": info.input_tokens,
        "output_tokens": info.output_tokens,
        "busy": info.open_elsewhere,
    }


def entry_json(entry: Entry) -> dict[str, Any]:
    """One transcript entry: what the REPL's /history shows, with math marked up."""
    shown: dict[str, Any] = {"kind": entry.kind, "at": entry.at.isoformat()}
    if entry.kind == "user":
        shown["text"] = entry.as_typed
    elif entry.kind == "tool_call":
        shown.update(call_id=entry.call_id, tool=entry.tool, call=entry.call_text)
        shown["arguments"] = entry.arguments
    elif entry.kind == "tool_result":
        shown.update(call_id=entry.call_id, tool=entry.tool, ok=entry.ok, text=entry.text)
        shown.update(item=entry.item, values=list(entry.values))
        shown["segments"] = math_segments(entry.text) if entry.ok else [{"text": entry.text}]
    elif entry.kind == "assistant":
        shown.update(text=entry.shown, status=entry.task_status)
        shown["segments"] = math_segments(entry.shown)
        if entry.offer is not None:  # the runner-up: the person's `1` runs it
            shown["offer"] = {"text": entry.offer.text, "pick": entry.offer.PICK}
    else:
        shown["text"] = entry.terminal_row()[1]
    return shown


def workspace_json(conversation: list[Message]) -> dict[str, Any]:
    """`/ws`: every item with its id, and the notes about the person."""
    workspace = build(conversation)
    positions = workspace.positions()
    return {
        "notes": list(workspace.notes),
        "items": [
            {
                "id": item.id,
                "kind": item.kind,
                "origin": item.origin,
                "name": item.name,
                "math": item.shown,
                "line": workspace.line_of(item, positions),
                "segments": math_segments(item.shown),
            }
            for item in workspace.items
        ],
    }


def tokens_json(ledger: UsageLedger) -> dict[str, Any]:
    """`/tokens`: totals, per LLM function and per turn."""
    by_function: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    by_turn: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for call in ledger.calls:
        for table, key in ((by_function, call.function), (by_turn, call.turn)):
            row = table[key]  # type: ignore[index]
            row["calls"] += 1
            row["input_tokens"] += call.input_tokens
            row["output_tokens"] += call.output_tokens
            row["seconds"] += call.duration_ms / 1000
    totals = ledger.totals()

    def rounded(row: dict[str, float]) -> dict[str, float]:
        return {k: (round(v, 3) if k == "seconds" else int(v)) for k, v in row.items()}

    return {
        "input_tokens": totals[0],
        "output_tokens": totals[1],
        "llm_calls": ledger.count(),
        "by_function": {name: rounded(row) for name, row in by_function.items()},
        "by_turn": [{"turn": turn, **rounded(row)} for turn, row in sorted(by_turn.items())],
    }
