"""Run SymPy work in a persistent child process that is killed when it runs too long.

Why a process: SymPy cannot be interrupted from another thread, and a signal-based alarm only
works on the main thread of the main interpreter. A child process can always be stopped with
SIGKILL, which also frees whatever memory it grabbed.

Design:

* Persistent workers, started on first use (or by :func:`warm_up`) as
  ``python -c "...tools.worker._child_main(fd)"`` with a socketpair end passed as ``fd``.
  Requests go over it as ``(id, tool name, plain arguments)``; the worker answers
  ``(id, ToolResult)``, SymPy objects pickled back. A common call costs one round trip on the
  socket, not a process start.
* Why not ``multiprocessing.Process``: its spawn and forkserver methods re-run the caller's
  ``__main__`` script in the child (breaking unguarded scripts and importing the whole agent
  into the worker), and ``fork`` copies a possibly multi-threaded caller. A plain
  ``subprocess`` runs only ``tools`` code; the parent is never forked.
* Timeout: the parent waits on the socket for at most the limit; then it SIGKILLs the worker,
  starts a replacement at once (it imports SymPy while the caller carries on) and raises
  ToolTimeout. Waiting for a worker to start is not counted against the limit.
* Threads: a pool of up to ``set_pool_size(n)`` workers (default 1); a call takes an idle
  worker or waits for one, so any thread may call and n calls run at once; each call's limit
  starts when its request is sent, and a timeout replaces only its own worker. After
  ``os.fork`` the child process forgets the parent's workers.
* Exit: an ``atexit`` hook stops the worker, and the worker exits by itself when its parent
  dies (it watches its parent pid), so none is left behind. The worker ignores SIGINT (Ctrl-C
  goes to the caller, which then kills the worker and re-raises).
* The worker caps its address space (``limits.WORKER_MEMORY_BYTES``) so runaway big-integer
  arithmetic fails with MemoryError instead of swapping.
* ``MATH_AGENT_TOOL_INPROCESS=1`` or :func:`set_in_process` runs tools in the calling process
  with no time limit: for debugging and profiling only. ``MATH_AGENT_TOOL_DEBUG=1`` lets the
  worker's stderr through.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from tools import limits
from tools.errors import ToolTimeout
from tools.result import ToolResult

START_TIMEOUT = 120.0
IN_PROCESS_ENV = "MATH_AGENT_TOOL_INPROCESS"
DEBUG_ENV = "MATH_AGENT_TOOL_DEBUG"
_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)
_CHILD_CODE = "import sys; from tools.worker import _child_main; _child_main(int(sys.argv[1]))"

_WHAT = {
    "solve": "Solving",
    "derivative": "The derivative",
    "evaluate": "The evaluation",
    "integral": "The integral",
    "solve_system": "Solving the system",
    "extrema": "Finding the extrema",
    "tangent": "The tangent",
    "transform": "The transform",
    "limit": "The limit",
    "series": "The series",
}


# ---------------------------------------------------------------------------------------------
# Child side


def _limit_memory() -> None:
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = limits.WORKER_MEMORY_BYTES
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or soft > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):
        pass


def _watch_parent(parent_pid: int) -> None:
    """Exit when the parent dies, even in the middle of a long computation."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent_pid:
            os._exit(0)


def _child_main(fd: int) -> None:
    """Worker main loop: answer requests until the socket closes or ``None`` arrives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _limit_memory()
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    conn = Connection(fd)
    from tools import registry

    conn.send(("ready", os.getpid()))
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        request_id, tool, kwargs = request
        result = registry.compute(tool, kwargs)
        try:
            conn.send((request_id, result))
        except (EOFError, OSError):
            return
        except Exception:
            fallback = ToolResult(
                ok=result.ok,
                value=None,
                text=result.text,
                error=result.error or None,
                tool=result.tool,
                input=result.input,
            )
            conn.send((request_id, fallback))


# ---------------------------------------------------------------------------------------------
# Parent side


class _Worker:
    """One child process and our end of its socket."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p
        )
        debug = env.get(DEBUG_ENV, "").strip().lower() in {"1", "true", "yes"}
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _CHILD_CODE, str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=None if debug else subprocess.DEVNULL,
                env=env,
            )
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())
        self.ready = False

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self, timeout: float) -> bool:
        if self.ready:
            return True
        try:
            if not self.conn.poll(timeout):
                return False
            message = self.conn.recv()
        except (EOFError, OSError):
            return False
        self.ready = isinstance(message, tuple) and message[:1] == ("ready",)
        return self.ready

    def stop(self, graceful: bool = False) -> None:
        if graceful and self.alive():
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(0.5)
        with contextlib.suppress(OSError):
            self.conn.close()
        if self.alive():
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(2)


class _Pool:
    """Up to `size` workers; a call takes an idle one (starting one if fewer exist) or waits.

    A worker that times out or crashes is replaced alone: the calls of other sessions on
    other workers go on. The REPL needs one; a service sets one per turn it runs at once.
    """

    def __init__(self, size: int = 1) -> None:
        self.size = max(1, size)
        self.idle: list[_Worker] = []
        self.busy = 0
        self.changed = threading.Condition()
        self.owner_pid = os.getpid()

    def take(self) -> _Worker:
        reused: _Worker | None = None
        with self.changed:
            while not self.idle and self.busy >= self.size:
                self.changed.wait()
            if self.idle:
                reused = self.idle.pop()
            self.busy += 1
        if reused is not None and reused.alive():
            return reused
        if reused is not None:
            reused.stop()
        try:
            return _Worker()
        except BaseException:
            self.give_back(None)
            raise

    def give_back(self, worker: _Worker | None) -> None:
        """Return a worker after a call (None: it was lost and not replaced)."""
        surplus: _Worker | None = None
        with self.changed:
            self.busy -= 1
            if worker is not None:
                if len(self.idle) + self.busy >= self.size:
                    surplus = worker  # the pool was made smaller meanwhile
                else:
                    self.idle.append(worker)
            self.changed.notify()
        if surplus is not None:
            surplus.stop(graceful=True)

    def replace(self, worker: _Worker) -> None:
        """Kill a worker and put its successor in its place right away (it imports SymPy
        while the caller carries on)."""
        worker.stop()
        try:
            fresh: _Worker | None = _Worker()
        except Exception:
            fresh = None
        self.give_back(fresh)

    def resize(self, size: int) -> None:
        with self.changed:
            self.size = max(1, size)
            surplus = self.idle[self.size :]
            del self.idle[self.size :]
            self.changed.notify_all()
        for worker in surplus:
            worker.stop(graceful=True)

    def stop_all(self) -> None:
        with self.changed:
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.stop(graceful=True)


_pool = _Pool()
_ids = itertools.count(1)
_ids_lock = threading.Lock()
_in_process = os.environ.get(IN_PROCESS_ENV, "").strip().lower() in {"1", "true", "yes"}


def _current_pool() -> _Pool:
    global _pool
    if _pool.owner_pid != os.getpid():  # a forked child forgets its parent's workers
        _pool = _Pool(_pool.size)
    return _pool


def set_pool_size(size: int) -> None:
    """How many tool processes may run at once (default 1)."""
    _current_pool().resize(size)


def pool_size() -> int:
    return _current_pool().size


def set_in_process(enabled: bool) -> None:
    """Run tools in this process (no time limit). For debugging and profiling only."""
    global _in_process
    _in_process = bool(enabled)


def warm_up(wait: bool = False) -> None:
    """Start a worker now so the first real call does not pay for the start-up."""
    if _in_process:
        return
    pool = _current_pool()
    worker = pool.take()
    if wait and not worker.wait_ready(START_TIMEOUT):
        pool.replace(worker)
        return
    pool.give_back(worker)


def worker_pid() -> int | None:
    """Process id of an idle worker (for tests and diagnostics)."""
    pool = _current_pool()
    with pool.changed:
        return pool.idle[-1].process.pid if pool.idle else None


def call(tool: str, kwargs: dict[str, Any], timeout: float | None = None) -> ToolResult:
    """Run ``tool`` in a worker within ``timeout`` seconds; raises ToolTimeout past it."""
    from tools import registry

    if _in_process:
        return registry.compute(tool, kwargs)
    seconds = limits.get_timeout(timeout)
    pool = _current_pool()
    worker = pool.take()
    if not worker.wait_ready(START_TIMEOUT):
        pool.replace(worker)
        return ToolResult.failure(
            tool,
            registry.summarize(tool, kwargs),
            "The math engine did not start in time; please try again.",
        )
    with _ids_lock:
        request_id = next(_ids)
    try:
        worker.conn.send((request_id, tool, kwargs))
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not worker.conn.poll(remaining):
                pool.replace(worker)
                what = _WHAT.get(tool, f"The {tool}")
                raise ToolTimeout(
                    f"{what} took too long (over {seconds:g} s) and was stopped; try a "
                    "simpler input or split the problem."
                )
            answer_id, result = worker.conn.recv()
            if answer_id == request_id:
                pool.give_back(worker)
                return result
    except (EOFError, OSError):
        pool.replace(worker)
        return ToolResult.failure(
            tool,
            registry.summarize(tool, kwargs),
            "The math engine crashed on this input (it may have run out of memory); "
            "try a smaller or simpler input.",
        )
    except ToolTimeout:
        raise
    except BaseException:
        pool.replace(worker)
        raise


def shutdown() -> None:
    """Stop the idle workers (registered with atexit; safe to call more than once)."""
    if _pool.owner_pid == os.getpid():
        _pool.stop_all()


atexit.register(shutdown)
