"""The BAML `test` blocks in baml_src/ pass under `baml-cli test` against the replay server."""

from __future__ import annotations

import subprocess

from agent.llm.replay import Cassette, ReplayResponder, serve
from tests.support.record_cassettes import BAML_CLI, BAML_TESTS, ROOT, baml_test_environment


def test_baml_cli_test_blocks_pass_on_replay() -> None:
    with serve(ReplayResponder(Cassette.load(BAML_TESTS))) as server:
        done = subprocess.run(
            [str(BAML_CLI), "test", "--from", "baml_src"],
            env=baml_test_environment(server.base_url),
            text=True,
            capture_output=True,
            timeout=180,
            cwd=ROOT,
        )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "9 tests (9 ✅)" in output
    assert server.misses == []
