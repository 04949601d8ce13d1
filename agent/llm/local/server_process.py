"""The embedded model's server process: `python -m agent.llm.local.server_process --model FILE --port N ...`.

It runs llama.cpp's OpenAI-compatible HTTP server (xllamacpp) in this process, bound to
127.0.0.1, in a session of its own so a Ctrl-C meant for the REPL never reaches it. It lives
only while some REPL holds a lease (a file named `<pid>.<token>` in the leases folder): a
watchdog thread ends it within a second of the last leaseholder going away, even if that
process was killed with SIGKILL and could not clean up.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

from agent.processes import pid_alive

WATCH_INTERVAL_S = 0.5


def live_leases(directory: Path) -> list[Path]:
    """Lease files whose holder is alive; stale ones are removed on the way."""
    try:
        entries = list(directory.iterdir())
    except FileNotFoundError:
        return []
    live = []
    for entry in entries:
        pid_text = entry.name.partition(".")[0]
        if pid_text.isdigit() and pid_alive(int(pid_text)):
            live.append(entry)
        else:
            entry.unlink(missing_ok=True)
    return live


def _try_lock(path: Path | None) -> int | None:
    """A non-blocking exclusive flock on `path` (an fd to close), or None when it is held."""
    if path is None:
        return os.open(os.devnull, os.O_RDONLY)
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def watch_leases(
    leases: Path,
    lock: Path | None = None,
    state: Path | None = None,
    on_empty: Callable[[], None] | None = None,
    interval: float = WATCH_INTERVAL_S,
) -> threading.Thread:
    """Start a daemon thread that ends this process when no live lease remains.

    The decision is taken under the same lock the REPLs hold while they reuse or stop a
    server, so a REPL that is just attaching is never left with a server that exits.
    """

    def exit_now() -> None:
        os._exit(0)

    def run() -> None:
        while True:
            time.sleep(interval)
            if live_leases(leases):
                continue
            fd = _try_lock(lock)
            if fd is None:
                continue  # a REPL is starting, reusing or stopping: look again later
            if live_leases(leases):
                os.close(fd)
                continue
            if state is not None:
                _remove_state_if_mine(state)
            (on_empty or exit_now)()
            os.close(fd)
            return

    thread = threading.Thread(target=run, name="lease-watchdog", daemon=True)
    thread.start()
    return thread


def _remove_state_if_mine(state: Path) -> None:
    import json

    with contextlib.suppress(OSError, ValueError):
        if json.loads(state.read_text()).get("pid") == os.getpid():
            state.unlink()


def slot_save_path(slots: Path) -> str:
    """The directory as llama.cpp wants it: it appends a state's file name to this text as it
    is, so without a trailing separator `slots/` + `start.bin` would be `slotsstart.bin`."""
    return os.path.join(str(slots), "")


def configure_slots(params: object, context: int, parallel: int) -> None:
    """`parallel` slots, each keeping a whole context of `context` tokens for its own
    conversation (llama.cpp divides `n_ctx` among the slots), so a session that comes back to
    its slot finds its prompt cached (agent.llm.local.slots). One slot: the REPL's setting."""
    parallel = max(1, parallel)
    params.n_parallel = parallel  # type: ignore[attr-defined]
    params.n_ctx = context * parallel  # type: ignore[attr-defined]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m agent.llm.local.server_process")
    parser.add_argument("--model", required=True, type=Path)
    parser.add_argument("--alias", required=True)
    parser.add_argument("--port", required=True, type=int)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--ctx", required=True, type=int)
    parser.add_argument("--threads", required=True, type=int)
    parser.add_argument("--max-tokens", required=True, type=int)
    parser.add_argument("--temperature", required=True, type=float)
    parser.add_argument("--leases", required=True, type=Path)
    parser.add_argument("--lock", type=Path)
    parser.add_argument("--state", type=Path)
    parser.add_argument("--slots", type=Path, help="where the slot's saved states go")
    parser.add_argument("--parallel", type=int, default=1, help="slots serving requests at once")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # The watchdog runs during the multi-second model load too.
    watch_leases(args.leases, args.lock, args.state)
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(args.model)
    params.model_alias = {args.alias}
    params.hostnames = [args.host]
    params.port = args.port
    configure_slots(params, args.ctx, args.parallel)
    params.n_predict = args.max_tokens
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.sampling.temp = args.temperature
    params.ui = False
    if args.slots is not None:  # `POST /slots/0?action=save|restore` (agent.llm.local.start_state)
        args.slots.mkdir(parents=True, exist_ok=True)
        params.slot_save_path = slot_save_path(args.slots)
    _server = xllamacpp.Server(params)  # returns once the model is loaded; HTTP is up already

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_: stop.set())
    while not stop.wait(1.0):
        pass
    # Skip interpreter teardown of the native server: the OS frees everything at once.
    os._exit(0)


if __name__ == "__main__":
    main()
