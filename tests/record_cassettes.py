"""Re-record tests/cassettes/reference_session.json through `math-agent chat --record`.

Run after changing a prompt: `.venv/bin/python -m tests.record_cassettes`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agent.replay import ScriptedResponder, serve
from tests import reference_llm

CASSETTE = Path(__file__).parent / "cassettes" / "reference_session.json"


def main() -> int:
    CASSETTE.unlink(missing_ok=True)
    with serve(ScriptedResponder(reference_llm.respond)) as upstream:
        completed = subprocess.run(
            [
                sys.executable,
                "-m",
                "agent.cli",
                "chat",
                "--record",
                str(CASSETTE),
                "--base-url",
                upstream.base_url,
                "--model",
                "reference-llm",
            ],
            input="\n".join(reference_llm.REFERENCE_QUESTIONS) + "\n",
            text=True,
            capture_output=True,
            timeout=120,
        )
    sys.stdout.write(completed.stdout)
    sys.stderr.write(completed.stderr)
    print(f"recorded {CASSETTE}", file=sys.stderr)
    return completed.returncode


if __name__ == "__main__":
    raise SystemExit(main())
