"""The bounded worker: timeouts are enforced, the next call works, nothing is left behind."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import tools
from agent.bench.tools_latency import SLOW_INTEGRAND
from tools import limits, worker
from tools.errors import ToolTimeout

LIMIT = 2.0


def _timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


def test_real_integral_is_stopped_within_ten_percent() -> None:
    worker.warm_up(wait=True)
    result, elapsed = _timed(lambda: tools.integral(SLOW_INTEGRAND, timeout=LIMIT))
    assert not result.ok
    assert "took too long (over 2 s)" in result.error
    assert result.text == result.error
    assert LIMIT * 0.99 <= elapsed <= LIMIT * 1.10, elapsed
    after, _ = _timed(lambda: tools.solve("x^2 - 4 = 0"))
    assert after.ok and after.value == [-2, 2]


def test_cpu_bound_hook_is_killed() -> None:
    worker.warm_up(wait=True)
    before = worker.worker_pid()
    with pytest.raises(ToolTimeout) as info:
        start = time.monotonic()
        worker.call("_spin", {"seconds": 30}, timeout=1.0)
    elapsed = time.monotonic() - start
    assert 1.0 <= elapsed <= 1.1
    assert "took too long (over 1 s)" in info.value.message
    assert worker.worker_pid() != before
    assert tools.derivative("x^3").ok


def test_env_var_sets_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(limits.TIMEOUT_ENV, "1.5")
    assert limits.get_timeout() == 1.5
    worker.warm_up(wait=True)
    start = time.monotonic()
    with pytest.raises(ToolTimeout):
        worker.call("_spin", {"seconds": 30})
    assert time.monotonic() - start < 1.5 * 1.1
    monkeypatch.setenv(limits.TIMEOUT_ENV, "not a number")
    assert limits.get_timeout() == limits.DEFAULT_TIMEOUT


def test_set_timeout_and_explicit_argument() -> None:
    try:
        limits.set_timeout(3)
        assert limits.get_timeout() == 3
        assert limits.get_timeout(0.5) == 0.5
        with pytest.raises(ValueError):
            limits.set_timeout(0)
    finally:
        limits.set_timeout(None)
    assert limits.get_timeout() == limits.DEFAULT_TIMEOUT


def test_crash_is_reported_and_recovered() -> None:
    worker.warm_up(wait=True)
    result = worker.call("_crash", {})
    assert not result.ok and "crashed" in result.error
    assert tools.solve("x - 1").value == [1]


def test_calls_from_threads_while_one_times_out() -> None:
    worker.warm_up(wait=True)
    results: dict[str, object] = {}

    def slow() -> None:
        results["slow"] = tools.integral(SLOW_INTEGRAND, timeout=1.0)

    def fast(n: int) -> None:
        results[f"fast{n}"] = tools.solve(f"x^2 - {n * n}")

    threads = [threading.Thread(target=slow)] + [
        threading.Thread(target=fast, args=(n,)) for n in range(1, 6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not results["slow"].ok  # type: ignore[attr-defined]
    for n in range(1, 6):
        assert results[f"fast{n}"].value == [-n, n]  # type: ignore[attr-defined]


def test_special_values_pickle_back() -> None:
    assert tools.solve("sin(x) = 0").value  # ImageSet-derived expressions with integer n
    assert tools.solve("x^5 - x - 1").value  # CRootOf
    assert tools.solve("x = x").value is not None  # S.Complexes
    assert tools.integral("x^n", "x").ok  # Piecewise


def test_in_process_mode_for_debugging() -> None:
    worker.set_in_process(True)
    try:
        result = tools.solve("x^2 - 1")
        assert result.value == [-1, 1]
    finally:
        worker.set_in_process(False)


def test_no_worker_left_at_exit(tmp_path: Path) -> None:
    """A script that uses the tools and exits normally leaves no worker process behind."""
    script = tmp_path / "use_tools.py"
    script.write_text(
        textwrap.dedent(
            """
            import tools
            from tools import worker
            assert tools.solve("x^2 - 1").ok
            print(worker.worker_pid())
            """
        )
    )
    root = Path(tools.__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    pid = int(out.stdout.strip())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.1)
    assert not _alive(pid)


def test_worker_exits_when_parent_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "killed.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys, time
            import tools
            from tools import worker
            worker.warm_up(wait=True)
            print(worker.worker_pid(), flush=True)
            time.sleep(60)
            """
        )
    )
    root = Path(tools.__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        pid = int(proc.stdout.readline().strip())  # type: ignore[union-attr]
        assert _alive(pid)
        proc.kill()
        proc.wait(10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.2)
        assert not _alive(pid)
    finally:
        if proc.poll() is None:
            proc.kill()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split()[2] != "Z"
    except OSError:
        return True
