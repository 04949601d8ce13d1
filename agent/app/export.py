"""A readable Markdown transcript of a session (`/export FILE.md`).

Written from the full transcript, not the working context, so an export after compaction
still shows every question, tool call and answer.
"""

from __future__ import annotations

from agent.app.render import describe_compaction, format_call
from agent.core.session import Session
from agent.core.transcript import CompactionRecord, ErrorRecord
from agent.messages import (
    AssistantMessage,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


def transcript_markdown(session: Session, title: str) -> str:
    lines = [f"# math-agent session: {title}", ""]
    for entry in session.transcript.entries:
        stamp = entry.at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
        if isinstance(entry, UserMessage):
            lines += [f"## You ({stamp})", "", entry.text, ""]
        elif isinstance(entry, ToolCall):
            lines.append(f"- tool call: `{format_call(entry)}`")
        elif isinstance(entry, ToolResultMessage):
            label = "result" if entry.ok else "error"
            lines += [f"- tool {label}: `{entry.text}`", ""]
        elif isinstance(entry, AssistantMessage):
            waiting = " (waiting for your answer)" if entry.task_status == "PROCESSING" else ""
            lines += [f"**math-agent**{waiting}: {entry.text}", ""]
        elif isinstance(entry, SummaryMessage):
            lines += [f"> summary ({entry.strategy}):", ">"]
            lines += [f"> - {e.question} → {e.answer}" for e in entry.exchanges]
            lines.append("")
        elif isinstance(entry, CompactionRecord):
            lines += [f"_{stamp}: {describe_compaction(entry)}_", ""]
        elif isinstance(entry, ErrorRecord):
            lines += [f"_{stamp}: {entry.text}_", ""]
    return "\n".join(lines).rstrip() + "\n"
