"""A readable Markdown transcript of a session (`/export FILE.md`).

Written from the full transcript, not the working context, so an export after compaction
still shows every question, tool call and answer.
"""

from __future__ import annotations

from agent.core.session import Session


def transcript_markdown(session: Session, title: str) -> str:
    lines = [f"# math-agent session: {title}", ""]
    for entry in session.transcript.entries:
        lines += entry.markdown(entry.at.astimezone().strftime("%Y-%m-%d %H:%M:%S"))
    return "\n".join(lines).rstrip() + "\n"
