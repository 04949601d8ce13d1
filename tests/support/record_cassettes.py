"""Re-record the cassettes in tests/cassettes/ after a prompt change.

`.venv/bin/python -m tests.support.record_cassettes` records, from the rule-based stand-in model in
tests/support/reference_llm.py (no real model is reachable offline):
- reference_session.json: the reference conversation through `math-agent chat --record`;
- baml_tests.json: the BAML `test` blocks in baml_src/, through `baml-cli test`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from agent.llm.replay import Cassette, RecordResponder, ScriptedResponder, serve
from tests.support import reference_llm

ROOT = Path(__file__).parents[2]
CASSETTES = Path(__file__).parents[1] / "cassettes"
REFERENCE = CASSETTES / "reference_session.json"
BAML_TESTS = CASSETTES / "baml_tests.json"
BAML_CLI = Path(sys.executable).parent / "baml-cli"


def baml_test_environment(base_url: str) -> dict[str, str]:
    """What `baml-cli test` needs to send the test blocks to `base_url`."""
    return {
        **os.environ,
        "MATH_AGENT_BASE_URL": base_url,
        "MATH_AGENT_API_KEY": "replay",
        "MATH_AGENT_MODEL": "replay",
        "BAML_LOG": "warn",
    }


def record_reference(upstream_url: str) -> subprocess.CompletedProcess[str]:
    REFERENCE.unlink(missing_ok=True)
    return subprocess.run(
        [
            *(sys.executable, "-m", "agent.app.cli", "chat", "--record", str(REFERENCE)),
            *("--base-url", upstream_url, "--model", "reference-llm"),
        ],
        input="\n".join(reference_llm.REFERENCE_QUESTIONS) + "\n",
        text=True,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
    )


def record_baml_tests(upstream_url: str) -> subprocess.CompletedProcess[str]:
    BAML_TESTS.unlink(missing_ok=True)
    with serve(RecordResponder(Cassette.load(BAML_TESTS), upstream_url, "no-key")) as recorder:
        return subprocess.run(
            [str(BAML_CLI), "test", "--from", "baml_src"],
            env=baml_test_environment(recorder.base_url),
            text=True,
            capture_output=True,
            timeout=120,
            cwd=ROOT,
        )


def main() -> int:
    with serve(ScriptedResponder(reference_llm.reference_model())) as upstream:
        runs = [record_reference(upstream.base_url), record_baml_tests(upstream.base_url)]
    for run in runs:
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
    print(f"recorded {REFERENCE} and {BAML_TESTS}", file=sys.stderr)
    return max(run.returncode for run in runs)


if __name__ == "__main__":
    raise SystemExit(main())
